#pragma once
// Data tables built from a mesh snapshot for export: the per-core SRAM map
// (one row per core of every device, with what it holds), its rows made as
// they are written (SramMapRows).

#include "app/export/datatable.h"
#include "engine/wafer/placement/meshsnapshot.h"

namespace ws {

class SnapshotTables
{
public:
    // Columns: device, x, y, sram_used_bytes, sram_fraction, kv_fraction, layer_index, tensor_kind,
    // activity, state. Devices whose arrays do not match the mesh size are skipped.
    // The activity column comes from `frame` (a dataflow frame of this snapshot) when given, else it is unknown.
    static DataTable sramMap(std::shared_ptr<const MeshSnapshot> snapshot, std::shared_ptr<const MeshFrame> frame = {});
    static DataTable sramMap(const MeshSnapshot& snapshot); // a copy of `snapshot`
};

} // namespace ws
