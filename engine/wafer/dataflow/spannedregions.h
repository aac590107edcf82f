#pragma once
// Fallback layer regions for a mixture-of-experts model whose single layer is
// bigger than one wafer, which the placement (engine/wafer/placement/placer.h) rejects:
// each layer takes whole wafers, attention and router on the first, its
// experts spread over the others (WaferLLM §8 [WaferLLM], docs/sources.md: WaferLLM proposes NoC multicast
// for MoE; expert parallelism across systems is our assumption). The
// embedding and the LM head take a wafer each. A layer that fits one wafer
// lays out its experts as `experts` says. Timing only: the SRAM map of
// such a layout is not drawn.

#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/model/precision.h"
#include "engine/wafer/dataflow/schedule.h"

#include <cstdint>
#include <string>

namespace ws {

struct SpannedRegions
{
    ScheduleRegions schedule;
    int devicesNeeded = 0;
    int64_t kvBytesPerCore = 0; // SRAM per core left for KV on the fullest layer
    std::string note;
};

SpannedRegions spanWafers(const ModelConfig& model, const WaferSpec& wafer, Precision precision, int64_t contextTokens,
                          double weightFill, int usableCols, int usableRows,
                          ExpertLayout experts = ExpertLayout::Blocks);

} // namespace ws
