#include "engine/predict/lpupredictor.h"

#include "engine/model/modelshape.h"
#include "engine/predict/predictionutil.h"

#include <algorithm>
#include <cmath>

namespace ws {

namespace {
// The chip count Groq deploys and the chip-to-chip cost, one at a time, and the ceiling: one token's layers run
// in turn, each on its own chips (the layer pipeline lpuTerms assumes), so the roof is one layer's chips' SRAM
// bandwidth and peak (one chip when a chip holds several layers), not every chip's at once.
void addLpuRangeDrivers(Prediction& p, const ModelShape& shape, const LpuModelFacts& facts, const LpuSpec& l,
                        const Workload& w, const LpuCalibration& cal, double specFactor)
{
    const ModelConfig& model = shape.config();
    const int stages = std::max(1, model.layers);
    const double perStage = std::ceil(double(p.concurrency) / stages);
    auto tps = [&](int chips, const LpuEfficiency& e) {
        return 1.0 / (lpuTerms(facts, l, w.precision, chips, perStage, p.concurrency, e).seconds(e) * specFactor);
    };
    const LpuEfficiency& e = cal.efficiency;
    const double point = tps(p.devices, e);
    if (p.devicesChosen) {
        // Groq's Llama-2-70B system: 576 chips ([Groq-chip-count], docs/sources.md) against the ~340 its 8-bit weights
        // need here.
        const int high = int(std::ceil(p.devices * 1.7));
        p.rangeDrivers.push_back(
            rangeDriver("chips", "chips", p.devices, p.devices, high,
                        "[derived] the vendor deploys more chips than the SRAM minimum: 576 "
                        "for Llama-2-70B (Hacker News, SemiWiki forum; no primary source [Groq-chip-count]) = 1.7x "
                        "the 8-bit minimum",
                        point, point, tps(high, e)));
        p.rangeDrivers.back().devicesAtHigh = high; // the cost end pays for them
    }
    LpuEfficiency lo = e;
    LpuEfficiency hi = e;
    lo.exchangeS = cal.exchangeSLow;
    hi.exchangeS = cal.exchangeSHigh;
    p.rangeDrivers.push_back(
        rangeDriver("chip_to_chip_s", "s per exchange", e.exchangeS, lo.exchangeS, hi.exchangeS,
                    "the cost each row of " + cal.profile.id + " implies alone (" + cal.profile.source + ")", point,
                    tps(p.devices, lo), tps(p.devices, hi)));
    Ceiling& c = p.ceiling;
    const int verified = w.speculative.enabled ? w.speculative.tokensPerStep + 1 : 1;
    const double chipsPerLayer = std::max(1.0, double(p.devices) / std::max(1, model.layers));
    c.peakBytesPerS = chipsPerLayer * l.sramBandwidthBytesPerS;
    c.peakFlopsPerS = chipsPerLayer * lpuPeakOps(l, w.precision);
    c.bytesPerStep = double(shape.bytesReadPerToken(w.precision)) +
                     double(shape.kvBytes(std::max<int64_t>(1, w.contextTokens), lpuKvBytes(w.precision)));
    c.flopsPerStep =
        (2.0 * double(shape.activeParameters()) + shape.mlaAttentionFlops(w.contextTokens)) * perStage * verified;
    c.tokensPerStep = w.speculative.enabled ? w.speculative.expectedTokensPerStep() : 1.0;
    finishRange(p);
}
} // namespace

Expected<Prediction> predictLpu(const ModelConfig& model, const HardwareSpec& hw, const Workload& w,
                                const LpuPredictOptions& o)
{
    if (hw.kind != HardwareKind::Lpu)
        return makeError(ErrorCode::InvalidArgument, "hardware '" + hw.id + "' is not an LPU", "hardware");
    const auto& cal = shippedLpuCalibration();
    if (!cal)
        return cal.error();
    const LpuEfficiency& e = cal->efficiency;
    const LpuSpec& l = hw.lpu;
    // The fewest chips that hold the weights and every user's KV cache (more users, more chips: Groq deploys
    // about 1.7x the weights' minimum, [Groq-chip-count]).
    const int needed = lpuChipsNeeded(model, l, w.precision, w.contextTokens, std::max(1, w.concurrency), e);
    if (needed <= 0)
        return makeError(ErrorCode::OutOfRange, "LPU preset has no SRAM", "hardware");
    auto started = startPrediction(model, hw, cal->profile.id, w, needed, o.devices, "chips",
                                   "using the fewest chips whose SRAM holds the model");
    if (!started)
        return started.error();
    Prediction p = std::move(started.value());
    const int chips = p.devices;

    const ModelShape shape(model);
    // The model's facts at this precision and context, read by every step timed below.
    const LpuModelFacts facts = lpuModelFacts(shape, w.precision, w.contextTokens);
    const double free =
        e.sramUsableFraction * double(l.sramBytesPerChip) * chips - double(shape.totalBytes(w.precision));
    const double perRequest = double(shape.kvBytes(std::max<int64_t>(1, w.contextTokens), lpuKvBytes(w.precision)));
    p.maxConcurrency = perRequest > 0 ? int(std::clamp(free / perRequest, 0.0, double(1 << 20))) : 1;
    int concurrency = std::max(1, w.concurrency);
    if (concurrency > std::max(1, p.maxConcurrency)) {
        p.notes.push_back("SRAM holds the KV cache of " + std::to_string(p.maxConcurrency) +
                          " requests at this context; add chips for more");
        concurrency = std::max(1, p.maxConcurrency);
    }
    p.concurrency = concurrency;
    p.kvCache = kvCacheFacts(model, lpuKvBytes(w.precision));
    const int stages = std::max(1, model.layers);
    auto stepSeconds = [&](int users, double tokensPerRequest) {
        const double perStage = std::ceil(double(users) / stages) * tokensPerRequest;
        return lpuTerms(facts, l, w.precision, chips, perStage, users, e).seconds(e);
    };
    const LpuTerms terms =
        lpuTerms(facts, l, w.precision, chips, std::ceil(double(concurrency) / stages), concurrency, e);
    double seconds = terms.seconds(e);
    double scale = 1.0;
    double draftSeconds = 0;
    if (w.speculative.enabled) {
        draftSeconds = w.speculative.draftCostFraction * seconds;
        if (w.speculative.draftModel) {
            Workload dw = w;
            dw.speculative.enabled = false;
            auto d = predictLpu(*w.speculative.draftModel, hw, dw, {});
            if (!d)
                return d.error();
            draftSeconds = d->secondsPerToken;
        }
        seconds =
            speculativeSecondsPerToken(w.speculative, draftSeconds, [&](int k) { return stepSeconds(concurrency, k); });
        scale = 1.0 / w.speculative.expectedTokensPerStep();
    }
    p.secondsPerToken = seconds;
    p.tokensPerSecondPerUser = 1.0 / seconds;
    p.aggregateTokensPerSecond = concurrency / seconds;
    const double verifyScale =
        w.speculative.enabled ? stepSeconds(concurrency, w.speculative.tokensPerStep + 1) / terms.seconds(e) * scale
                              : 1.0;
    p.breakdown.push_back({"sram_stream_compute", terms.local * verifyScale});
    p.breakdown.push_back({"chip_to_chip", terms.exchanges * e.exchangeS * verifyScale});
    if (w.speculative.enabled)
        p.breakdown.push_back({"speculative_draft", w.speculative.tokensPerStep * draftSeconds * scale});

    // The floor: one step's layers streamed and computed at the chips' peaks, and (more than one chip) every
    // exchange's activations over all of a chip's links at their line rate; no public figure gives the LPU's
    // per-hop latency or host work per token, so neither is counted.
    const int verified = w.speculative.enabled ? w.speculative.tokensPerStep + 1 : 1;
    const double tokensPerStep = w.speculative.enabled ? w.speculative.expectedTokensPerStep() : 1.0;
    auto floorStep = [&](int users) {
        const double perStage = std::ceil(double(users) / stages) * verified;
        const LpuTerms t = lpuTerms(facts, l, w.precision, chips, perStage, users, e);
        const double linkRate = double(l.c2cLinks) * l.c2cLinkBandwidthBytesPerS;
        const double transfer = chips > 1 && linkRate > 0 ? t.exchanges * double(model.hiddenSize) *
                                                                lpuKvBytes(w.precision) * perStage / linkRate
                                                          : 0.0;
        return std::pair(t.local, transfer);
    };
    {
        const auto [local, transfer] = floorStep(concurrency);
        auto src = [&](const char* field) {
            const auto it = hw.sources.find(field);
            return it != hw.sources.end() ? it->second : std::string("hardware preset (no source)");
        };
        Floor floor;
        floor.formula = "roofline at peak + chip-to-chip transfers at line rate";
        floor.components.push_back(
            {"roofline_at_peak", local / tokensPerStep,
             "every layer's bytes and operations at the chips' peaks: " + src("sramBandwidthBytesPerS")});
        if (chips > 1)
            floor.components.push_back({"chip_to_chip", transfer / tokensPerStep,
                                        "2 exchanges per layer (MoE: 3) of the activations over " + src("c2cLinks") +
                                            " at " + src("c2cLinkBandwidthBytesPerS")});
        floor.seconds = (local + transfer) / tokensPerStep;
        settleFloor(p, std::move(floor));
    }

    const double r = cal->profile.maxAbsRelativeResidual;
    // Prefill: the prompt flows through the layer pipeline as one batch.
    const LpuTerms pre = lpuTerms(lpuModelFacts(shape, w.precision, std::max<int64_t>(1, w.promptTokens / 2)), l,
                                  w.precision, chips, double(std::max<int64_t>(1, w.promptTokens)), 1, e);
    p.ttftSeconds = pre.seconds(e);
    p.ttftRange = {p.ttftSeconds * (1 - r), p.ttftSeconds * (1 + r)};
    for (int c : concurrencyLevels(w.concurrency)) {
        const int cc = std::clamp(c, 1, std::max(1, p.maxConcurrency));
        const auto [local, transfer] = floorStep(cc);
        const double t =
            std::max(stepSeconds(cc, 1) * (seconds / terms.seconds(e)), (local + transfer) / tokensPerStep);
        p.concurrencyCurve.push_back({c, 1.0 / t, cc / t});
    }
    addLpuRangeDrivers(p, shape, facts, l, w, *cal, seconds / terms.seconds(e));
    if (l.powerWatts > 0)
        p.powerWatts = l.powerWatts * chips;
    completeScenarios(p, w);
    return p;
}

} // namespace ws
