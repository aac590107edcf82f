#pragma once
// The heatmap's Defects layer from a remap. MeshSnapshot arrays are indexed by
// the snapshot's mesh (meshCols x meshRows), which is either the preset's fabric
// or its usable mesh (fabric minus the reserved border). Each cell shows the
// physical core at that cell's nominal position (where its logical core sits when
// nothing is dead): Dead, Healthy, Shifted (it now hosts a displaced logical
// core), Reserved (memcpy border), or SpareIdle (healthy but hosting no logical
// core: its row was dropped, its line retired, or it
// was stepped over so that a vertical link stays within one position). Spare cores have no nominal
// cell; a view that wants them draws Remap::states() on the physical grid
// (layout().physicalCols() x physicalRows()), which also has SpareUsed/SpareIdle,
// and Remap::displacementX/Y for arrows.

#include "engine/core/error.h"
#include "engine/wafer/placement/meshsnapshot.h"
#include "engine/wafer/redundancy/remap.h"

namespace ws {

// Fills snapshot.coreState[device] (resizing coreState to at least device + 1 entries).
Status fillDefectLayer(MeshSnapshot& snapshot, int device, const Remap& remap);

} // namespace ws
