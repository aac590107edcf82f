#include "app/io/placementregions.h"

#include "engine/wafer/placement.h"

#include <algorithm>

namespace ws {

namespace {

PlacedRect fabricRect(const Placement& p, const PlacedRegion& region)
{
    return PlacedRect{region.device, region.rect.x + p.originX, region.rect.y + p.originY, region.rect.width,
                      region.rect.height};
}

bool holds(const PlacedRegion& region, TensorKind kind)
{
    return std::any_of(region.tensors.begin(), region.tensors.end(),
                       [kind](const RegionTensor& t) { return t.kind == kind; });
}

} // namespace

PlacementRegions PlacementRegions::of(const Placement& p, int layerCount)
{
    PlacementRegions out;
    out.meshCols = p.fabricCols;
    out.meshRows = p.fabricRows;
    out.deviceCount = p.deviceCount;
    out.layers.resize(size_t(std::max(0, layerCount)));
    bool haveEmbedding = false;
    bool haveHead = false;
    for (const PlacedRegion& region : p.regions) {
        if (region.layer >= 0 && region.layer < layerCount && out.layers[size_t(region.layer)].width == 0)
            out.layers[size_t(region.layer)] = fabricRect(p, region);
        if (!haveEmbedding && holds(region, TensorKind::TokenEmbedding)) {
            out.embedding = fabricRect(p, region);
            haveEmbedding = true;
        }
        if (holds(region, TensorKind::Output)) { // the last slice: where the argmax ends
            out.lmHead = fabricRect(p, region);
            haveHead = true;
        }
    }
    if (!haveHead) // tied embeddings: the table is the LM head
        out.lmHead = out.embedding;
    return out;
}

} // namespace ws
