#pragma once
// What a serving stack (engine/calibration/stackprofile.h) changes in a
// prediction. On a wafer, its kernel factor f scales the WaferLLM profile's
// fitted software constants: cycles per MAC, the all-reduce's fixed cycles
// and the routing stage's cycles (the parts a kernel rewrite changes; the
// router's hop, the wavelet and the clock are hardware and stay). A MAC never
// costs less than 1 / SIMD width cycles (the core issues one SIMD operation a
// cycle, and its SRAM's two 64-bit reads a cycle feed 8 16-bit weights), so
// f has a floor: the factor at which the cycles per MAC reach that limit.
// A stack whose factor is "fit" has it fitted once, at first use, on the
// development or calibration rows it names: each row's own factor is found by
// bisection (the prediction with the stack's speculative decoding equals the
// row's figure), the stack's factor is their geometric mean and their spread
// is a range driver. The bisection predicts the ends (floor and 1) and its
// first factor; where that prediction lies on the chord between the ends, it
// reads the other factors' speeds off the chord. Without a draft model of its
// own (whose home the chooser picks by predicting candidates at the factor),
// a row's seconds per token are convex in the factor: sums of phases, each
// affine in the three constants, the SIMD clamp and parallel experts a max; a
// verify's further tokens cost cycles per MAC x its SIMD share, 1 / SIMD width
// whatever the factor. Convex and on the chord inside, they are affine between
// the ends (as TokenSchedule::kernelCycles has plain decoding). The factors
// tried and the factor found are the bisection's own. Speculative decoding: a
// stack that runs it switches it on where a workload does not know whether it
// ran, with the sourced defaults (engine/predict/speculative.h) and the
// default draft.

#include "engine/calibration/measuredpoints.h"
#include "engine/calibration/stackprofile.h"
#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/predict/placementcache.h"
#include "engine/spec/workload.h"
#include "engine/wafer/dataflow/timingparams.h"

#include <string>
#include <vector>

namespace ws {

struct StackKernelRow
{
    std::string row; // "set id/row label"
    double measured = 0;
    double factor = 1;
    bool atFloor = false; // even the floor factor predicts below the figure
    int predictions = 0;  // wafer predictions the fit of this row made (the rest read off the chord)
};

// How near the chord the bisection's first factor must be predicted, relative, for the rest to be read off it.
inline constexpr double kStackChordTolerance = 1e-12;

struct StackKernel
{
    double factor = 1; // on macCycles, allreduceFixedCycles, routingStageCycles
    double low = 1;    // the fit rows' spread of factors (low == high when not fitted)
    double high = 1;
    std::vector<StackKernelRow> rows;
};

// The factor below which a wafer's cycles per MAC would pass 1 / SIMD width.
double kernelFactorFloor(const TimingParams& fitted, const WaferSpec& wafer);
// The constants with a stack's factor applied (cycles per MAC at least 1 / SIMD width).
void applyKernelFactor(TimingParams& params, double factor, const WaferSpec& wafer);

// The stack's kernel factor: its given one, or the fit (once per stack; an error names a missing row). The fit
// places its rows' models through `placements` when given (the first caller's cache: a prediction of a fit row's
// configuration then finds its placement there), else through a cache of its own.
const Expected<StackKernel>& stackKernel(const StackProfile& stack, PlacementCache* placements = nullptr);
// The same fit with the stack's wafers at `clockHz` instead of their preset clock (0: the preset's; kept per stack
// and clock): the factor that makes the fit rows' figures at that clock (the clock range driver's ends).
const Expected<StackKernel>& stackKernelAt(const StackProfile& stack, double clockHz,
                                           PlacementCache* placements = nullptr);
// One row's fit: its factor for the figure of `point` (a development or calibration row on the stack's wafers;
// `predictions` counts the wafer predictions it made). `iterative`: every factor the bisection tries is predicted.
Expected<StackKernelRow> fitStackRow(const StackProfile& stack, const MeasuredPoint& point, PlacementCache& placements,
                                     bool iterative = false, double clockHz = 0);
// The fit itself, not kept: what stackKernel keeps. `iterative`: every factor the bisection tries is predicted (the
// reference the chord is tested against).
Expected<StackKernel> fitStackKernel(const StackProfile& stack, PlacementCache* placements = nullptr,
                                     bool iterative = false, double clockHz = 0);

// A stack that runs speculative decoding switches it on where the workload does not know whether it ran
// (speculativeUnknown): k and the acceptance from speculativeDefaults, the stack's draft (a one-layer draft
// at 1 / layers of a target token, or the default draft preset). With it on and no draft given (draftGiven
// false), a stack with a one-layer draft puts its draft in.
void applyStackSpeculation(Workload& workload, const StackProfile& stack, const ModelConfig& model,
                           const HardwareSpec& hardware, bool draftGiven = false);

// The stack whose speculative decoding a prediction of `model` on `hardware` takes as of a month: the wafer's or
// the LPU's stack (stackFor); on a GPU, the stack measured as the calibration profile that predicts `concurrency`
// requests of it then (gpuCalibrationFor), so that a stack known to speculate (TensorRT-LLM's min latency for
// mixture-of-experts models) does. Null when none.
const StackProfile* speculationStack(const HardwareSpec& hardware, const ModelConfig& model, int concurrency,
                                     std::optional<YearMonth> asOf);

} // namespace ws
