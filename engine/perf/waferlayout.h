#pragma once
// Layer regions on wafers for the timing model: every transformer layer gets
// a rectangle of cores big enough for its weights and its KV cache at the
// requested context (weights fill at most a fraction of each core's SRAM,
// facts §6.2), regions tile each wafer in a grid and are taken in snake order
// so that layer l -> l+1 is a neighbour hop; the embedding table and the LM
// head take their own regions (one region when tied). A mixture-of-experts
// layer bigger than a wafer takes whole wafers: attention and router on the
// first, its experts spread over the rest. Provisional until the
// placement (engine/wafer/placement.h) provides the regions; the predictor
// only needs a ScheduleLayout.

#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/model/precision.h"
#include "engine/wafer/schedule.h"

#include <cstdint>
#include <string>

namespace ws {

struct WaferLayout
{
    ScheduleLayout schedule;
    int devicesNeeded = 0;
    int regionsPerDevice = 0;
    int64_t freeBytesPerCore = 0;   // SRAM left for KV after weights and program, on the fullest layer region
    int64_t weightBytesPerCore = 0; // on the fullest layer region
    double weightFillFraction = 0.8;
    std::string note; // how the layout was made when it is not the plain grid
};

struct WaferLayoutOptions
{
    Precision precision = Precision::Bf16;
    int64_t contextTokens = 4096;   // KV each region must hold
    int concurrency = 1;            // requests whose KV is held at once
    double weightFillFraction = 0.8; // facts §6.2: phi_w
};

Expected<WaferLayout> layoutWafer(const ModelConfig& model, const HardwareSpec& hardware,
                                  const WaferLayoutOptions& options);

} // namespace ws
