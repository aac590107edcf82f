#include "engine/wafer/placement/meshsnapshot.h"

namespace ws {

const std::array<MeshLayer, 7>& allMeshLayers()
{
    static constexpr std::array<MeshLayer, 7> layers{
        MeshLayer::SramOccupancy, MeshLayer::WeightPlacement, MeshLayer::KvCache, MeshLayer::Dataflow,
        MeshLayer::Defects,       MeshLayer::Links,           MeshLayer::Values};
    return layers;
}

bool isFrameLayer(MeshLayer layer)
{
    return layer == MeshLayer::Dataflow || layer == MeshLayer::Links || layer == MeshLayer::Values;
}

const char* meshLayerId(MeshLayer layer)
{
    switch (layer) {
    case MeshLayer::SramOccupancy:
        return "sram";
    case MeshLayer::WeightPlacement:
        return "placement";
    case MeshLayer::KvCache:
        return "kv";
    case MeshLayer::Dataflow:
        return "dataflow";
    case MeshLayer::Defects:
        return "defects";
    case MeshLayer::Links:
        return "links";
    case MeshLayer::Values:
        return "values";
    }
    return "sram";
}

std::optional<MeshLayer> meshLayerFromId(std::string_view id)
{
    for (MeshLayer layer : allMeshLayers())
        if (id == meshLayerId(layer))
            return layer;
    return std::nullopt;
}

bool isDraftWafer(const MeshSnapshot& s, int device)
{
    bool any = false;
    for (const MeshRegion& r : s.regions)
        if (r.device == device) {
            if (!r.draft)
                return false;
            any = true;
        }
    return any;
}

} // namespace ws
