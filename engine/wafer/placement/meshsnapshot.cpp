#include "engine/wafer/placement/meshsnapshot.h"

namespace ws {

namespace {
constexpr MeshLayer kLayers[] = {MeshLayer::SramOccupancy, MeshLayer::WeightPlacement, MeshLayer::KvCache,
                                 MeshLayer::Dataflow, MeshLayer::Defects};
}

const char* meshLayerId(MeshLayer layer)
{
    switch (layer) {
    case MeshLayer::SramOccupancy: return "sram";
    case MeshLayer::WeightPlacement: return "placement";
    case MeshLayer::KvCache: return "kv";
    case MeshLayer::Dataflow: return "dataflow";
    case MeshLayer::Defects: return "defects";
    }
    return "sram";
}

std::optional<MeshLayer> meshLayerFromId(std::string_view id)
{
    for (MeshLayer layer : kLayers)
        if (id == meshLayerId(layer))
            return layer;
    return std::nullopt;
}

} // namespace ws
