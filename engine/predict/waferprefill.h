#pragma once
// Wafer prefill against WaferLLM's measured prefill (MeshGEMM, Table 3): the
// timing model's prompt schedule is a decode-fitted model of GEMV kernels and
// runs prefill faster than WaferLLM measures it, so the prefill time is the
// model's local compute times one factor plus the rest (reductions, hops,
// payloads) times another, fitted by least squares on the "wafer-prefill"
// calibration rows (relative errors; one factor on the whole time should the
// two not both come out positive). The fit's worst residual is the range. The rows are timed with
// WaferLLM's policy as its figures state it: every layer on one P x P region
// of one wafer, the whole prompt as one chunk, layer after layer.

#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/predict/placementcache.h"
#include "engine/predict/prediction.h"
#include "engine/spec/workload.h"
#include "engine/wafer/dataflow/schedule.h"
#include "engine/wafer/dataflow/scheduleregions.h"
#include "engine/wafer/dataflow/timingparams.h"

#include <string>
#include <vector>

namespace ws {

// Every layer on one P x P region at the application rectangle's corner of one wafer (the embedding and LM
// head where the placer puts them), with the placement's timing constants.
struct GridLayout
{
    ScheduleRegions layout;
    TimingParams params;
    double calibrationResidual = 0;
};
// `placements` (may be null): the cache the model's placement goes through (every grid of a model places it alike).
Expected<GridLayout> waferGridLayout(const ModelConfig& model, const HardwareSpec& hardware, const Workload& workload,
                                     int grid, PlacementCache* placements = nullptr);

// The model's prefill cycles on such a layout: the prompt as one chunk, attending over half of it on average.
struct PrefillCycles
{
    double cycles = 0;        // with the calibrated constants
    double computeCycles = 0; // the local-compute part of cycles
    double simdCycles = 0;    // with the compute part scaled by a SIMD ratio
    int64_t chunkTokens = 0;  // the prompt's tokens per chunk (the whole prompt: one chunk)
};
PrefillCycles gridPrefillCycles(const ModelConfig& model, const GridLayout& grid, int64_t promptTokens);

struct WaferPrefillRow
{
    std::string modelId; // model preset
    int grid = 0;
    int64_t promptTokens = 0;
    double measuredTokensPerSecond = 0; // prompt tokens / prefill seconds
    double modelComputeSeconds = 0;     // the timing model's local compute, before the factors
    double modelOtherSeconds = 0;       // the rest of its time
    double fittedSeconds = 0;           // with the factors
};

struct WaferPrefillCalibration
{
    std::string profile;
    std::string source;
    std::string hardwareId;
    double computeFactor = 1; // prefill seconds = computeFactor x the model's compute + otherFactor x the rest
    double otherFactor = 1;
    double worstResidual = 0; // the fit's largest |relative residual|: the range on either side
    double seconds(const PrefillCycles& c, double clockHz) const
    {
        return (computeFactor * c.computeCycles + otherFactor * (c.cycles - c.computeCycles)) / clockHz;
    }
    int64_t promptTokens = 0; // the prompt length the rows were measured at (all rows share it)
    std::vector<WaferPrefillRow> rows;
};

// Fits the factor on a resources/measurements file of kind "wafer-prefill".
Expected<WaferPrefillCalibration> fitWaferPrefill(const std::string& jsonText);

// The shipped calibration (resources/measurements/waferllm-wse2-prefill.json), fitted once.
const Expected<WaferPrefillCalibration>& shippedWaferPrefill();

// Chunks of this many tokens, or the whole prompt as one, whichever is faster (waferTtft).
constexpr int64_t kPrefillChunkTokens = 128;

// The schedule options of a prefill of `promptTokens` in chunks of `chunkTokens` (schedule.h), each token
// attending over half the prompt on average: what waferTtft times and the scene's prefill shows.
ScheduleOptions prefillOptions(int64_t promptTokens, int64_t chunkTokens, KvPlacement kv, bool timingOnly);

// The calibration core's multiply-accumulates per cycle over a wafer's (1: the same core, or not given).
double waferSimdRatio(const HardwareSpec& hardware);

// Time to first token on placed layer regions: the prompt in chunks pipelined through the regions (the
// whole prompt or 128-token chunks, whichever is faster), times the shipped prefill factor. The range spans
// the compute part scaled by simdRatio or not (a newer core's SIMD width), the calibration's worst residual
// and the factor's range.
struct WaferTtft
{
    double seconds = 0;
    Range range;
    std::string note;        // how the factor was applied (empty without the shipped calibration)
    std::string source;      // the calibration's source (empty without it)
    int64_t chunkTokens = 0; // the faster chunking's tokens per chunk
    double cycles = 0;       // the timing model's pipeline, before the factor: seconds x clock / cycles stretches it
};
WaferTtft waferTtft(const ModelConfig& model, const ScheduleRegions& layout, const TimingParams& params,
                    int64_t promptTokens, KvPlacement kv, double simdRatio, double calibrationResidual);

} // namespace ws
