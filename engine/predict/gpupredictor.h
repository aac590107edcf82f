#pragma once
// GPU decode predictions from the calibrated term model (gpumodel.h): tensor
// parallel over N GPUs, continuous batching for concurrency, prefill for the
// time to first token, speculative decoding. Without a GPU count it uses the
// fewest GPUs (a power of two) whose HBM holds the weights and one request's
// KV cache. The range spans every shipped GPU profile and its residuals (and
// a user-fitted profile's, when one is given).
// The point is max(the fitted terms, the floor): one step under CUDA graphs
// takes at least max(roofline at peak + kernels x launch gap + all-reduce
// latencies, host work per step), the constants from the hardware preset
// (gpuFloorTerms in gpumodel.h); the speculative step's floor over the tokens
// it yields. The floor lifts the time to first token, the concurrency curve
// and each range driver's ends too, never the hardware ceiling.

#include "engine/calibration/gpucalibration.h"
#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/predict/prediction.h"
#include "engine/spec/workload.h"

#include <memory>
#include <string>

namespace ws {

struct GpuPredictOptions
{
    int devices = 0;     // 0: the fewest GPUs that hold the model
    std::string profile; // empty: the profile for this GPU (gpuCalibrationFor)
    // A profile a user fitted (fitGpuProfile); when set it is used instead of `profile`.
    std::shared_ptr<const GpuCalibration> calibration;
};

Expected<Prediction> predictGpu(const ModelConfig& model, const HardwareSpec& hardware, const Workload& workload,
                                const GpuPredictOptions& options = {});

} // namespace ws
