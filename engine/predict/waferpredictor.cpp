#include "engine/predict/waferpredictor.h"

#include "engine/calibration/wafercalibration.h"
#include "engine/predict/predictionutil.h"
#include "engine/predict/speculative.h"
#include "engine/predict/waferbounds.h"
#include "engine/predict/waferprefill.h"
#include "engine/wafer/dataflow/kvcapacity.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace ws {
namespace {
double tokenCycles(const ModelConfig& m, const ScheduleRegions& layout, const TimingParams& p, int tokens,
                   int64_t context, KvPlacement kv)
{
    ScheduleOptions o;
    o.tokens = tokens;
    o.context = context;
    o.kv = kv;
    o.timingOnly = true;
    return buildTokenSchedule(m, layout, TimingModel(p), o).totalCycles;
}

// predictWaferAt's ends. A pass is affine in the kernel factor f (TokenSchedule::kernelCycles) while
// applyKernelFactor's clamp at the SIMD limit stays off (slack 1e-12 for a factor fitted at that limit):
// cycles(f) = cycles(f0) + (f / f0 - 1) x its kernel cycles at f0. Speculative decoding times other passes too.
void timeAtFactors(WaferPredictionAt& at, const ModelConfig& model, const HardwareSpec& hw, const Workload& w,
                   const WaferPredictOptions& o, const TokenSchedule& point, const std::vector<double>& factors)
{
    if (factors.empty())
        return;
    const double f0 = o.kernelFactor;
    const double mac = shippedWaferCalibration()->params.macCycles;
    const double simd = hw.wafer.macsPerCyclePerCore > 0 ? 1.0 / hw.wafer.macsPerCyclePerCore : 0.0;
    auto unclamped = [&](double f) { return f == 1.0 || mac * f >= simd * (1 - 1e-12); };
    at.fromPoint = !w.speculative.enabled && point.kernelCycles >= 0 && !point.isPrefill() && f0 > 0 &&
                   std::isfinite(f0) && unclamped(f0) &&
                   std::all_of(factors.begin(), factors.end(), [&](double f) { return f > 0 && unclamped(f); });
    for (double f : factors) {
        if (at.fromPoint) {
            at.tokensPerSecondAt.push_back(1.0 /
                                           ((point.totalCycles + (f / f0 - 1.0) * point.kernelCycles) / point.clockHz));
            continue;
        }
        WaferPredictOptions end = o;
        end.kernelFactor = f;
        end.pointOnly = true;
        auto p = predictWafer(model, hw, w, end);
        at.tokensPerSecondAt.push_back(p ? std::optional(p->tokensPerSecondPerUser) : std::nullopt);
    }
}
} // namespace

Expected<Prediction> predictWafer(const ModelConfig& model, const HardwareSpec& hw, const Workload& w,
                                  const WaferPredictOptions& o)
{
    auto at = predictWaferAt(model, hw, w, o, {});
    if (!at)
        return at.error();
    return std::move(at->prediction);
}

Expected<WaferPredictionAt> predictWaferAt(const ModelConfig& model, const HardwareSpec& hw, const Workload& w,
                                           const WaferPredictOptions& o, const std::vector<double>& factors)
{
    auto setup = prepareWafer(model, hw, w, o);
    if (!setup)
        return setup.error();
    const WaferSetup& s = *setup;
    if (!s.overCapacity.empty()) {
        const RegionOverflow& worst = s.overCapacity.front();
        return makeError(ErrorCode::OutOfRange,
                         "the layout needs " + std::to_string(worst.maxCoreBytes) + " bytes on a core of layer " +
                             std::to_string(worst.layer) + " (wafer " + std::to_string(worst.device + 1) + "), " +
                             std::to_string(worst.overflowBytes) + " more than its SRAM; " +
                             std::to_string(s.overCapacity.size()) + " regions over",
                         "layout");
    }
    const ScheduleRegions& layout = s.layout;
    const double clock = s.params.clockHz;

    Prediction p;
    p.modelId = model.id;
    p.hardwareId = hw.id;
    p.kind = HardwareKind::Wafer;
    p.profile = s.profile;
    p.devicesNeeded = s.devicesNeeded;
    p.devices = s.devicesNeeded;
    p.devicesChosen = o.devices <= 0;
    p.defects = s.defects;
    if (s.defects.applied)
        p.notes.push_back("defects: " + std::to_string(s.defects.deadCores) + " dead cores over " +
                          std::to_string(s.devicesNeeded) + " wafers, each with its own map (seed " +
                          std::to_string(s.defects.seed) + " + wafer index); usable mesh " +
                          std::to_string(s.defects.usableCols) + " x " + std::to_string(s.defects.usableRows));
    if (o.devices > s.devicesNeeded)
        p.notes.push_back(std::to_string(s.devicesNeeded) + " wafers hold the model; the other " +
                          std::to_string(o.devices - s.devicesNeeded) + " stay idle");
    for (const std::string& n : s.layoutNotes)
        p.notes.push_back(n);
    if (p.devicesChosen)
        p.notes.push_back("using the fewest wafers that hold the model: " + std::to_string(s.devicesNeeded));
    if (model.isMoe())
        p.notes.push_back(s.layout.experts == ExpertLayout::Sliced
                              ? "experts: sliced, every expert cut across its layer's cores, so all of them work "
                                "for the active experts (an assumption; --experts blocks puts each on its own block)"
                              : "experts: blocks, each expert on its own block of its layer's cores, only the "
                                "active experts' blocks work (an assumption; --experts sliced cuts each across "
                                "all the cores)");

    // Requests that fit: KV capacity of a layer region over the context per request.
    const RegionRef& r0 = layout.layers.front();
    const LayerDims dims0 = LayerDims::fromModel(model, 0);
    const KvCapacity kv = kvCapacity(dims0, r0.rect.width, r0.rect.height, s.kvBytesPerCore, s.params);
    const int64_t capacity = kv.tokens(o.kv);
    p.kvCapacityTokens = capacity;
    p.sramHeadroomBytes = s.sramHeadroomBytes;
    const int stages = std::max(1, int(layout.layers.size()));
    p.maxConcurrency = int(std::clamp<int64_t>(capacity / std::max<int64_t>(1, w.contextTokens), 0, 1 << 20));
    if (p.maxConcurrency < 1) {
        return makeError(ErrorCode::OutOfRange,
                         "the KV cache of one request at " + std::to_string(w.contextTokens) +
                             " tokens does not fit beside the weights (" + std::to_string(capacity) +
                             " tokens fit per layer region with " + (o.kv == KvPlacement::Shift ? "shift" : "concat") +
                             " placement)",
                         "context");
    }
    int concurrency = std::max(1, w.concurrency);
    if (concurrency > p.maxConcurrency) {
        p.notes.push_back("KV cache holds " + std::to_string(p.maxConcurrency) + " requests at this context; " +
                          std::to_string(concurrency) + " requested, predicting " + std::to_string(p.maxConcurrency));
        concurrency = p.maxConcurrency;
    }
    p.concurrency = concurrency;
    p.kvCache = kvCacheFacts(model, s.params.kvBytesPerValue);

    // Micro-batch per stage visit, cached by size.
    std::map<int, double> cyclesByBatch;
    auto cyclesFor = [&](int tokensPerVisit, const TimingParams& params) {
        return tokenCycles(model, layout, params, tokensPerVisit, w.contextTokens, o.kv);
    };
    auto batchCycles = [&](int m) {
        auto it = cyclesByBatch.find(m);
        if (it != cyclesByBatch.end())
            return it->second;
        const double c = cyclesFor(m, s.params);
        cyclesByBatch[m] = c;
        return c;
    };
    const int m = (concurrency + stages - 1) / stages;
    ScheduleOptions so;
    so.tokens = m;
    so.context = w.contextTokens;
    so.kv = o.kv;
    so.timingOnly = true;
    const TokenSchedule schedule = buildTokenSchedule(model, layout, TimingModel(s.params), so);
    cyclesByBatch[m] = schedule.totalCycles;
    double secondsPerToken = schedule.totalCycles / clock;
    // The verify of k + 1 tokens per request (speculative decoding). Each core streams its weights from SRAM once
    // and multiplies them with every token's activations, so the latencies, reductions' fixed costs and hops are
    // paid once, the payloads k + 1 times, and of the compute term only the SIMD part per token: the fitted cycles
    // per MAC (c_mac, WaferLLM's GEMV at one token) are mostly operand fetch, the SIMD issues
    // macsPerCyclePerCore MACs per cycle (The Next Platform [NextPlatform-WSE3] in docs/sources.md), so each further
    // token costs 1 / (SIMD width) cycles per MAC where the first costs c_mac.
    auto verifySchedule = [&](int tokensPerRequest) {
        ScheduleOptions vo = so;
        vo.tokens = m * tokensPerRequest;
        TimingParams noCompute = s.params;
        noCompute.macCycles = 0;
        TokenSchedule v = buildTokenSchedule(model, layout, TimingModel(noCompute), vo);
        vo.tokens = m;
        const TokenSchedule bare = buildTokenSchedule(model, layout, TimingModel(noCompute), vo);
        const double simd = hw.wafer.macsPerCyclePerCore > 0 && s.params.macCycles > 0
                                ? std::min(1.0, 1.0 / (hw.wafer.macsPerCyclePerCore * s.params.macCycles))
                                : 1.0;
        const double factor = 1.0 + double(tokensPerRequest - 1) * simd;
        const double compute = schedule.totalCycles - bare.totalCycles;
        v.totalCycles += compute * factor;
        v.computeCycles = compute * factor;
        for (size_t k = 0; k < v.cyclesByKind.size(); ++k)
            v.cyclesByKind[k] += (schedule.cyclesByKind[k] - bare.cyclesByKind[k]) * factor;
        return v;
    };
    double scale = 1.0;
    double draftSeconds = 0;
    double handoff = 0; // seconds per step between the draft and the target (its own wafer: two link crossings)
    if (w.speculative.enabled) {
        if (w.speculative.draftModel) { // the draft's own token at its home, and the hand-off
            auto draft = timeDraftAtHome(p, hw, w, o, s, layout);
            if (!draft)
                return draft.error();
            std::tie(draftSeconds, handoff) = std::pair(draft->secondsPerToken, draft->handoffSeconds);
        } else {
            draftSeconds = w.speculative.draftCostFraction * batchCycles(1) / clock;
        }
        secondsPerToken = speculativeSecondsPerToken(
            w.speculative, draftSeconds, [&](int k) { return verifySchedule(k).totalCycles / clock + handoff; });
        scale = 1.0 / w.speculative.expectedTokensPerStep();
        p.notes.push_back("speculative decoding: " + std::to_string(w.speculative.tokensPerStep) +
                          " draft tokens per step, acceptance " + toStringC(w.speculative.acceptanceRate));
    }
    p.secondsPerToken = secondsPerToken;
    p.tokensPerSecondPerUser = 1.0 / secondsPerToken;
    p.aggregateTokensPerSecond = concurrency * p.tokensPerSecondPerUser;
    WaferPredictionAt out;
    timeAtFactors(out, model, hw, w, o, schedule, factors);
    if (o.pointOnly) {
        out.prediction = std::move(p);
        return out;
    }
    if (s.draftHome)
        addDraftHomeNote(p, *s.draftHome, w.speculative);

    // Breakdown of one output token by phase.
    if (w.speculative.enabled) {
        const TokenSchedule verify = verifySchedule(w.speculative.tokensPerStep + 1);
        for (size_t k = 0; k < verify.cyclesByKind.size(); ++k)
            if (verify.cyclesByKind[k] > 0)
                p.breakdown.push_back({std::string(phaseKindId(PhaseKind(k))), verify.cyclesByKind[k] / clock * scale});
        p.breakdown.push_back(
            {"speculative_draft", w.speculative.tokensPerStep * draftSeconds / w.speculative.expectedTokensPerStep()});
        if (handoff > 0)
            p.breakdown.push_back({"speculative_handoff", handoff * scale});
    } else {
        for (size_t k = 0; k < schedule.cyclesByKind.size(); ++k)
            if (schedule.cyclesByKind[k] > 0)
                p.breakdown.push_back({std::string(phaseKindId(PhaseKind(k))), schedule.cyclesByKind[k] / clock});
    }

    // TTFT range: the newer core's SIMD width applied or not, the calibration's worst residual, and the spread of
    // the prefill efficiency fitted on WaferLLM's measured prefill.
    const WaferTtft ttft = waferTtft(model, layout, s.params, std::max<int64_t>(1, w.promptTokens), o.kv,
                                     waferSimdRatio(hw), s.calibrationResidual);
    p.ttftSeconds = ttft.seconds;
    p.ttftRange = ttft.range;
    if (!ttft.note.empty())
        p.notes.push_back(ttft.note);

    for (int c : concurrencyLevels(w.concurrency)) {
        const int cc = std::min(c, p.maxConcurrency);
        const int mm = (cc + stages - 1) / stages;
        const double t = batchCycles(mm) / clock * (secondsPerToken / (schedule.totalCycles / clock));
        p.concurrencyCurve.push_back({c, 1.0 / t, cc / t});
    }
    WaferBoundsInput bounds;
    bounds.setup = &s;
    bounds.tokensPerVisit = m;
    bounds.step = &schedule;
    // The hand-off between draft and target is timed apart: the link latency driver moves it too.
    bounds.specFactor = (secondsPerToken - handoff * scale) / (schedule.totalCycles / clock);
    if (handoff > 0)
        bounds.handoffSeconds = [&](const TimingParams& q) {
            return scale *
                   draftHandoffSeconds(layout, s.draftLayout, s.draftHome->home, q, w.speculative.tokensPerStep);
        };
    bounds.cycles = [&](const ScheduleRegions& l, const TimingParams& params, int visit) {
        // The point's own regions and constants (a driver's end at the assumed value, the placement policy's
        // whole token): the cycles the point and its curve already timed.
        if (&l == &layout && params == s.params)
            return batchCycles(visit);
        return tokenCycles(model, l, params, visit, w.contextTokens, o.kv);
    };
    if (!o.noRange)
        addWaferRangeAndCeiling(p, model, hw, w, o, bounds);
    if (hw.wafer.powerWatts > 0)
        p.powerWatts = hw.wafer.powerWatts * p.devices;
    else
        p.notes.push_back("system power not in the hardware preset: no energy per token");
    completeScenarios(p, w);
    out.prediction = std::move(p);
    return out;
}

} // namespace ws
