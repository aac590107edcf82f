#pragma once
// Where a placement put each transformer layer and the embedding and LM-head
// tables, as plain rectangles in fabric coordinates (MeshSnapshot indices).
// MeshAnimation builds the dataflow schedule on these, so the animation runs
// over the same regions the heatmap shows. (A neutral struct: placement.h and
// schedule.h cannot meet in one translation unit, both define ws::CoreRect.)

#include <memory>
#include <vector>

namespace ws {

class Placement;

struct PlacedRect
{
    int device = 0;
    int x = 0; // fabric coordinates
    int y = 0;
    int width = 0;
    int height = 0;
};

struct PlacementRegions
{
    int meshCols = 0; // fabric
    int meshRows = 0;
    int deviceCount = 0;
    std::vector<PlacedRect> layers; // one per transformer layer (empty rect when a layer has no region)
    PlacedRect embedding;
    PlacedRect lmHead;

    static PlacementRegions of(const Placement& placement, int layerCount);
};

} // namespace ws
