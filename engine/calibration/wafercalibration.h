#pragma once
// Fitting the wafer timing constants to measurements of WaferLLM's decode
// kernel. A measurement is one layer of a model run on a P x P region (dims
// rounded up to multiples of P, one head of width `hidden`, as in the
// kernel's benchmark configs) and reported as tokens/s = clock / (cycles per
// layer x layers). The schedule is linear in the fitted constants (c_mac, c_0,
// beta), so the fit builds the real schedule with unit basis values and solves
// a least-squares problem; alpha, the wavelet and the clock stay at their
// hardware values.

#include "engine/calibration/leastsquares.h"
#include "engine/core/error.h"
#include "engine/wafer/dataflow/timingparams.h"

#include <string>
#include <vector>

namespace ws {

struct WaferKernelMeasurement
{
    std::string model;
    int hidden = 0;
    int ffn = 0;
    int layers = 0;
    int64_t context = 0;
    int grid = 0; // P: the region is P x P cores
    double tokensPerSecond = 0;
};

struct WaferKernelSet
{
    std::string id;
    std::string source;
    double clockHz = 1.1e9;
    std::vector<WaferKernelMeasurement> rows;
};

struct WaferCalibration
{
    std::string profile; // the measurement set's id
    std::string source;
    TimingParams params;
    LeastSquaresFit fit; // residuals in cycles per layer, relative
    std::vector<WaferKernelMeasurement> rows;
    std::vector<double> predictedTokensPerSecond;
};

// Parses a resources/measurements file of kind "wafer-kernel".
Expected<WaferKernelSet> parseWaferKernelSet(const std::string& jsonText);

// Cycles for one layer of the measured kernel on its P x P region.
double waferKernelLayerCycles(const WaferKernelMeasurement& row, const TimingParams& params);

Expected<WaferCalibration> fitWaferTiming(const WaferKernelSet& set, const TimingParams& base = {});

// The shipped profile, fitted once from the embedded WaferLLM measurements.
const Expected<WaferCalibration>& shippedWaferCalibration();

} // namespace ws
