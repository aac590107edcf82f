#include "engine/calibration/lpumodel.h"

#include "engine/calibration/leastsquares.h"
#include "engine/calibration/measurementdata.h"
#include "engine/calibration/measurementjson.h"
#include "engine/model/modelshape.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace ws {

int lpuKvBytes(Precision p)
{
    return bitsPerParameter(p) <= 9 ? 1 : 2;
}

double lpuPeakOps(const LpuSpec& l, Precision p)
{
    return bitsPerParameter(p) <= 9 && l.int8Ops > 0 ? l.int8Ops : l.fp16Flops;
}

LpuModelFacts lpuModelFacts(const ModelShape& shape, Precision p, int64_t context)
{
    const ModelConfig& m = shape.config();
    LpuModelFacts f;
    f.layers = m.layers;
    for (int l = 0; l < m.layers; ++l)
        f.moeLayers += m.isMoeLayer(l) ? 1 : 0;
    f.bytesReadPerToken = shape.bytesReadPerToken(p);
    f.kvBytes = shape.kvBytes(std::max<int64_t>(1, context), lpuKvBytes(p));
    f.activeParameters = shape.activeParameters();
    f.mlaAttentionFlops = shape.mlaAttentionFlops(context);
    return f;
}

LpuTerms lpuTerms(const ModelConfig& m, const LpuSpec& l, Precision p, int chips, double tokensPerStage,
                  int64_t context, int concurrencyForKv, const LpuEfficiency& e)
{
    return lpuTerms(lpuModelFacts(ModelShape(m), p, context), l, p, chips, tokensPerStage, concurrencyForKv, e);
}

LpuTerms lpuTerms(const LpuModelFacts& m, const LpuSpec& l, Precision p, int chips, double tokensPerStage,
                  int concurrencyForKv, const LpuEfficiency& e)
{
    const double layers = std::max(1, m.layers);
    const double chipsPerLayer = double(chips) / layers; // fractional: a chip may hold several layers
    const double kv = double(m.kvBytes) * std::max(1, concurrencyForKv);
    const double bytesPerLayer = (double(m.bytesReadPerToken) + kv / std::max(1, concurrencyForKv)) / layers;
    const double flopsPerLayer = (2.0 * double(m.activeParameters) + m.mlaAttentionFlops) / layers * tokensPerStage;
    const double stream = bytesPerLayer / (chipsPerLayer * l.sramBandwidthBytesPerS);
    const double compute = flopsPerLayer / (chipsPerLayer * lpuPeakOps(l, p));
    LpuTerms t;
    t.local = layers * std::max(stream, compute);
    // A mixture-of-experts layer sends each token to the chips of its chosen experts before the MLP and
    // gathers the results after it: the gather stands in for a dense layer's exchange after the MLP, the
    // dispatch is one exchange more (as the wafer's moe_dispatch / moe_combine hops).
    t.exchanges = layers * e.exchangesPerLayer + m.moeLayers;
    return t;
}

int lpuChipsNeeded(const ModelConfig& m, const LpuSpec& l, Precision p, int64_t context, int concurrency,
                   const LpuEfficiency& e)
{
    const ModelShape shape(m);
    const double need = double(shape.totalBytes(p)) +
                        std::max(1, concurrency) * double(shape.kvBytes(std::max<int64_t>(1, context), lpuKvBytes(p)));
    const double per = e.sramUsableFraction * double(l.sramBytesPerChip);
    return per > 0 ? int(std::ceil(need / per)) : 0;
}

static Expected<LpuCalibration> fitLpuProfileUnguarded(const std::string& jsonText, const LpuEfficiency& defaults)
{
    const nlohmann::json j = nlohmann::json::parse(jsonText, nullptr, false);
    const auto header = readMeasurementHeader(j, "lpu");
    if (!header)
        return header.error();
    LpuCalibration c;
    c.efficiency = defaults;
    c.profile.id = header->id;
    c.profile.kind = "lpu";
    c.profile.source = header->source;
    c.profile.description = header->description;
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
        if (Status ok = integerFieldsFit(r, where); !ok)
            return ok.error();
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
            if (context > kMaxMeasuredContext)
                return makeError(ErrorCode::Format, "context must be at most 2^30 tokens", where + "context");
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
         "Cost of one chip-to-chip exchange of a layer's activations (Groq, ISCA 2022 [Groq-ISCA22]: < 3 us end-to-end "
         "network latency; the fit also absorbs synchronisation and per-layer overheads)."},
        {"exchangesPerLayer", "n_c2c", "", c.efficiency.exchangesPerLayer, false,
         "assumption: two exchanges per layer, as tensor-parallel all-reduces after attention and MLP (Megatron-LM "
         "tensor parallelism [Megatron-TP], docs/sources.md); a mixture-of-experts layer one more, the dispatch to "
         "its experts' chips",
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

Expected<LpuCalibration> fitLpuProfile(const std::string& jsonText, const LpuEfficiency& defaults)
{
    return guardedRead([&] { return fitLpuProfileUnguarded(jsonText, defaults); });
}

} // namespace ws
