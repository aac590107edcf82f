#include "engine/explore/accuracy.h"

#include "engine/calibration/gpucalibration.h"
#include "engine/calibration/measurementdata.h"
#include "engine/calibration/wafercalibration.h"
#include "engine/predict/gpupredictor.h"
#include "engine/predict/predictionutil.h"
#include "engine/predict/predictor.h"
#include "engine/predict/speculative.h"
#include "engine/predict/waferpredictor.h"
#include "engine/predict/waferprefill.h"

#include <algorithm>
#include <cmath>

namespace ws {

namespace {
double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
// WaferLLM's policy as its figures state it: every layer on its own P x P region (all at the application
// rectangle's corner of one wafer, so no hops between layers), timed one layer after another; the
// embedding and LM head stay where the placer puts them. Larger models were measured on a subset of
// layers and scaled, so one wafer holds them here as well.
Expected<Prediction> predictOnGrid(const ModelConfig& model, const HardwareSpec& hw, const Workload& w, int grid)
{
    auto setup = waferGridLayout(model, hw, w, grid);
    if (!setup)
        return setup.error();
    const ScheduleRegions& layout = setup->layout;
    WaferPredictOptions o;
    o.layout = &layout;
    auto p = predictWafer(model, hw, w, o);
    if (!p)
        return p;
    ScheduleOptions so;
    so.kv = o.kv;
    so.timingOnly = true;
    const double r = setup->calibrationResidual;
    // How far the kernel constants carry to a model they were not fitted on: refit without each measured
    // model in turn (WaferLLM measured two) and time this row with those constants.
    const auto& cal = shippedWaferCalibration();
    auto set = cal ? parseWaferKernelSet(std::string(embeddedMeasurement("waferllm-wse2-decode.json")))
                   : Expected<WaferKernelSet>(cal.error());
    if (set) {
        ScheduleOptions one = so;
        one.tokens = 1;
        one.context = w.contextTokens;
        double lo = p->tokensPerSecondPerUser;
        double hi = lo;
        std::vector<std::string> models;
        for (const WaferKernelMeasurement& row : set->rows)
            if (std::find(models.begin(), models.end(), row.model) == models.end())
                models.push_back(row.model);
        for (const std::string& left : models) {
            WaferKernelSet rest = *set;
            std::erase_if(rest.rows, [&](const WaferKernelMeasurement& m) { return m.model == left; });
            auto fit = fitWaferTiming(rest);
            if (!fit)
                continue;
            TimingParams q = fit->params;
            q.applyHardware(hw.wafer);
            q.kvBytesPerValue = setup->params.kvBytesPerValue;
            const double tps = q.clockHz / buildTokenSchedule(model, layout, TimingModel(q), one).totalCycles;
            lo = std::min(lo, tps);
            hi = std::max(hi, tps);
        }
        if (models.size() > 1)
            p->rangeDrivers.push_back(rangeDriver(
                "kernel_fit_models", "models left out", 0, 0, 1,
                "the kernel constants refitted without each model WaferLLM measured (" + std::to_string(models.size()) +
                    " in " + set->id + "): how far they carry to another model",
                p->tokensPerSecondPerUser, lo, hi));
        finishRange(*p);
    }
    // Every layer on the same cores: prompt chunks cannot pipeline through layer regions, so the prompt
    // crosses the layers one after another (one chunk of the whole prompt: the fewest reductions), at the
    // efficiency WaferLLM's measured prefill gives the model (engine/predict/waferprefill.h).
    const auto& pre = shippedWaferPrefill();
    if (!pre)
        return pre.error();
    const double clock = setup->params.clockHz;
    const double modelSeconds = pre->seconds(gridPrefillCycles(model, *setup, w.promptTokens), clock);
    p->ttftSeconds = modelSeconds;
    // How prefill time grows with the prompt is measured at one length only (4K, Table 3): the model's own
    // growth (its MACs and payloads, linear in the prompt) at one end; at the other MeshGEMM's N shift steps
    // of a constant two-hop latency each (WaferLLM §5 [WaferLLM], docs/sources.md), which do not grow with the prompt:
    // the time at the calibration's length.
    const double atCalibration = pre->seconds(gridPrefillCycles(model, *setup, pre->promptTokens), clock);
    const double worst = std::max(r, pre->worstResidual);
    p->ttftRange = {std::min(modelSeconds, atCalibration) * (1 - worst),
                    std::max(modelSeconds, atCalibration) * (1 + worst)};
    return p;
}
} // namespace

Expected<AccuracyRow> assessPoint(const MeasuredPoint& point)
{
    const ModelConfig* model = shippedModel(point.modelId);
    const HardwareSpec* hw = shippedHardware(point.hardwareId);
    if (!model || !hw)
        return makeError(ErrorCode::NotFound, "no preset for " + point.modelId + " on " + point.hardwareId, "model");
    Workload w;
    w.precision = point.precision ? *point.precision : model->nativePrecision;
    w.concurrency = point.concurrency;
    w.batchKnown = point.batchKnown;
    if (point.contextTokens > 0) {
        w.contextTokens = point.contextTokens;
    } else {
        // Decode over the answer: on average the prompt and half the output sit in the KV cache.
        w.contextTokens = point.promptTokens + point.outputTokens / 2;
    }
    if (point.promptTokens > 0)
        w.promptTokens = point.promptTokens;
    if (point.outputTokens > 0)
        w.outputTokens = point.outputTokens;
    if (point.speculative == Tristate::Yes) {
        // On in the point's configuration: what its source gives, else the sourced defaults.
        const SpeculativeDefaults d = speculativeDefaults(*hw);
        SpeculativeDecoding& s = w.speculative;
        s.enabled = true;
        s.tokensPerStep = point.draftTokens > 0 ? point.draftTokens : d.tokensPerStep;
        s.acceptanceRate = point.acceptanceRate > 0 ? point.acceptanceRate : d.acceptanceRate;
        const ModelConfig* draft = !point.draftModelId.empty() ? shippedModel(point.draftModelId) : nullptr;
        if (!draft && !(point.draftCostFraction > 0))
            draft = defaultDraftModel(*model, shippedModels());
        if (draft)
            s.draftModel = *draft;
        else if (point.draftCostFraction > 0)
            s.draftCostFraction = point.draftCostFraction;
    } else if (point.speculative == Tristate::Unknown) {
        w.speculativeUnknown = true;
    }
    PredictOptions o;
    o.devices = point.devices;
    const bool grid = hw->kind == HardwareKind::Wafer && point.decodeGrid > 0;
    // A calibration row is predicted with the profile it was fitted into (the batch-1 profile is not the
    // one a batched row of another stack belongs to).
    std::string gpuProfile;
    if (hw->kind == HardwareKind::Gpu && point.origin == MeasuredOrigin::Calibration)
        for (const GpuCalibration& c : shippedGpuCalibrations())
            if (c.profile.id == point.set)
                gpuProfile = c.profile.id;
    Expected<Prediction> p = makeError(ErrorCode::InvalidArgument, "not predicted");
    if (grid) {
        p = predictOnGrid(*model, *hw, w, point.decodeGrid);
    } else if (!gpuProfile.empty()) {
        GpuPredictOptions g;
        g.devices = point.devices;
        g.profile = gpuProfile;
        p = predictGpu(*model, *hw, w, g);
    } else {
        p = predict(*model, *hw, w, o);
    }
    if (!p)
        return p.error();
    if (grid && point.prefillGrid != point.decodeGrid) {
        auto pre = predictOnGrid(*model, *hw, w, point.prefillGrid);
        if (!pre)
            return pre.error();
        p->ttftSeconds = pre->ttftSeconds;
        p->ttftRange = pre->ttftRange;
    }
    AccuracyRow r;
    r.point = point;
    r.kind = hw->kind;
    const Range& speed = p->tokensPerSecondPerUserRange;
    if (point.metric == "aggregate_tokens_per_second") {
        r.predicted = p->aggregateTokensPerSecond;
        r.low = speed.low * p->concurrency;
        r.high = speed.high * p->concurrency;
    } else if (point.metric == "prefill_tokens_per_second") {
        const double prompt = double(point.promptTokens);
        r.predicted = prompt / p->ttftSeconds;
        r.low = prompt / std::max(p->ttftRange.high, p->ttftSeconds);
        r.high = prompt / (p->ttftRange.low > 0 ? std::min(p->ttftRange.low, p->ttftSeconds) : p->ttftSeconds);
    } else if (point.metric == "end_to_end_tokens_per_second_per_user") {
        const double out = double(point.outputTokens);
        auto e2e = [&](double ttft, double tps) { return tps > 0 ? out / (ttft + out / tps) : 0; };
        r.predicted = e2e(p->ttftSeconds, p->tokensPerSecondPerUser);
        r.low = e2e(std::max(p->ttftRange.high, p->ttftSeconds), speed.low);
        r.high = e2e(p->ttftRange.low > 0 ? std::min(p->ttftRange.low, p->ttftSeconds) : p->ttftSeconds, speed.high);
    } else {
        r.predicted = p->tokensPerSecondPerUser;
        r.low = speed.low;
        r.high = speed.high;
    }
    r.relativeError = (r.predicted - point.value) / point.value;
    r.inside = point.value >= r.low && point.value <= r.high;
    return r;
}

AccuracyStats summarize(const std::vector<AccuracyRow>& rows)
{
    AccuracyStats s;
    s.rows = int(rows.size());
    if (rows.empty())
        return s;
    std::vector<double> errors;
    std::vector<double> ratios;
    int inside = 0;
    for (const AccuracyRow& r : rows) {
        errors.push_back(std::abs(r.relativeError));
        ratios.push_back(r.low > 0 ? r.high / r.low : 0);
        inside += r.inside ? 1 : 0;
    }
    s.medianAbsError = median(errors);
    s.fractionInside = double(inside) / double(rows.size());
    s.medianRangeRatio = median(ratios);
    return s;
}

} // namespace ws
