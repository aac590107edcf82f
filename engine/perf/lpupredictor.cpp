#include "engine/perf/lpupredictor.h"

#include "engine/model/modelshape.h"
#include "engine/perf/leastsquares.h"
#include "engine/perf/measurementdata.h"
#include "engine/perf/measurementjson.h"
#include "engine/perf/predictionutil.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace ws {

namespace {

int kvBytesFor(Precision p)
{
    return bitsPerParameter(p) <= 9 ? 1 : 2;
}

double peakOps(const LpuSpec& l, Precision p)
{
    return bitsPerParameter(p) <= 9 && l.int8Ops > 0 ? l.int8Ops : l.fp16Flops;
}

// Seconds per step without the exchanges, and the exchange count (x exchangeS).
struct LpuTerms
{
    double local = 0;     // SRAM streaming and compute, layer after layer
    double exchanges = 0; // count
    double seconds(const LpuEfficiency& e) const { return local + exchanges * e.exchangeS; }
};

LpuTerms lpuTerms(const ModelConfig& m, const LpuSpec& l, Precision p, int chips, double tokensPerStage,
                  int64_t context, int concurrencyForKv, const LpuEfficiency& e)
{
    const ModelShape shape(m);
    const double layers = std::max(1, m.layers);
    const double chipsPerLayer = double(chips) / layers; // fractional: a chip may hold several layers
    const double kv =
        double(shape.kvBytes(std::max<int64_t>(1, context), kvBytesFor(p))) * std::max(1, concurrencyForKv);
    const double bytesPerLayer = (double(shape.bytesReadPerToken(p)) + kv / std::max(1, concurrencyForKv)) / layers;
    const double flopsPerLayer = 2.0 * double(shape.activeParameters()) / layers * tokensPerStage;
    const double stream = bytesPerLayer / (chipsPerLayer * l.sramBandwidthBytesPerS);
    const double compute = flopsPerLayer / (chipsPerLayer * peakOps(l, p));
    LpuTerms t;
    t.local = layers * std::max(stream, compute);
    // A mixture-of-experts layer sends each token to the chips of its chosen experts before the MLP and
    // gathers the results after it: the gather stands in for a dense layer's exchange after the MLP, the
    // dispatch is one exchange more (as the wafer's moe_dispatch / moe_combine hops).
    int moeLayers = 0;
    for (int l = 0; l < m.layers; ++l)
        moeLayers += m.isMoeLayer(l) ? 1 : 0;
    t.exchanges = layers * e.exchangesPerLayer + moeLayers;
    return t;
}

} // namespace

int lpuChipsNeeded(const ModelConfig& m, const LpuSpec& l, Precision p, int64_t context, int concurrency,
                   const LpuEfficiency& e)
{
    const ModelShape shape(m);
    const double need = double(shape.totalBytes(p)) +
                        std::max(1, concurrency) * double(shape.kvBytes(std::max<int64_t>(1, context), kvBytesFor(p)));
    const double per = e.sramUsableFraction * double(l.sramBytesPerChip);
    return per > 0 ? int(std::ceil(need / per)) : 0;
}

namespace {
// The chip count Groq deploys and the chip-to-chip cost, one at a time, and the ceiling: one token's layers
// stream from the SRAM of every chip in turn (chips x SRAM bandwidth) and compute at their peak.
void addLpuRangeDrivers(Prediction& p, const ModelConfig& model, const LpuSpec& l, const Workload& w,
                        const LpuCalibration& cal, double specFactor)
{
    const int stages = std::max(1, model.layers);
    const double perStage = std::ceil(double(p.concurrency) / stages);
    auto tps = [&](int chips, const LpuEfficiency& e) {
        return 1.0 / (lpuTerms(model, l, w.precision, chips, perStage, w.contextTokens, p.concurrency, e).seconds(e) *
                      specFactor);
    };
    const LpuEfficiency& e = cal.efficiency;
    const double point = tps(p.devices, e);
    if (p.devicesChosen) {
        // Groq's Llama-2-70B system: 576 chips (facts §1.2) against the ~340 its 8-bit weights need here.
        const int high = int(std::ceil(p.devices * 1.7));
        p.rangeDrivers.push_back(rangeDriver("chips", "chips", p.devices, p.devices, high,
                                             "[derived] the vendor deploys more chips than the SRAM minimum: 576 "
                                             "for Llama-2-70B (HN, SemiWiki; facts §1.2) = 1.7x the 8-bit minimum",
                                             point, point, tps(high, e)));
    }
    LpuEfficiency lo = e;
    LpuEfficiency hi = e;
    lo.exchangeS = cal.exchangeSLow;
    hi.exchangeS = cal.exchangeSHigh;
    p.rangeDrivers.push_back(
        rangeDriver("chip_to_chip_s", "s per exchange", e.exchangeS, lo.exchangeS, hi.exchangeS,
                    "the cost each row of " + cal.profile.id + " implies alone (" + cal.profile.source + ")", point,
                    tps(p.devices, lo), tps(p.devices, hi)));
    const ModelShape shape(model);
    Ceiling& c = p.ceiling;
    const int verified = w.speculative.enabled ? w.speculative.tokensPerStep + 1 : 1;
    c.peakBytesPerS = p.devices * l.sramBandwidthBytesPerS;
    c.peakFlopsPerS = p.devices * peakOps(l, w.precision);
    c.bytesPerStep = double(shape.bytesReadPerToken(w.precision)) +
                     double(shape.kvBytes(std::max<int64_t>(1, w.contextTokens), kvBytesFor(w.precision)));
    c.flopsPerStep = 2.0 * double(shape.activeParameters()) * perStage * verified;
    c.tokensPerStep = w.speculative.enabled ? w.speculative.expectedTokensPerStep() : 1.0;
    finishRange(p);
}
} // namespace

static Expected<LpuCalibration> fitLpuProfileUnguarded(const std::string& jsonText, const LpuEfficiency& defaults)
{
    const nlohmann::json j = nlohmann::json::parse(jsonText, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return makeError(ErrorCode::Format, "measurement file is not a JSON object");
    if (j.value("kind", std::string()) != "lpu")
        return makeError(ErrorCode::Format, "expected kind \"lpu\"", "kind");
    LpuCalibration c;
    c.efficiency = defaults;
    c.profile.id = j.value("id", std::string());
    c.profile.kind = "lpu";
    c.profile.source = j.value("source", std::string());
    c.profile.description = j.value("description", std::string());
    if (c.profile.id.empty() || c.profile.source.empty())
        return makeError(ErrorCode::Format, "a measurement set needs an id and a source", "id");
    if (!j.contains("rows") || !j["rows"].is_array() || j["rows"].empty())
        return makeError(ErrorCode::Format, "missing rows", "rows");
    struct Row
    {
        CalibrationRow report;
        LpuTerms terms;
        double observedS = 0;
    };
    std::vector<Row> rows;
    for (size_t i = 0; i < j["rows"].size(); ++i) {
        const auto& r = j["rows"][i];
        const std::string where = "rows[" + std::to_string(i) + "].";
        Row row;
        try {
            const ModelConfig* m = shippedModel(r.at("model").get<std::string>());
            const HardwareSpec* hw = shippedHardware(r.at("hardware").get<std::string>());
            if (!m)
                return makeError(ErrorCode::NotFound, "unknown model preset", where + "model");
            if (!hw || hw->kind != HardwareKind::Lpu)
                return makeError(ErrorCode::NotFound, "unknown LPU preset", where + "hardware");
            auto p = parsePrecision(r.value("precision", std::string("fp8")));
            if (!p)
                return makeError(ErrorCode::Format, "unknown precision", where + "precision");
            const int64_t context = r.value("context", int64_t(4096));
            const int users = r.value("concurrency", 1);
            const int chips = r.contains("chips") ? r.at("chips").get<int>()
                                                  : lpuChipsNeeded(*m, hw->lpu, *p, context, users, defaults);
            if (chips <= 0 || context <= 0 || users <= 0)
                return makeError(ErrorCode::Format, "chips, context and concurrency must be positive", where);
            row.terms = lpuTerms(*m, hw->lpu, *p, chips, 1, context, users, defaults);
            row.report.label = r.value("label", std::string());
            row.report.metric = "tokens_per_second_per_user";
            row.report.observed = r.at("tokens_per_second_per_user").get<double>();
            row.report.note = r.value("assumption", std::string());
            if (!(row.report.observed > 0) || !std::isfinite(row.report.observed))
                return makeError(ErrorCode::Format, "speed must be positive", where + "tokens_per_second_per_user");
            row.observedS = 1.0 / row.report.observed;
        } catch (const nlohmann::json::exception& ex) {
            return makeError(ErrorCode::Format, std::string("missing or wrong field: ") + ex.what(), where);
        }
        if (row.observedS <= row.terms.local)
            return makeError(ErrorCode::OutOfRange, "row is faster than SRAM streaming allows", where);
        rows.push_back(row);
    }
    std::vector<std::vector<double>> x;
    std::vector<double> y;
    for (const Row& r : rows) {
        x.push_back({r.terms.exchanges});
        y.push_back(r.observedS - r.terms.local);
    }
    auto fit = fitLeastSquares(x, y);
    if (!fit)
        return fit.error();
    c.efficiency.exchangeS = fit->coefficients[0];
    c.exchangeSLow = c.exchangeSHigh = c.efficiency.exchangeS;
    for (const Row& r : rows) {
        const double alone = (r.observedS - r.terms.local) / std::max(1.0, r.terms.exchanges);
        c.exchangeSLow = std::min(c.exchangeSLow, alone);
        c.exchangeSHigh = std::max(c.exchangeSHigh, alone);
    }
    double sumSq = 0;
    for (const Row& r : rows) {
        CalibrationRow out = r.report;
        out.predicted = 1.0 / r.terms.seconds(c.efficiency);
        out.relativeResidual = (out.predicted - out.observed) / out.observed;
        sumSq += out.relativeResidual * out.relativeResidual;
        c.profile.maxAbsRelativeResidual = std::max(c.profile.maxAbsRelativeResidual, std::abs(out.relativeResidual));
        c.profile.rows.push_back(out);
    }
    c.profile.rmsRelativeResidual = std::sqrt(sumSq / double(rows.size()));
    c.profile.constants = {
        {"exchangeS", "t_c2c", "s", c.efficiency.exchangeS, true, "fitted: " + c.profile.id,
         "Cost of one chip-to-chip exchange of a layer's activations (ISCA22: < 3 us end-to-end network latency; the "
         "fit also absorbs synchronisation and per-layer overheads)."},
        {"exchangesPerLayer", "n_c2c", "", c.efficiency.exchangesPerLayer, false,
         "assumption: two exchanges per layer, as tensor-parallel all-reduces after attention and MLP (facts §5 [N5]); "
         "a mixture-of-experts layer one more, the dispatch to its experts' chips",
         "Chip-to-chip exchanges per layer."},
        {"sramUsableFraction", "phi_sram", "", c.efficiency.sramUsableFraction, false,
         "assumption: code, activations and buffers take the rest",
         "Fraction of a chip's SRAM that holds weights and KV."},
    };
    return c;
}

const Expected<LpuCalibration>& shippedLpuCalibration()
{
    static const Expected<LpuCalibration> c = fitLpuProfile(std::string(embeddedMeasurement("groq-llama2-70b.json")));
    return c;
}

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
    const int needed = lpuChipsNeeded(model, l, w.precision, w.contextTokens, 1, e);
    if (needed <= 0)
        return makeError(ErrorCode::OutOfRange, "LPU preset has no SRAM", "hardware");
    auto started = startPrediction(model, hw, cal->profile.id, w, needed, o.devices, "chips",
                                   "using the fewest chips whose SRAM holds the model");
    if (!started)
        return started.error();
    Prediction p = std::move(started.value());
    const int chips = p.devices;

    const ModelShape shape(model);
    const double free =
        e.sramUsableFraction * double(l.sramBytesPerChip) * chips - double(shape.totalBytes(w.precision));
    const double perRequest = double(shape.kvBytes(std::max<int64_t>(1, w.contextTokens), kvBytesFor(w.precision)));
    p.maxConcurrency = perRequest > 0 ? int(std::clamp(free / perRequest, 0.0, double(1 << 20))) : 1;
    int concurrency = std::max(1, w.concurrency);
    if (concurrency > std::max(1, p.maxConcurrency)) {
        p.notes.push_back("SRAM holds the KV cache of " + std::to_string(p.maxConcurrency) +
                          " requests at this context; add chips for more");
        concurrency = std::max(1, p.maxConcurrency);
    }
    p.concurrency = concurrency;
    const int stages = std::max(1, model.layers);
    auto stepSeconds = [&](int users, double tokensPerRequest) {
        const double perStage = std::ceil(double(users) / stages) * tokensPerRequest;
        return lpuTerms(model, l, w.precision, chips, perStage, w.contextTokens, users, e).seconds(e);
    };
    const LpuTerms terms = lpuTerms(model, l, w.precision, chips, std::ceil(double(concurrency) / stages),
                                    w.contextTokens, concurrency, e);
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

    const double r = cal->profile.maxAbsRelativeResidual;
    // Prefill: the prompt flows through the layer pipeline as one batch.
    const LpuTerms pre = lpuTerms(model, l, w.precision, chips, double(std::max<int64_t>(1, w.promptTokens)),
                                  std::max<int64_t>(1, w.promptTokens / 2), 1, e);
    p.ttftSeconds = pre.seconds(e);
    p.ttftRange = {p.ttftSeconds * (1 - r), p.ttftSeconds * (1 + r)};
    for (int c : concurrencyLevels(w.concurrency)) {
        const int cc = std::clamp(c, 1, std::max(1, p.maxConcurrency));
        const double t = stepSeconds(cc, 1) * (seconds / terms.seconds(e));
        p.concurrencyCurve.push_back({c, 1.0 / t, cc / t});
    }
    addLpuRangeDrivers(p, model, l, w, *cal, seconds / terms.seconds(e));
    if (l.powerWatts > 0)
        p.powerWatts = l.powerWatts * chips;
    completeScenarios(p, w);
    return p;
}

Expected<LpuCalibration> fitLpuProfile(const std::string& jsonText, const LpuEfficiency& defaults)
{
    return guardedRead([&] { return fitLpuProfileUnguarded(jsonText, defaults); });
}

} // namespace ws
