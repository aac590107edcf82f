#pragma once
// `waferscope-cli predict --target-tokens-per-second N`: what it would take to reach N tokens/s per user
// (engine/explore/targetsearch.h), every combination tried and the verdict, as text or JSON.

#include "engine/explore/targetsearch.h"

namespace ws::cli {

int printTarget(const ModelConfig& model, const HardwareSpec& hardware, const Workload& workload,
                const PredictOptions& options, double target, bool json);

} // namespace ws::cli
