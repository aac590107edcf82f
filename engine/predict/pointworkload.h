#pragma once
// The workload a measured point (engine/calibration/measuredpoints.h) ran:
// its precision (the model's native one when not stated), concurrency and
// batch, its context or prompt and output lengths, and speculative decoding
// as its source says: on with what the source gives (else the sourced
// defaults and the default draft, engine/predict/speculative.h), or not known.
// The accuracy command and the stack fits (engine/predict/stackkernel.h)
// predict a point with it.

#include "engine/calibration/measuredpoints.h"
#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/spec/workload.h"

namespace ws {

Expected<Workload> workloadForPoint(const MeasuredPoint& point, const ModelConfig& model, const HardwareSpec& hardware);

} // namespace ws
