#include "engine/predict/gpupredictor.h"

#include "engine/calibration/gpucalibration.h"
#include "engine/model/modelshape.h"
#include "engine/predict/predictionutil.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace ws {

namespace {
int kvBytesFor(Precision p)
{
    return bitsPerParameter(p) <= 9 ? 1 : 2; // 8-bit serving stacks keep an 8-bit KV cache
}

// The serving stack's unknowns, one at a time; model(efficiency, users) is the model's speed per user with them,
// floorSeconds(users) the floor's time per token, which no end of a driver goes below.
void addGpuRangeDrivers(Prediction& p, const GpuEfficiency& e, const GpuSpec& g, double kernelLayers, bool batchKnown,
                        const std::vector<const GpuCalibration*>& profiles,
                        const std::function<double(const GpuEfficiency&, int)>& model,
                        const std::function<double(int)>& floorSeconds)
{
    auto tps = [&](const GpuEfficiency& x, int users) { return std::min(model(x, users), 1.0 / floorSeconds(users)); };
    const double point = tps(e, p.concurrency);
    auto vary = [&](const char* input, const char* unit, double GpuEfficiency::*field, double assumed, double low,
                    double high, const char* source, auto toField) {
        GpuEfficiency a = e;
        GpuEfficiency b = e;
        a.*field = toField(low);
        b.*field = toField(high);
        p.rangeDrivers.push_back(
            rangeDriver(input, unit, assumed, low, high, source, point, tps(a, p.concurrency), tps(b, p.concurrency)));
    };
    auto same = [](double v) { return v; };
    const double eta = 1.0 / e.memoryTimeFactor;
    {
        // Hazy Research's ~50% is an effective figure: bytes moved over the whole step, launch gaps included. So
        // the low end is the step that moves the weights and KV at half the peak in all (never faster than the
        // point), not half the peak on top of the fitted per-layer overhead, which would count the gaps twice.
        GpuEfficiency streamOnly = e;
        streamOnly.memoryTimeFactor = 1.0;
        streamOnly.computeTimeFactor = 0;
        streamOnly.layerOverheadS = 0;
        streamOnly.allreduceStepS = 0;
        streamOnly.interNodeStepS = 0;
        const double low = std::min(eta, 0.5);
        GpuEfficiency b = e;
        b.memoryTimeFactor = 1.0 / std::max(eta, 0.85);
        p.rangeDrivers.push_back(rangeDriver(
            "hbm_efficiency", "fraction of peak", eta, low, std::max(eta, 0.85),
            "Hazy Research 'No Bubbles' (2025-05-27) [Hazy-NoBubbles]: vLLM and SGLang use at most ~50% of H100 "
            "bandwidth at batch 1 (bytes over the whole step); WaferLLM, OSDI 2025, Table 6 [WaferLLM-T6]: cuBLAS "
            "GEMV reaches 85% on A100 (docs/sources.md)",
            point, std::min({point, low * model(streamOnly, p.concurrency), 1.0 / floorSeconds(p.concurrency)}),
            tps(b, p.concurrency)));
    }
    // CUDA graphs switch a step by 1.259x on H100 ([PAI-gap] in docs/sources.md): on takes (1 - 1/1.259) of the step
    // off the fitted overhead (not below the preset's kernels per layer at their launch gap under graphs: ~100
    // kernels for 16 layers at ~1.3 us each, [Hazy-NoBubbles]), off adds 0.259 of it.
    const double graphsFloor = g.decodeKernelsPerLayer * g.kernelGapGraphS;
    const double stepPerLayer = 1.0 / point / std::max(1.0, kernelLayers); // layerOverheadS is per kernel layer
    const double graphsOn = std::max(graphsFloor, e.layerOverheadS - (1.0 - 1.0 / 1.259) * stepPerLayer);
    const double graphsOff = e.layerOverheadS + 0.259 * stepPerLayer;
    vary("layer_overhead_s", "s per layer", &GpuEfficiency::layerOverheadS, e.layerOverheadS,
         std::min(e.layerOverheadS, graphsOn), std::max(e.layerOverheadS, graphsOff),
         "CUDA graphs on: ~100 kernels per Llama-3.2-1B pass at ~1.3 us (Hazy Research; mlops.substack summary); "
         "off: 1.259x slower step on H100 (J. Chen, arXiv 2605.30571 [PAI-gap])",
         same);
    if (p.devices > 1) {
        const int k = e.multiShotAllReduce ? 2 : 2 * (std::min(p.devices, 8) - 1);
        const double nccl = (6.6e-6 + 0.6e-6 * k) / k;
        double fittedMax = e.allreduceStepS;
        for (const GpuCalibration* c : profiles)
            fittedMax = std::max(fittedMax, c->efficiency.allreduceStepS);
        vary("allreduce_step_s", e.multiShotAllReduce ? "s per all-reduce step (2 per all-reduce)" : "s per ring step",
             &GpuEfficiency::allreduceStepS, e.allreduceStepS, std::min(e.allreduceStepS, nccl), fittedMax,
             "low: NCCL tuning model, 6.6 us + 0.6 us per NVLink step (NVIDIA/nccl src/graph/tuning.cc); high: the "
             "largest step any shipped GPU profile fitted",
             same);
    }
    // The batch a provider runs beside a published single-user figure is rarely stated.
    const int batchHigh = std::min(std::max(1, p.maxConcurrency), 4 * p.concurrency);
    if (batchHigh > p.concurrency && !batchKnown)
        p.rangeDrivers.push_back(
            rangeDriver("provider_batch", "requests", p.concurrency, p.concurrency, batchHigh,
                        "[estimate] API endpoints batch other users' requests; published "
                        "single-user speeds seldom state it (e.g. [Cerebras-Inference-2024], [TechPowerUp-Groq] in "
                        "docs/sources.md)",
                        point, point, tps(e, batchHigh)));
    const CalibrationProfile* fitted = nullptr;
    for (const GpuCalibration* c : profiles)
        if (c->profile.id == p.profile)
            fitted = &c->profile;
    if (fitted && fitted->rmsRelativeResidual > 0) {
        const double r = fitted->rmsRelativeResidual;
        p.rangeDrivers.push_back(rangeDriver("calibration_fit", "relative", 0, -r, r,
                                             "rms residual of profile " + fitted->id + " on its measurements", point,
                                             point * (1 - r), point * (1 + r)));
    }
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
        cal = gpuCalibrationFor(hw.id, w.concurrency, std::nullopt, model.isMoe());
    }
    if (!cal)
        return makeError(ErrorCode::NotFound, "no GPU calibration profile could be fitted", "profile");
    const GpuEfficiency& e = cal->efficiency;
    const GpuSpec& g = hw.gpu;
    const int needed = gpusNeeded(model, g, w.precision, w.contextTokens, 1, e);
    if (needed <= 0)
        return makeError(ErrorCode::OutOfRange, "the model does not fit in any number of " + hw.id + " GPUs",
                         "devices");
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
    p.kvCache = kvCacheFacts(model, kvBytes);

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
        s.multiShotAllReduce = e.multiShotAllReduce;
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
        {"allreduce",
         (shown.intraSteps * e.allreduceStepS + shown.interSteps * e.interNodeStepS + shown.link) * scale});
    if (w.speculative.enabled)
        p.breakdown.push_back({"speculative_draft", w.speculative.tokensPerStep * draftSeconds * scale});

    // The floor: one step's fixed costs (the verify of k + 1 tokens with speculative decoding) over the tokens it
    // yields; the draft's own steps could only add to it.
    const int verified = w.speculative.enabled ? w.speculative.tokensPerStep + 1 : 1;
    const double tokensPerStep = w.speculative.enabled ? w.speculative.expectedTokensPerStep() : 1.0;
    auto floorTerms = [&](int users) { return gpuFloorTerms(step(users, verified), model.layers, g, n); };
    auto floorSeconds = [&](int users) { return floorTerms(users).graphs() / tokensPerStep; };
    {
        const GpuFloorTerms f = floorTerms(concurrency);
        auto src = [&](const char* field) {
            const auto it = hw.sources.find(field);
            return it != hw.sources.end() ? it->second : std::string("hardware preset (no source)");
        };
        Floor floor;
        floor.formula = "CUDA graphs: max(roofline at peak + kernel launches + all-reduce latency, host per step)";
        floor.components.push_back({"roofline_at_peak", f.roofline / tokensPerStep,
                                    "every byte and FLOP of the step at the preset's peaks: " +
                                        src("hbmBandwidthBytesPerS") + "; " + src("bf16Flops")});
        const std::string kernelLayers =
            std::abs(facts.kernelLayers - model.layers) < 0.5
                ? std::to_string(model.layers) + " layers"
                : std::to_string(model.layers) + " layers (" + std::to_string(std::lround(facts.kernelLayers)) +
                      " dense-layer kernel equivalents: MoE and latent-attention layers launch more, TensorRT-LLM "
                      "tech blog 1 [TRTLLM-DSR1-latency])";
        floor.components.push_back(
            {"kernel_launch", f.launches / tokensPerStep,
             kernelLayers + " x " + src("decodeKernelsPerLayer") + " x " + src("kernelGapGraphS")});
        if (n > 1)
            floor.components.push_back({"allreduce_latency", f.allreduce / tokensPerStep,
                                        "2 per layer x " + src("allreduceLatencyS") + ", plus the payload over " +
                                            src("nvlinkBandwidthBytesPerS")});
        floor.components.push_back({"host_per_step", f.host / tokensPerStep, src("hostOverheadPerStepS")});
        floor.components.push_back(
            {"kernel_launch_eager", f.eager / tokensPerStep, "without CUDA graphs only: " + src("kernelLaunchEagerS")});
        floor.seconds = f.graphs() / tokensPerStep;
        floor.withoutGraphsSeconds = f.withoutGraphs() / tokensPerStep;
        settleFloor(p, std::move(floor));
    }

    // Time to first token: the prompt in one prefill pass.
    GpuStep prefill;
    prefill.gpus = n;
    prefill.context = std::max<int64_t>(1, w.promptTokens / 2);
    prefill.tokensPerRequest = double(std::max<int64_t>(1, w.promptTokens));
    prefill.precision = w.precision;
    prefill.kvBytesPerValue = kvBytes;
    const GpuStepTerms pre = gpuStepTerms(model, g, prefill);
    const double preFloor = gpuFloorTerms(pre, model.layers, g, n).graphs();
    p.ttftSeconds = std::max(pre.seconds(e), preFloor);

    // Time to first token over every shipped GPU profile (and a user-fitted one) and its worst residual.
    double ttftLo = p.ttftSeconds;
    double ttftHi = p.ttftSeconds;
    std::vector<const GpuCalibration*> rangeProfiles;
    for (const auto& c : shippedGpuCalibrations())
        if (!c.moeOnly || model.isMoe()) // a profile for MoE models only says nothing of a dense one
            rangeProfiles.push_back(&c);
    if (o.calibration)
        rangeProfiles.push_back(o.calibration.get());
    for (const GpuCalibration* c : rangeProfiles) {
        const double r = c->profile.maxAbsRelativeResidual;
        ttftLo = std::min(ttftLo, std::max(preFloor, pre.seconds(c->efficiency) * (1 - r)));
        ttftHi = std::max(ttftHi, std::max(preFloor, pre.seconds(c->efficiency) * (1 + r)));
    }
    p.ttftRange = {ttftLo, ttftHi};

    const double specFactor = seconds / terms.seconds(e);
    auto clampUsers = [&](int users) { return std::clamp(users, 1, std::max(1, p.maxConcurrency)); };
    addGpuRangeDrivers(
        p, e, g, facts.kernelLayers, w.batchKnown, rangeProfiles,
        [&](const GpuEfficiency& x, int users) { return 1.0 / (step(clampUsers(users), 1).seconds(x) * specFactor); },
        [&](int users) { return floorSeconds(clampUsers(users)); });
    Ceiling& ceiling = p.ceiling;
    ceiling.peakBytesPerS = n * g.hbmBandwidthBytesPerS;
    ceiling.peakFlopsPerS = n * gpuPeakFlops(g, w.precision);
    ceiling.bytesPerStep = facts.weightBytesRead + concurrency * facts.kvBytesPerRequest;
    ceiling.flopsPerStep = (2.0 * facts.activeParameters + facts.attentionFlops) * concurrency * verified *
                           (1.0 + continuousBatchPrefill(double(w.promptTokens), double(w.outputTokens), concurrency));
    ceiling.tokensPerStep = tokensPerStep;
    finishRange(p);

    for (int c : concurrencyLevels(w.concurrency)) {
        const int cc = std::clamp(c, 1, std::max(1, p.maxConcurrency));
        const double t = std::max(step(cc, 1).seconds(e) * (seconds / terms.seconds(e)), floorSeconds(cc));
        p.concurrencyCurve.push_back({c, 1.0 / t, cc / t});
    }
    if (g.powerWatts > 0)
        p.powerWatts = g.powerWatts * n;
    completeScenarios(p, w);
    return p;
}

} // namespace ws
