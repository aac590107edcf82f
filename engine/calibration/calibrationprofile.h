#pragma once
// A calibration profile: a predictor's efficiency constants together with the
// measurements they were fitted on, their sources, and how well the fit
// reproduces each one. Shipped profiles are fitted at start-up from
// resources/measurements/*.json (embedded in the engine); a user fits a new
// profile from their own file of the same format (fitProfile).

#include "engine/core/error.h"
#include "engine/wafer/dataflow/timingparams.h"

#include <string>
#include <vector>

namespace ws {

struct CalibrationRow
{
    std::string label;
    std::string metric; // "tokens_per_second_per_user" or "aggregate_tokens_per_second"
    double observed = 0;
    double predicted = 0;
    double relativeResidual = 0; // (predicted - observed) / observed
    bool fitted = true;          // false: shown for comparison, left out of the fit (see note)
    std::string note;            // assumptions, or why the row is not fitted
};

struct CalibrationProfile
{
    std::string id;   // e.g. "gpu-a100-sglang"
    std::string kind; // "wafer", "gpu", "lpu"
    std::string description;
    std::string source;
    std::vector<ParamInfo> constants;
    std::vector<CalibrationRow> rows;
    double rmsRelativeResidual = 0; // over fitted rows
    double maxAbsRelativeResidual = 0;
};

// The shipped profiles (wafer, GPU, LPU), fitted once; a profile whose data fails to fit is left out.
const std::vector<CalibrationProfile>& shippedProfiles();

// Fits a profile from a measurement file (JSON text, any kind). Errors name the field.
Expected<CalibrationProfile> fitProfile(const std::string& jsonText);

} // namespace ws
