#include "engine/predict/stackkernel.h"

#include "engine/calibration/gpucalibration.h"
#include "engine/calibration/measurementdata.h"
#include "engine/calibration/wafercalibration.h"
#include "engine/predict/pointworkload.h"
#include "engine/predict/speculative.h"
#include "engine/predict/waferpredictor.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <string_view>
#include <utility>

namespace ws {

double kernelFactorFloor(const TimingParams& fitted, const WaferSpec& wafer)
{
    if (!(wafer.macsPerCyclePerCore > 0) || !(fitted.macCycles > 0))
        return 1.0;
    return std::min(1.0, 1.0 / (wafer.macsPerCyclePerCore * fitted.macCycles));
}

void applyKernelFactor(TimingParams& p, double factor, const WaferSpec& wafer)
{
    if (factor == 1.0)
        return;
    const double simdLimit = wafer.macsPerCyclePerCore > 0 ? 1.0 / wafer.macsPerCyclePerCore : 0.0;
    p.macCycles = std::max(simdLimit, p.macCycles * factor);
    p.allreduceFixedCycles *= factor;
    p.routingStageCycles *= factor;
}

const StackProfile* speculationStack(const HardwareSpec& hw, const ModelConfig& model, int concurrency,
                                     std::optional<YearMonth> asOf)
{
    if (hw.kind != HardwareKind::Gpu)
        return stackFor(hw.id, asOf);
    const GpuCalibration* c = gpuCalibrationFor(hw.id, concurrency, asOf, model.isMoe());
    return c ? stackOfGpuProfile(c->profile.id) : nullptr;
}

void applyStackSpeculation(Workload& w, const StackProfile& stack, const ModelConfig& model, const HardwareSpec& hw,
                           bool draftGiven)
{
    if (!stack.speculative)
        return;
    if (!w.speculative.enabled && w.speculativeUnknown) {
        const SpeculativeDefaults d = speculativeDefaults(hw);
        w.speculativeUnknown = false;
        w.speculative.enabled = true;
        w.speculative.tokensPerStep = d.tokensPerStep;
        w.speculative.acceptanceRate = d.acceptanceRate;
        w.speculative.draftModel.reset();
        if (!stack.oneLayerDraft)
            if (const ModelConfig* draft = defaultDraftModel(model, shippedModels()))
                w.speculative.draftModel = *draft;
    } else if (!w.speculative.enabled || draftGiven || !stack.oneLayerDraft) {
        return;
    }
    if (stack.oneLayerDraft && model.layers > 0) { // EAGLE: one decoder layer, the target's LM head
        w.speculative.draftModel.reset();
        w.speculative.draftCostFraction = 1.0 / double(model.layers);
    }
}

namespace {
Expected<StackKernelRow> fitRow(const StackProfile& stack, const std::string& ref, PlacementCache& placements,
                                bool iterative, double clockHz)
{
    const auto& points = shippedMeasuredPoints();
    if (!points)
        return points.error();
    const size_t slash = ref.find('/');
    const MeasuredPoint* point = nullptr;
    if (slash != std::string::npos) {
        const std::string_view set = std::string_view(ref).substr(0, slash);
        const std::string_view label = std::string_view(ref).substr(slash + 1);
        for (const MeasuredPoint& p : *points)
            if (p.set == set && p.label == label)
                point = &p;
    }
    if (!point)
        return makeError(ErrorCode::NotFound, "stack " + stack.id + ": no shipped row " + ref, "fit_rows");
    if (point->role == MeasuredRole::Check)
        return makeError(ErrorCode::InvalidArgument,
                         "stack " + stack.id + ": check row " + ref + " cannot be fitted on", "fit_rows");
    return fitStackRow(stack, *point, placements, iterative, clockHz);
}
} // namespace

// `placements`: one placement of the row's model serves every factor tried (the factor does not move it).
Expected<StackKernelRow> fitStackRow(const StackProfile& stack, const MeasuredPoint& measured,
                                     PlacementCache& placements, bool iterative, double clockHz)
{
    const MeasuredPoint* point = &measured;
    const std::string ref = point->set + "/" + point->label;
    const ModelConfig* model = shippedModel(point->modelId);
    const HardwareSpec* hw = shippedHardware(point->hardwareId);
    if (!model || !hw || hw->kind != HardwareKind::Wafer || !stack.runsOn(hw->id))
        return makeError(ErrorCode::InvalidArgument, "stack " + stack.id + ": row " + ref + " is not on its wafers",
                         "fit_rows");
    auto w = workloadForPoint(*point, *model, *hw);
    if (!w)
        return w.error();
    applyStackSpeculation(*w, stack, *model, *hw, !point->draftModelId.empty() || point->draftCostFraction > 0);
    const auto& cal = shippedWaferCalibration();
    if (!cal)
        return cal.error();
    const double target = point->tokensPerSecondPerUser();
    StackKernelRow row;
    row.row = ref;
    row.measured = target;
    auto speedAt = [&](double factor) -> Expected<double> {
        ++row.predictions;
        WaferPredictOptions o;
        o.devices = point->devices;
        o.kernelFactor = factor;
        o.clockHz = clockHz;
        o.pointOnly = true;
        o.placements = &placements;
        auto p = predictWafer(*model, *hw, *w, o);
        if (!p)
            return p.error();
        return p->tokensPerSecondPerUser;
    };
    double lo = kernelFactorFloor(cal->params, hw->wafer); // fastest
    double hi = 1.0;
    auto atLo = speedAt(lo);
    auto atHi = speedAt(hi);
    if (!atLo || !atHi)
        return atLo ? atHi.error() : atLo.error();
    if (*atLo <= target) { // even the hardware limit is slower than the figure
        row.factor = lo;
        row.atFloor = true;
        return row;
    }
    if (*atHi >= target) {
        row.factor = hi;
        return row;
    }
    // The seconds per token on the chord between the ends (the header: affine in the factor where the first
    // factor tried lies on it).
    const double f0 = lo;
    const double f1 = hi;
    const double s0 = 1.0 / *atLo;
    const double s1 = 1.0 / *atHi;
    auto onChord = [&](double f) { return 1.0 / (s0 + (s1 - s0) * ((f - f0) / (f1 - f0))); };
    bool affine = false;
    for (int i = 0; i < 16; ++i) { // bisection in log(factor): speed falls as the factor grows
        const double mid = std::sqrt(lo * hi);
        double speed = 0;
        if (affine) {
            speed = onChord(mid);
        } else {
            auto at = speedAt(mid);
            if (!at)
                return at.error();
            speed = *at;
            affine = !iterative && i == 0 && !w->speculative.draftModel &&
                     std::abs(onChord(mid) - speed) <= kStackChordTolerance * speed;
        }
        (speed > target ? lo : hi) = mid;
    }
    row.factor = std::sqrt(lo * hi);
    return row;
}

Expected<StackKernel> fitStackKernel(const StackProfile& stack, PlacementCache* given, bool iterative, double clockHz)
{
    StackKernel k;
    k.factor = stack.kernelFactor;
    k.low = k.high = stack.kernelFactor;
    if (!stack.fitKernel)
        return k;
    double logSum = 0;
    k.low = 1.0;
    k.high = 0.0;
    PlacementCache own;
    PlacementCache& placements = given ? *given : own;
    for (const std::string& ref : stack.fitRows) {
        auto row = fitRow(stack, ref, placements, iterative, clockHz);
        if (!row)
            return row.error();
        logSum += std::log(row->factor);
        k.low = std::min(k.low, row->factor);
        k.high = std::max(k.high, row->factor);
        k.rows.push_back(*row);
    }
    k.factor = std::exp(logSum / double(k.rows.size()));
    return k;
}

const Expected<StackKernel>& stackKernel(const StackProfile& stack, PlacementCache* placements)
{
    return stackKernelAt(stack, 0, placements);
}

const Expected<StackKernel>& stackKernelAt(const StackProfile& stack, double clockHz, PlacementCache* placements)
{
    static std::mutex mutex;
    static std::map<std::pair<std::string, double>, Expected<StackKernel>> fitted;
    const std::pair<std::string, double> key{stack.id, clockHz > 0 ? clockHz : 0.0};
    {
        std::lock_guard lock(mutex);
        if (auto it = fitted.find(key); it != fitted.end())
            return it->second;
    }
    // Outside the lock: the fit predicts (no stack applied).
    Expected<StackKernel> k = fitStackKernel(stack, placements, false, key.second);
    std::lock_guard lock(mutex);
    return fitted.emplace(key, std::move(k)).first->second;
}

} // namespace ws
