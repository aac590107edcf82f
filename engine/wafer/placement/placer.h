#pragma once
// Places a model on wafers (WaferScope's placement model, [WaferScope-model] in docs/sources.md).
//
// Pipelined: each layer gets a rectangle of cores sized so that its own
// weights fill at most `weightFill` (phi_w) of every core's SRAM; the rest is
// for KV, buffers and code. Consecutive layers fill a wafer in snake order
// (regioncut.h); when a wafer is full the next layer starts the next wafer.
// The device count is the fewest wafers that hold every layer (greedy over
// consecutive layers, then rebalanced to even counts). The token embedding
// and LM head are sliced by vocabulary rows over the SRAM left free in the
// layer regions of the first and last wafer (or of all wafers when that is
// not enough); if even that fails a wafer is added.
//
// Tensor-parallel (WaferLLM): every layer, the tables and all KV spread over
// the whole usable mesh of one wafer; an error when the model does not fit.
//
// The usable mesh (cols, rows) can be given, so the defect remap can shrink it.
//
// Sub-mesh (fitSubMesh, pipelined only): a model that fits on one device is
// placed on the smallest sub-mesh of the usable mesh, at its top-left corner
// and with its aspect ratio, that still holds every layer and the tables at
// the weight fill; the other cores stay empty (idle). A model that needs more
// than one device is placed as without it, over whole wafers.

#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/wafer/placement/placement.h"

#include <optional>

namespace ws {

struct PlacementOptions : PlacementChoices
{
    Precision precision = Precision::Bf16;
    std::optional<Precision> kvPrecision; // default: 16-bit (fp32 when weights are fp32)
    int maxDevices = 1024;
    std::optional<GroupPrecisions> groups; // per tensor group; default: `precision` for every group
    int bandsPerDevice = 0;                // bands of layer regions per device (region aspect); 0: squarest
    bool fitSubMesh = false;               // one-device models: the smallest sub-mesh that holds them

    bool operator==(const PlacementOptions&) const = default;
};

Expected<Placement> placeModel(const ModelConfig& model, const WaferSpec& wafer, const PlacementOptions& options);

} // namespace ws
