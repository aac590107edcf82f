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

// Heatmap cell -> the physical core at its nominal position. A snapshot's mesh
// is the preset's fabric (offset 0) or its usable mesh (offset: the reserved
// border); any other size is an error. The Defects layer, the displacement
// arrows and a brush on the heatmap all map cells with it.
class CellToCore
{
public:
    static Expected<CellToCore> of(int meshCols, int meshRows, const SpareLayout& layout);
    int physicalX(int cellX) const { return m_layout->nominalPhysicalX(cellX + m_offsetX); }
    int physicalY(int cellY) const { return m_layout->nominalPhysicalY(cellY + m_offsetY); }
    // Row-major index on the physical grid (Remap::state's index); -1 when the core is off that grid.
    int32_t physicalIndex(int cellX, int cellY) const;

private:
    const SpareLayout* m_layout = nullptr;
    int m_offsetX = 0;
    int m_offsetY = 0;
};

// Fills snapshot.coreState[device] (resizing coreState to at least device + 1 entries).
Status fillDefectLayer(MeshSnapshot& snapshot, int device, const Remap& remap);

} // namespace ws
