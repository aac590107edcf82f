#include "engine/predict/waferprefill.h"

#include "engine/calibration/leastsquares.h"
#include "engine/calibration/measurementdata.h"
#include "engine/calibration/measurementjson.h"
#include "engine/core/numbertext.h"
#include "engine/predict/waferpredictor.h"
#include "engine/wafer/dataflow/schedule.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace ws {

Expected<GridLayout> waferGridLayout(const ModelConfig& model, const HardwareSpec& hw, const Workload& w, int grid,
                                     PlacementCache* placements)
{
    if (grid <= 0)
        return makeError(ErrorCode::InvalidArgument, "a grid side must be positive", "grid");
    auto setup = prepareWafer(model, hw, w, WaferPredictOptions{.placements = placements});
    if (!setup)
        return setup.error();
    GridLayout g;
    g.layout = setup->layout;
    g.params = setup->params;
    g.calibrationResidual = setup->calibrationResidual;
    const CoreRect rect{hw.wafer.reservedLeftCols, hw.wafer.reservedTopRows, grid, grid};
    for (RegionRef& r : g.layout.layers)
        r = {0, rect};
    g.layout.embedding.device = 0;
    g.layout.lmHead.device = 0;
    g.layout.expertRegions.clear();
    g.layout.deviceCount = 1;
    return g;
}

PrefillCycles gridPrefillCycles(const ModelConfig& model, const GridLayout& g, int64_t prompt)
{
    ScheduleOptions so;
    so.tokens = int(std::max<int64_t>(1, prompt));
    so.context = std::max<int64_t>(1, prompt / 2);
    so.timingOnly = true;
    const TokenSchedule s = buildTokenSchedule(model, g.layout, TimingModel(g.params), so);
    return {s.totalCycles, s.computeCycles, s.totalCycles};
}

namespace {
// WSE-2's FP16 SIMD width, the hardware the shipped kernel constants were measured on [NextPlatform-WSE3].
constexpr double kCalibrationMacsPerCycle = 4.0;

// Prompt in chunks of c tokens, pipelined through the layer regions (the schedule's prefill, schedule.h): the first
// chunk crosses every stage, each further chunk adds the slowest stage.
PrefillCycles prefillCycles(const ModelConfig& m, const ScheduleRegions& layout, const TimingParams& p, int64_t prompt,
                            KvPlacement kv, double simdRatio)
{
    PrefillCycles best;
    for (int64_t c : {prompt, kPrefillChunkTokens}) {
        if (c > prompt || c <= 0)
            continue;
        const TokenSchedule s = buildTokenSchedule(m, layout, TimingModel(p), prefillOptions(prompt, c, kv, true));
        // The slowest stage is mostly local compute at prefill sizes: scale the pipeline's extra with the compute
        // share of one pass.
        const double extra = s.totalCycles - s.passCycles;
        const double share = s.passCycles > 0 ? s.computeCycles / s.passCycles : 0;
        const double t = s.totalCycles;
        const double simdTotal = s.passCycles - s.computeCycles * (1 - simdRatio);
        const double simd = simdTotal + extra * (1 - share * (1 - simdRatio));
        if (best.cycles == 0 || t < best.cycles) {
            best.cycles = t;
            best.computeCycles = s.computeCycles + extra * share;
            best.chunkTokens = c;
        }
        if (best.simdCycles == 0 || simd < best.simdCycles)
            best.simdCycles = simd;
    }
    return best;
}
Expected<WaferPrefillCalibration> fitUnguarded(const std::string& text)
{
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    const auto header = readMeasurementHeader(j, "wafer-prefill");
    if (!header)
        return header.error();
    WaferPrefillCalibration c;
    c.profile = header->id;
    c.source = header->source;
    c.hardwareId = j.value("hardware", std::string());
    const HardwareSpec* hw = shippedHardware(c.hardwareId);
    if (!hw || hw->kind != HardwareKind::Wafer)
        return makeError(ErrorCode::NotFound, "unknown wafer preset '" + c.hardwareId + "'", "hardware");
    std::vector<std::vector<double>> x;
    std::vector<double> y;
    PlacementCache placements; // rows of one model at other grids share its placement
    for (size_t i = 0; i < j["rows"].size(); ++i) {
        const auto& r = j["rows"][i];
        const std::string where = "rows[" + std::to_string(i) + "].";
        WaferPrefillRow row;
        row.modelId = r.value("preset", std::string());
        row.grid = r.value("grid", 0);
        row.promptTokens = r.value("prompt", int64_t(0));
        row.measuredTokensPerSecond = r.value("prefill_tokens_per_second", 0.0);
        const ModelConfig* model = shippedModel(row.modelId);
        if (!model)
            return makeError(ErrorCode::NotFound, "unknown model preset '" + row.modelId + "'", where + "preset");
        if (row.grid <= 0 || row.promptTokens <= 0 || !(row.measuredTokensPerSecond > 0))
            return makeError(ErrorCode::Format, "a row needs a grid, a prompt and a positive prefill speed", where);
        if (c.promptTokens != 0 && c.promptTokens != row.promptTokens)
            return makeError(ErrorCode::Format, "every row must share one prompt length", where + "prompt");
        c.promptTokens = row.promptTokens;
        Workload w;
        w.precision = Precision::Bf16; // WaferLLM measures 16-bit
        w.contextTokens = row.promptTokens;
        w.promptTokens = row.promptTokens;
        auto g = waferGridLayout(*model, *hw, w, row.grid, &placements);
        if (!g)
            return g.error();
        const PrefillCycles cycles = gridPrefillCycles(*model, *g, row.promptTokens);
        row.modelComputeSeconds = cycles.computeCycles / g->params.clockHz;
        row.modelOtherSeconds = (cycles.cycles - cycles.computeCycles) / g->params.clockHz;
        if (!(row.modelComputeSeconds + row.modelOtherSeconds > 0))
            return makeError(ErrorCode::OutOfRange, "the model gives no prefill time", where);
        x.push_back({row.modelComputeSeconds, row.modelOtherSeconds});
        y.push_back(double(row.promptTokens) / row.measuredTokensPerSecond);
        c.rows.push_back(row);
    }
    auto fit = c.rows.size() >= 2 ? fitLeastSquares(x, y)
                                  : Expected<LeastSquaresFit>(makeError(ErrorCode::OutOfRange, "one row"));
    if (fit && fit->coefficients[0] > 0 && fit->coefficients[1] > 0) {
        c.computeFactor = fit->coefficients[0];
        c.otherFactor = fit->coefficients[1];
    } else {
        std::vector<std::vector<double>> whole;
        for (const auto& v : x)
            whole.push_back({v[0] + v[1]});
        auto one = fitLeastSquares(whole, y);
        if (!one)
            return one.error();
        c.computeFactor = c.otherFactor = one->coefficients[0];
    }
    for (size_t i = 0; i < c.rows.size(); ++i) {
        WaferPrefillRow& r = c.rows[i];
        r.fittedSeconds = c.computeFactor * r.modelComputeSeconds + c.otherFactor * r.modelOtherSeconds;
        c.worstResidual = std::max(c.worstResidual, std::abs(r.fittedSeconds - y[i]) / y[i]);
    }
    return c;
}
} // namespace

ScheduleOptions prefillOptions(int64_t promptTokens, int64_t chunkTokens, KvPlacement kv, bool timingOnly)
{
    const int64_t prompt = std::max<int64_t>(1, promptTokens);
    ScheduleOptions o;
    o.tokens = int(std::clamp<int64_t>(chunkTokens, 1, prompt));
    o.promptTokens = prompt;
    o.context = std::max<int64_t>(1, prompt / 2);
    o.kv = kv;
    o.timingOnly = timingOnly;
    return o;
}

double waferSimdRatio(const HardwareSpec& hw)
{
    return hw.wafer.macsPerCyclePerCore > 0 ? kCalibrationMacsPerCycle / hw.wafer.macsPerCyclePerCore : 1.0;
}

Expected<WaferPrefillCalibration> fitWaferPrefill(const std::string& jsonText)
{
    return guardedRead([&] { return fitUnguarded(jsonText); });
}

const Expected<WaferPrefillCalibration>& shippedWaferPrefill()
{
    static const Expected<WaferPrefillCalibration> c = []() -> Expected<WaferPrefillCalibration> {
        const std::string_view text = embeddedMeasurement("waferllm-wse2-prefill.json");
        if (text.empty())
            return makeError(ErrorCode::NotFound, "shipped measurements missing", "waferllm-wse2-prefill.json");
        return fitWaferPrefill(std::string(text));
    }();
    return c;
}

WaferTtft waferTtft(const ModelConfig& model, const ScheduleRegions& layout, const TimingParams& params, int64_t prompt,
                    KvPlacement kv, double simdRatio, double residual)
{
    const PrefillCycles pre = prefillCycles(model, layout, params, std::max<int64_t>(1, prompt), kv, simdRatio);
    const auto& prefill = shippedWaferPrefill();
    WaferTtft t;
    t.chunkTokens = pre.chunkTokens;
    t.cycles = pre.cycles;
    if (!prefill) {
        t.seconds = pre.cycles / params.clockHz;
        const double alt = pre.simdCycles / params.clockHz;
        t.range = {std::min(t.seconds, alt) * (1.0 - residual), std::max(t.seconds, alt) * (1.0 + residual)};
        return t;
    }
    t.seconds = prefill->seconds(pre, params.clockHz);
    PrefillCycles simd = pre;
    simd.cycles = pre.simdCycles;
    simd.computeCycles = std::max(0.0, pre.computeCycles - (pre.cycles - pre.simdCycles));
    const double alt = prefill->seconds(simd, params.clockHz);
    const double r = std::max(residual, prefill->worstResidual);
    t.range = {std::min(t.seconds, alt) * (1.0 - r), std::max(t.seconds, alt) * (1.0 + r)};
    t.note = "prefill: the timing model's compute x " + toStringC(prefill->computeFactor).substr(0, 4) +
             " and the rest x " + toStringC(prefill->otherFactor).substr(0, 4) +
             ", fitted on WaferLLM's measured prefill (" + prefill->profile + ")";
    t.source = prefill->source;
    return t;
}

} // namespace ws
