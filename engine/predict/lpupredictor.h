#pragma once
// Groq LPU decode: the weights (and KV cache) live in on-chip SRAM spread over
// as many chips as they need (SRAM per chip x a usable fraction, at the
// serving precision); layers form a pipeline over chip groups, each layer's
// chips stream their weights at SRAM bandwidth and compute at the chip's
// peak, and each layer pays chip-to-chip exchanges of a fitted cost (Groq,
// ISCA 2022 [Groq-ISCA22] in docs/sources.md: deterministic,
// software-scheduled network). The exchange cost is fitted to
// Groq's Llama 2 70B figures (JSON kind "lpu"). Up to one request per layer
// stage decodes at full speed; more share the stages as micro-batches.
// The floor (Prediction::Floor): every layer's bytes and operations at the
// chips' peaks plus, over more than one chip, every exchange's activations
// over all of a chip's links at line rate ([Linley-Groq]); no public figure
// gives the LPU's per-hop latency or its host work per token, so neither is
// counted and the fitted exchange cost stays above the floor.

#include "engine/calibration/lpumodel.h"
#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/predict/prediction.h"
#include "engine/spec/workload.h"

#include <string>

namespace ws {

struct LpuPredictOptions
{
    int devices = 0; // chips; 0: the fewest that hold the model
};

Expected<Prediction> predictLpu(const ModelConfig& model, const HardwareSpec& hardware, const Workload& workload,
                                const LpuPredictOptions& options = {});

} // namespace ws
