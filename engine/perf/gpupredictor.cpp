#include "engine/perf/gpupredictor.h"

#include "engine/model/modelshape.h"
#include "engine/perf/gpucalibration.h"
#include "engine/perf/predictionutil.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ws {

namespace {
int kvBytesFor(Precision p)
{
    return bitsPerParameter(p) <= 9 ? 1 : 2; // 8-bit serving stacks keep an 8-bit KV cache
}
} // namespace

Expected<Prediction> predictGpu(const ModelConfig& model, const HardwareSpec& hw, const Workload& w,
                                const GpuPredictOptions& o)
{
    if (hw.kind != HardwareKind::Gpu)
        return makeError(ErrorCode::InvalidArgument, "hardware '" + hw.id + "' is not a GPU", "hardware");
    const GpuCalibration* cal = nullptr;
    if (o.calibration) {
        cal = o.calibration.get();
    } else if (!o.profile.empty()) {
        for (const auto& c : shippedGpuCalibrations())
            if (c.profile.id == o.profile)
                cal = &c;
        if (!cal)
            return makeError(ErrorCode::NotFound, "unknown GPU profile '" + o.profile + "'", "profile");
    } else {
        cal = gpuCalibrationFor(hw.id);
    }
    if (!cal)
        return makeError(ErrorCode::NotFound, "no GPU calibration profile could be fitted", "profile");
    const GpuEfficiency& e = cal->efficiency;
    const GpuSpec& g = hw.gpu;
    const int needed = gpusNeeded(model, g, w.precision, w.contextTokens, 1, e);
    if (needed <= 0)
        return makeError(ErrorCode::OutOfRange, "the model does not fit in any number of " + hw.id + " GPUs", "devices");
    auto started = startPrediction(model, hw, cal->profile.id, w, needed, o.devices, "GPUs",
                                   "using the fewest GPUs that hold the model");
    if (!started)
        return started.error();
    Prediction p = std::move(started.value());
    const int n = p.devices;

    const ModelShape shape(model);
    const int kvBytes = kvBytesFor(w.precision);
    const double free = e.memoryUsableFraction * double(g.hbmBytes) * n - double(shape.totalBytes(w.precision));
    const double perRequest = double(shape.kvBytes(std::max<int64_t>(1, w.contextTokens), kvBytes));
    p.maxConcurrency = perRequest > 0 ? int(std::clamp(free / perRequest, 0.0, double(1 << 20))) : 1;
    int concurrency = std::max(1, w.concurrency);
    if (concurrency > p.maxConcurrency) {
        p.notes.push_back("HBM holds the KV cache of " + std::to_string(p.maxConcurrency) +
                          " requests at this context; predicting " + std::to_string(std::max(1, p.maxConcurrency)));
        concurrency = std::max(1, p.maxConcurrency);
    }
    p.concurrency = concurrency;

    const GpuModelFacts facts = gpuModelFacts(model, w.precision, w.contextTokens, kvBytes);
    auto step = [&](int users, double tokensPerRequest) {
        GpuStep s;
        s.gpus = n;
        s.concurrency = users;
        s.context = w.contextTokens;
        s.tokensPerRequest = tokensPerRequest;
        s.prefillPerOutput = continuousBatchPrefill(double(w.promptTokens), double(w.outputTokens), users);
        s.precision = w.precision;
        s.kvBytesPerValue = kvBytes;
        return gpuStepTerms(facts, g, s);
    };
    const GpuStepTerms terms = step(concurrency, 1);
    double seconds = terms.seconds(e);
    double scale = 1.0;
    double draftSeconds = 0;
    if (w.speculative.enabled) {
        if (w.speculative.draftModel) {
            Workload dw = w;
            dw.speculative.enabled = false;
            dw.concurrency = concurrency;
            auto draft = predictGpu(*w.speculative.draftModel, hw, dw, {});
            if (!draft)
                return draft.error();
            draftSeconds = draft->secondsPerToken;
        } else {
            draftSeconds = w.speculative.draftCostFraction * seconds;
        }
        seconds = speculativeSecondsPerToken(w.speculative, draftSeconds,
                                             [&](int k) { return step(concurrency, k).seconds(e); });
        scale = 1.0 / w.speculative.expectedTokensPerStep();
    }
    p.secondsPerToken = seconds;
    p.tokensPerSecondPerUser = 1.0 / seconds;
    p.aggregateTokensPerSecond = concurrency / seconds;

    const GpuStepTerms shown = w.speculative.enabled ? step(concurrency, w.speculative.tokensPerStep + 1) : terms;
    p.breakdown.push_back({"hbm_weights_kv", shown.memory * e.memoryTimeFactor * scale});
    p.breakdown.push_back({"compute", shown.compute * e.computeTimeFactor * scale});
    p.breakdown.push_back({"layer_overhead", shown.layers * e.layerOverheadS * scale});
    p.breakdown.push_back(
        {"allreduce", (shown.intraSteps * e.allreduceStepS + shown.interSteps * e.interNodeStepS + shown.link) * scale});
    if (w.speculative.enabled)
        p.breakdown.push_back({"speculative_draft", w.speculative.tokensPerStep * draftSeconds * scale});

    // Time to first token: the prompt in one prefill pass.
    GpuStep prefill;
    prefill.gpus = n;
    prefill.context = std::max<int64_t>(1, w.promptTokens / 2);
    prefill.tokensPerRequest = double(std::max<int64_t>(1, w.promptTokens));
    prefill.precision = w.precision;
    prefill.kvBytesPerValue = kvBytes;
    const GpuStepTerms pre = gpuStepTerms(model, g, prefill);
    p.ttftSeconds = pre.seconds(e);

    // Range over every shipped GPU profile (and a user-fitted one) and its worst residual.
    double lo = seconds;
    double hi = seconds;
    double ttftLo = p.ttftSeconds;
    double ttftHi = p.ttftSeconds;
    std::vector<const GpuCalibration*> rangeProfiles;
    for (const auto& c : shippedGpuCalibrations())
        rangeProfiles.push_back(&c);
    if (o.calibration)
        rangeProfiles.push_back(o.calibration.get());
    for (const GpuCalibration* pc : rangeProfiles) {
        const GpuCalibration& c = *pc;
        const double r = c.profile.maxAbsRelativeResidual;
        const double t = seconds / terms.seconds(e) * terms.seconds(c.efficiency);
        lo = std::min(lo, t * (1 - r));
        hi = std::max(hi, t * (1 + r));
        ttftLo = std::min(ttftLo, pre.seconds(c.efficiency) * (1 - r));
        ttftHi = std::max(ttftHi, pre.seconds(c.efficiency) * (1 + r));
    }
    p.tokensPerSecondPerUserRange = {1.0 / hi, 1.0 / lo};
    p.ttftRange = {ttftLo, ttftHi};

    for (int c : concurrencyLevels(w.concurrency)) {
        const int cc = std::clamp(c, 1, std::max(1, p.maxConcurrency));
        const double t = step(cc, 1).seconds(e) * (seconds / terms.seconds(e));
        p.concurrencyCurve.push_back({c, 1.0 / t, cc / t});
    }
    if (g.powerWatts > 0)
        p.powerWatts = g.powerWatts * n;
    completeScenarios(p, w);
    return p;
}

} // namespace ws
