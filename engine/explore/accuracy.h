#pragma once
// How well the predictors reproduce measured figures: each measured point is
// predicted in its own configuration (model, hardware, devices, precision,
// concurrency, context or prompt/output lengths) by the path the app predicts
// with (predict(), engine/predict/predictor.h) and compared on its own metric,
// with the prediction's range. The statistics: median absolute relative error
// of the point, the fraction of figures inside the range, and the median range
// width (high / low), per role (calibration, development, check: the
// validation protocol, docs/validation.md) and per device kind, with how many
// rows were attempted and how many predicted. A row that cannot be predicted
// (a preset not shipped yet, a model the hardware cannot hold) is a miss: it
// counts as 100 % error, outside the range, and an unbounded range.

#include "engine/calibration/measuredpoints.h"
#include "engine/core/error.h"
#include "engine/hardware/hardwarepresetparser.h" // hardwareKindId
#include "engine/hardware/hardwarespec.h"

#include <string>
#include <vector>

namespace ws {

struct AccuracyRow
{
    MeasuredPoint point;
    HardwareKind kind = HardwareKind::Gpu;
    bool miss = false; // not predicted (why says why): 100 % error, outside, no range
    std::string why;
    std::string stack; // the serving stack predicted with (the row's publication month's), empty when none
    ErrorCode missCode = ErrorCode::InvalidArgument; // the prediction's error code for a miss
    double predicted = 0;                            // on the point's metric
    double low = 0;                                  // the range on the same metric
    double high = 0;
    double relativeError = 0; // (predicted - measured) / measured; -1 for a miss
    bool inside = false;
};

// The point predicted as the app predicts it: predict() with the point's configuration, speculative decoding
// as its source says, the serving stacks public in the point's publication month (its date; undated: the
// latest); a GPU row of a calibration file with that file's profile (the comparison's GPU profile
// choice, predictGpu). Never fails: a point that cannot be predicted is a miss that says why.
AccuracyRow assessPoint(const MeasuredPoint& point);

// The point timed by the mesh engine (engine/wafer/mesh) instead of the closed forms, for the rows it can time:
// WaferLLM's decode kernel rows (a decode grid P: one P x P region per layer, timed on one layer and scaled to the
// layer count). The model's first two layers are placed as WaferLLM places them, each over the whole P x P mesh of
// the row's hardware, without the vocabulary tables the kernel does not run; layer 0 (with its hop to layer 1) is
// executed core by core with the hardware preset's unit costs, timing only. Nothing in it is fitted to a
// measurement: these rows judge the engine. Any other row, a model with experts, or one that does not fit is a
// miss that says why. Seconds per row (a 660 x 660 mesh is 435,600 cores).
AccuracyRow assessPointOnMeshEngine(const MeasuredPoint& point);

struct AccuracyStats
{
    int rows = 0;      // attempted
    int predicted = 0; // of them, predicted; the rest are misses
    int inside = 0;
    double medianAbsError = 0;
    double fractionInside = 0;
    double medianRangeRatio = 0; // high / low; a miss's is unbounded (infinity)
};

AccuracyStats summarize(const std::vector<AccuracyRow>& rows);

struct AccuracyGroup
{
    std::string group; // "calibration", "development", "check"
    std::string kind;  // "wafer", "gpu", "lpu" or "all"
    AccuracyStats stats;
};

// Every shipped data set the statistics rest on that failed to load: presets that do not parse, measurement files
// that do not read (shippedMeasuredPoints), calibration files that do not fit (GPU, LPU, wafer kernels, wafer
// prefill). Empty when all load; otherwise the accuracy is not reported (an error, not a quieter table).
std::vector<Error> shippedDataErrors();

// Per group (the rows' roles, in protocol order: calibration, development, check) and per device kind (wafer,
// gpu, lpu, all). Every group and kind is listed, empty ones with 0 rows.
std::vector<AccuracyGroup> accuracyTable(const std::vector<AccuracyRow>& rows);

} // namespace ws
