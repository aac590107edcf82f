#include "engine/wafer/mesh/meshshapes.h"

#include "engine/wafer/mesh/meshengine.h"

#include <map>
#include <tuple>

namespace ws {

Expected<MeshLayoutTiming> timeLayersByShape(const Placement& placement, const ModelConfig& model,
                                             const MeshParams& params, int64_t context,
                                             const std::function<bool(int, int)>& progress)
{
    // Each layer's region and the device of the next layer's.
    std::map<int, const PlacedRegion*> regionOf;
    for (const PlacedRegion& r : placement.regions)
        if (r.layer >= 0 && !regionOf.count(r.layer))
            regionOf[r.layer] = &r;
    if (regionOf.empty())
        return makeError(ErrorCode::Unsupported, "the placement has no layer regions to execute");
    using Key = std::tuple<int, int, int64_t, bool, int, int, int, int>;
    std::map<Key, size_t> shapeOf;
    MeshLayoutTiming out;
    for (const auto& [layer, region] : regionOf) {
        const auto next = regionOf.find(layer + 1);
        const bool crosses = next != regionOf.end() && next->second->device != region->device;
        // Where the hop onwards goes: the next region's place relative to this one and its size (its lanes).
        const int dx = next == regionOf.end() ? 0 : next->second->rect.x - region->rect.x;
        const int dy = next == regionOf.end() ? 0 : next->second->rect.y - region->rect.y;
        const int nw = next == regionOf.end() ? 0 : next->second->rect.width;
        const int nh = next == regionOf.end() ? 0 : next->second->rect.height;
        const Key key{region->rect.width, region->rect.height, region->kvBytes(), crosses, dx, dy, nw, nh};
        auto [it, added] = shapeOf.try_emplace(key, out.shapes.size());
        if (added)
            out.shapes.push_back({region->rect.width, region->rect.height, crosses, {}, 0, 0});
        out.shapes[it->second].layers.push_back(layer);
    }
    int done = 0;
    for (MeshShapeTiming& shape : out.shapes) {
        MeshOptions o;
        o.context = context;
        o.layer = shape.layers.front();
        auto run = executeMeshToken(placement, model, params, o);
        if (!run)
            return run.error();
        shape.engineCycles = run->totalCycles;
        shape.closedFormCycles = run->closedFormCycles();
        out.clockHz = run->clockHz;
        out.engineCycles += shape.engineCycles * double(shape.layers.size());
        out.closedFormCycles += shape.closedFormCycles * double(shape.layers.size());
        if (progress && !progress(++done, int(out.shapes.size())))
            return makeError(ErrorCode::Cancelled, "timing the layout was cancelled");
    }
    return out;
}

} // namespace ws
