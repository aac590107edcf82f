#pragma once
// Fills a MeshSnapshot (the heatmap contract) from a Placement: per core of
// each device the SRAM occupancy, the owner (layer and the tensor kind with
// the most bytes in its region) and the KV share; the reserved border marked
// CoreState::Reserved; one MeshRegion per layer region. Per-core values are
// computed from the region tiles on the fly (a sum of row-length x
// block-length products per tensor), so nothing per core is kept beyond the
// snapshot itself. A device range keeps snapshots of 20+ wafer models small.
// Cores over their SRAM carry the overflow (MeshSnapshot::overflowBytes).

#include "engine/wafer/placement/meshsnapshot.h"
#include "engine/wafer/placement/placement.h"

namespace ws {

// Devices [firstDevice, firstDevice + deviceCount); deviceCount < 0 means all from firstDevice.
MeshSnapshot buildMeshSnapshot(const Placement& placement, int firstDevice = 0, int deviceCount = -1);

// The snapshot of `next` from `previous`, the snapshot of `before` over the same device range: only the cores of
// regions that differ between the two placements (moved, resized, swapped, other tensors or KV) are recomputed,
// the rest is copied, so a hand edit of a 4-wafer layout costs the edited regions, not the wafers. Equal to
// buildMeshSnapshot(next, firstDevice, deviceCount); it falls back to that when the mesh, the device count, the
// strategy or the set of layers differ.
MeshSnapshot updateMeshSnapshot(const MeshSnapshot& previous, const Placement& before, const Placement& next,
                                int firstDevice = 0, int deviceCount = -1);
// The same into `out`, whose buffers (a snapshot no longer shown, of the same mesh) are reused: copying the
// unchanged wafers then writes memory already mapped instead of faulting in fresh pages. `out` must not be
// `previous`.
void updateMeshSnapshotInto(MeshSnapshot& out, const MeshSnapshot& previous, const Placement& before,
                            const Placement& next, int firstDevice = 0, int deviceCount = -1);

} // namespace ws
