#include "engine/explore/targetsearch.h"

#include "engine/calibration/wafercalibration.h"
#include "engine/core/numbertext.h"
#include "engine/predict/stackkernel.h"

#include <cmath>

namespace ws {

namespace {
struct Kernel
{
    double factor;
    std::string name;
};

std::vector<Kernel> kernelsFor(const HardwareSpec& hw, const PredictOptions& o)
{
    if (hw.kind != HardwareKind::Wafer)
        return {{1.0, ""}};
    std::vector<Kernel> out{{1.0, "measured (WaferLLM)"}};
    if (const StackProfile* s = stackFor(hw.id, o.asOf))
        if (const auto& k = stackKernel(*s); k && k->factor < 1.0)
            out.push_back({k->factor, "stack " + s->id});
    if (const auto& cal = shippedWaferCalibration(); cal) {
        const double floor = kernelFactorFloor(cal->params, hw.wafer);
        if (floor < out.back().factor)
            out.push_back({floor, "SIMD limit"});
    }
    return out;
}

std::string describe(const TargetOption& t)
{
    std::string s =
        std::to_string(std::llround(t.tokensPerSecond)) + " tokens/s on " + std::to_string(t.devices) + " devices";
    if (!t.kernel.empty())
        s += ", kernels " + t.kernel + " (factor " + toStringC(t.kernelFactor).substr(0, 5) + ")";
    if (!t.experts.empty())
        s += ", experts " + t.experts;
    s += t.speculative ? ", speculative decoding k = " + std::to_string(t.draftTokens) + ", acceptance " +
                             toStringC(t.acceptance).substr(0, 4) + ", a one-layer draft"
                       : ", no speculative decoding";
    return s;
}
} // namespace

Expected<TargetAnswer> whatItTakes(const ModelConfig& model, const HardwareSpec& hw, const Workload& workload,
                                   const PredictOptions& options, double target)
{
    if (!(target > 0) || !std::isfinite(target))
        return makeError(ErrorCode::InvalidArgument, "the target must be a positive speed", "target");
    TargetAnswer a;
    a.target = target;
    std::vector<int> deviceCounts{options.devices};
    // The software levers in order of effort: each kernel factor with, for a MoE model on wafers, the layout asked
    // for first and then the other one.
    std::vector<std::pair<Kernel, std::optional<ExpertLayout>>> levers;
    for (const Kernel& kernel : kernelsFor(hw, options)) {
        if (hw.kind == HardwareKind::Wafer && model.isMoe()) {
            const ExpertLayout asked = options.wafer.experts;
            levers.push_back({kernel, asked});
            levers.push_back({kernel, asked == ExpertLayout::Blocks ? ExpertLayout::Sliced : ExpertLayout::Blocks});
        } else {
            levers.push_back({kernel, std::nullopt});
        }
    }
    for (const auto& [kernel, layout] : levers) {
        for (int spec = 0; spec < 7; ++spec) { // off, then k in {4, 8} x acceptance in {0.5, 0.7, 0.9}
            const int k = spec == 0 ? 0 : (spec <= 3 ? 4 : 8);
            const double acceptance = spec == 0 ? 0 : 0.5 + 0.2 * ((spec - 1) % 3);
            for (size_t d = 0; d < deviceCounts.size(); ++d) {
                Workload w = workload;
                w.speculativeUnknown = false;
                w.speculative.enabled = spec > 0;
                w.speculative.tokensPerStep = std::max(1, k);
                w.speculative.acceptanceRate = acceptance;
                w.speculative.draftModel.reset();
                w.speculative.draftCostFraction = 1.0 / double(std::max(1, model.layers));
                PredictOptions o = options;
                o.devices = deviceCounts[d];
                if (hw.kind == HardwareKind::Wafer)
                    o.kernelFactor = kernel.factor;
                if (layout)
                    o.wafer.experts = *layout;
                auto p = predict(model, hw, w, o);
                if (!p) {
                    if (a.tried.empty() && spec == 0)
                        return p.error();
                    continue;
                }
                if (deviceCounts.size() == 1 && hw.kind != HardwareKind::Wafer && p->devices > 0)
                    deviceCounts.push_back(2 * p->devices); // twice the fewest: more tensor parallelism
                TargetOption t;
                t.kernelFactor = kernel.factor;
                t.kernel = kernel.name;
                t.experts = layout ? expertLayoutId(*layout) : "";
                t.speculative = spec > 0;
                t.draftTokens = k;
                t.acceptance = acceptance;
                t.draftCostFraction = spec > 0 ? w.speculative.draftCostFraction : 0;
                t.devices = p->devices;
                t.tokensPerSecond = p->tokensPerSecondPerUser;
                t.ceilingTokensPerSecond = p->ceiling.tokensPerSecondPerUser;
                t.ceilingBound = p->ceiling.bound;
                t.reaches = t.tokensPerSecond >= target;
                if (t.reaches && !a.least)
                    a.least = a.tried.size();
                if (a.tried.empty() || t.tokensPerSecond > a.tried[a.fastest].tokensPerSecond)
                    a.fastest = a.tried.size();
                a.tried.push_back(t);
            }
        }
    }
    if (a.tried.empty())
        return makeError(ErrorCode::OutOfRange, "no combination could be predicted", "target");
    a.reachable = a.least.has_value();
    const TargetOption& best = a.tried[a.fastest];
    if (a.reachable) {
        a.verdict = "reachable: the least change that reaches " + std::to_string(std::llround(target)) +
                    " tokens/s is " + describe(a.tried[*a.least]);
    } else {
        a.verdict = "out of reach as modelled: the fastest combination gives " + describe(best) + "; its ceiling is " +
                    std::to_string(std::llround(best.ceilingTokensPerSecond)) + " tokens/s (" + best.ceilingBound +
                    " bound)" +
                    (best.ceilingTokensPerSecond < target ? ", below the target: physically out of reach here"
                                                          : ", above the target: the levers tried do not get there");
    }
    return a;
}

} // namespace ws
