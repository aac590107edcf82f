#pragma once
// How well the predictors reproduce measured figures: each measured point is
// predicted in its own configuration (model, hardware, devices, precision,
// concurrency, context or prompt/output lengths) and compared on its own
// metric, with the prediction's range. The statistics the acceptance asks
// for: median absolute relative error of the point, the fraction of figures
// inside the range, and the median range width (high / low).

#include "engine/calibration/measuredpoints.h"
#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"

#include <string>
#include <vector>

namespace ws {

struct AccuracyRow
{
    MeasuredPoint point;
    HardwareKind kind = HardwareKind::Gpu;
    double predicted = 0; // on the point's metric
    double low = 0;       // the range on the same metric
    double high = 0;
    double relativeError = 0; // (predicted - measured) / measured
    bool inside = false;
};

// The point's configuration as a prediction; errors when a preset is missing or the model does not fit.
Expected<AccuracyRow> assessPoint(const MeasuredPoint& point);

struct AccuracyStats
{
    int rows = 0;
    double medianAbsError = 0;
    double fractionInside = 0;
    double medianRangeRatio = 0; // high / low
};

AccuracyStats summarize(const std::vector<AccuracyRow>& rows);

} // namespace ws
