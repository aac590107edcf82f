#pragma once
// Fitting GPU efficiency constants to published decode measurements (JSON
// kind "gpu"): each row names a model preset, a GPU preset, the GPU count,
// precision, concurrency, and either a context (decode only) or prompt and
// output lengths (continuous batching), and reports tokens/s per user or
// aggregate. The step time is linear in the constants (gpumodel.h), so the
// fit is a relative least-squares solve; constants no row exercises (e.g. the
// network step when every row fits in one node) keep their defaults.

#include "engine/calibration/calibrationprofile.h"
#include "engine/calibration/gpumodel.h"
#include "engine/core/error.h"

#include <optional>
#include <string>
#include <vector>

namespace ws {

struct GpuCalibration
{
    GpuEfficiency efficiency;
    CalibrationProfile profile;
    std::vector<std::string> hardwareIds; // GPUs the rows were measured on
    bool singleStream = false;            // every fitted row is one request at a time (batch 1)
    // "moe_only": the profile predicts mixture-of-experts models at batch 1 only, on the GPUs of
    // "applies_to_hardware" (default: where it was measured); no other prediction takes it.
    bool moeOnly = false;
    std::vector<std::string> appliesTo;
};

// A file may name "base_profile" (a shipped profile id, or one of `bases` when given): the constants its rows
// cannot determine come from that profile's fit instead of `defaults`; and "fit_constants" (memory_time_factor,
// compute_time_factor, layer_overhead_s, allreduce_step_s, inter_node_step_s): only those are fitted.
Expected<GpuCalibration> fitGpuProfile(const std::string& jsonText, const GpuEfficiency& defaults = {},
                                       const std::vector<GpuCalibration>* bases = nullptr);

// Shipped GPU profiles (gpu-a100-sglang, gpu-trtllm-h200, gpu-oci-serving, gpu-serving-batch1,
// gpu-trtllm-b200-latency).
const std::vector<GpuCalibration>& shippedGpuCalibrations();
// The shipped GPU files that failed to fit (empty when all fit), each naming its file.
const std::vector<Error>& shippedGpuCalibrationErrors();

// The profile for a GPU: a mixture-of-experts model (`moe`) at concurrency 1, a moe_only profile that applies to
// the GPU; otherwise at concurrency 1 a single-stream profile measured on it (current serving stacks at batch 1),
// else one measured on it with batched rows, else the TensorRT-LLM H200 profile (newest stack); moe_only profiles
// never. As of a month (engine/calibration/stackprofile.h), only profiles of stacks public by then (when none is,
// all).
const GpuCalibration* gpuCalibrationFor(const std::string& hardwareId, int concurrency = 0,
                                        std::optional<int> asOf = std::nullopt, bool moe = false);

} // namespace ws
