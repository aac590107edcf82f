#pragma once
// A scenario specification is the one request that every engine entry point
// which places, times or predicts a model takes, as heaptrack's
// FilterParameters is the one thing its views filter by: which model on which
// hardware and on how many devices, the workload (precision, context,
// concurrency, prompt and answer lengths, speculative decoding with its draft
// model), how the model is laid out on a wafer (weight fill, layer order,
// bands, a hand-edited layout, the smallest sub-mesh), where the KV cache goes
// and which cores are dead. Plain values with their defaults stated here once;
// a new knob is one field. The scene (engine/scene), the sweep and the
// optimiser (engine/explore) and the Defects dock take it; the app's scenario
// (a .waferscope file) is this plus the model file and what the view showed.

#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/spec/workload.h"
#include "engine/wafer/dataflow/layerwork.h"
#include "engine/wafer/placement/layout.h"
#include "engine/wafer/placement/placer.h"
#include "engine/wafer/placement/regioncut.h"
#include "engine/wafer/redundancy/defectplacement.h"

#include <optional>

namespace ws {

struct ScenarioSpec
{
    ModelConfig model;
    HardwareSpec hardware;
    int devices = 0; // wafers, GPUs or chips; 0: the fewest that hold the model
    Workload workload;
    // Layout on a wafer.
    PlacementStrategy strategy = PlacementStrategy::Pipelined; // layers one after another, or each layer split
    ExpertLayout experts = ExpertLayout::Blocks; // MoE layers: experts cut across the region, or in blocks
    double weightFill = 0.8; // phi_w: share of a core's SRAM the placer fills with weights [WaferScope-model]
    LayerOrder order = LayerOrder::Snake; // how consecutive layers follow each other on a wafer
    int bandsPerDevice = 0;               // bands of layer regions per wafer (region aspect); 0: the squarest
    bool fitSubMesh = false;              // a one-wafer model on the smallest sub-mesh that holds it
    std::optional<Layout> layout;         // place exactly this layout (its precisions, context and fill) instead
    KvPlacement kv = KvPlacement::Shift;  // where a token's K and V go (WaferLLM's shift or concat)
    // Dead cores: a seeded random fraction, explicit cores, or none (the default). A sweep that does not place
    // the defects gives their cost as the longest hop they stretch a link to instead.
    DefectRequest defects;
    double hopStretch = 1.0;
};

// How the placer lays out `spec`'s model: its strategy, precision, context, weight fill, layer order, bands and
// sub-mesh; the one translation of a specification into the placer's options (the scene, the sweep and the
// command line's place take it).
PlacementOptions placementOptions(const ScenarioSpec& spec);

} // namespace ws
