#include "engine/explore/accuracy.h"

#include "engine/calibration/gpucalibration.h"
#include "engine/calibration/lpumodel.h"
#include "engine/calibration/measurementdata.h"
#include "engine/calibration/stackprofile.h"
#include "engine/calibration/wafercalibration.h"
#include "engine/predict/gpupredictor.h"
#include "engine/predict/pointworkload.h"
#include "engine/predict/predictor.h"
#include "engine/predict/speculative.h"
#include "engine/predict/stackkernel.h"
#include "engine/predict/waferprefill.h"
#include "engine/wafer/mesh/meshengine.h"
#include "engine/wafer/placement/placer.h"

#include <algorithm>
#include <cmath>
#include <limits>

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
} // namespace

namespace {
Expected<AccuracyRow> predictPoint(const MeasuredPoint& point)
{
    const ModelConfig* model = shippedModel(point.modelId);
    const HardwareSpec* hw = shippedHardware(point.hardwareId);
    if (!model || !hw)
        return makeError(ErrorCode::NotFound,
                         std::string("no preset for ") + (model ? "" : "model " + point.modelId) +
                             (!model && !hw ? " and " : "") + (hw ? "" : "hardware " + point.hardwareId) + " yet",
                         "model");
    auto work = workloadForPoint(point, *model, *hw);
    if (!work)
        return work.error();
    Workload& w = *work;
    // The stacks public in the row's publication month (an undated row: the latest), with the stack's draft
    // where the row says speculative decoding ran and names none.
    const std::optional<YearMonth> asOf = parseYearMonth(point.date);
    if (const StackProfile* stack = speculationStack(*hw, *model, w.concurrency, asOf))
        applyStackSpeculation(w, *stack, *model, *hw, !point.draftModelId.empty() || point.draftCostFraction > 0);
    // A calibration row is predicted with the profile it was fitted into (the batch-1 profile is not the
    // one a batched row of another stack belongs to), as the comparison's GPU profile choice predicts it.
    std::string gpuProfile;
    if (hw->kind == HardwareKind::Gpu && point.origin == MeasuredOrigin::Calibration)
        for (const GpuCalibration& c : shippedGpuCalibrations())
            if (c.profile.id == point.set)
                gpuProfile = c.profile.id;
    Expected<Prediction> p = makeError(ErrorCode::InvalidArgument, "not predicted");
    if (!gpuProfile.empty()) {
        GpuPredictOptions g;
        g.devices = point.devices;
        g.profile = gpuProfile;
        p = predictGpu(*model, *hw, w, g);
    } else {
        PredictOptions o;
        o.devices = point.devices;
        o.asOf = asOf;
        p = predict(*model, *hw, w, o);
    }
    if (!p)
        return p.error();
    AccuracyRow r;
    r.point = point;
    r.kind = hw->kind;
    r.stack = p->stack;
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

Expected<AccuracyRow> timePointOnMeshEngine(const MeasuredPoint& point)
{
    if (point.decodeGrid <= 0 || point.metric != "tokens_per_second_per_user" || point.promptTokens > 0)
        return makeError(ErrorCode::Unsupported,
                         "the mesh engine times decode rows on a stated P x P grid only (WaferLLM's kernel rows)",
                         "grid");
    const ModelConfig* model = shippedModel(point.modelId);
    const HardwareSpec* hw = shippedHardware(point.hardwareId);
    if (!model || !hw)
        return makeError(ErrorCode::NotFound,
                         "no preset for " + (model ? "hardware " + point.hardwareId : "model " + point.modelId),
                         "model");
    if (model->isMoe())
        return makeError(ErrorCode::Unsupported, "the mesh engine runs dense models only", "model");
    ModelConfig layers = *model;
    layers.layers = std::min(2, model->layers);
    layers.vocabSize = 1; // the kernel runs no vocabulary table: a one-row table keeps the placer's shape
    PlacementOptions o;
    o.strategy = PlacementStrategy::TensorParallel;
    o.precision = point.precision.value_or(Precision::Bf16);
    o.contextTokens = std::max<int64_t>(1, point.contextTokens);
    o.usableCols = o.usableRows = point.decodeGrid;
    const Expected<Placement> placed = placeModel(layers, hw->wafer, o);
    if (!placed)
        return placed.error();
    MeshOptions m;
    m.context = o.contextTokens;
    m.layer = 0;
    const Expected<MeshRun> run = executeMeshToken(*placed, layers, MeshParams::fromHardware(hw->wafer), m);
    if (!run)
        return run.error();
    if (!(run->totalCycles > 0))
        return makeError(ErrorCode::InvalidArgument, "the engine's layer took no cycles", "model");
    AccuracyRow r;
    r.point = point;
    r.kind = hw->kind;
    r.predicted = r.low = r.high = run->clockHz / (run->totalCycles * model->layers);
    r.relativeError = (r.predicted - point.value) / point.value;
    r.inside = r.predicted == point.value;
    return r;
}

HardwareKind kindOf(const MeasuredPoint& p)
{
    return p.deviceKind == "wafer" ? HardwareKind::Wafer
           : p.deviceKind == "lpu" ? HardwareKind::Lpu
                                   : HardwareKind::Gpu;
}

AccuracyRow rowOrMiss(const MeasuredPoint& point, Expected<AccuracyRow> r)
{
    if (r)
        return *r;
    AccuracyRow miss;
    miss.point = point;
    miss.kind = kindOf(point);
    miss.miss = true;
    miss.why = r.error().text;
    miss.missCode = r.error().code;
    miss.relativeError = -1;
    return miss;
}
} // namespace

AccuracyRow assessPoint(const MeasuredPoint& point)
{
    return rowOrMiss(point, predictPoint(point));
}

AccuracyRow assessPointOnMeshEngine(const MeasuredPoint& point)
{
    return rowOrMiss(point, timePointOnMeshEngine(point));
}

AccuracyStats summarize(const std::vector<AccuracyRow>& rows)
{
    AccuracyStats s;
    s.rows = int(rows.size());
    if (rows.empty())
        return s;
    std::vector<double> errors;
    std::vector<double> ratios;
    for (const AccuracyRow& r : rows) {
        if (r.miss) {
            errors.push_back(1.0);
            ratios.push_back(std::numeric_limits<double>::infinity());
            continue;
        }
        ++s.predicted;
        errors.push_back(std::abs(r.relativeError));
        ratios.push_back(r.low > 0 ? r.high / r.low : std::numeric_limits<double>::infinity());
        s.inside += r.inside ? 1 : 0;
    }
    s.medianAbsError = median(errors);
    s.fractionInside = double(s.inside) / double(rows.size());
    s.medianRangeRatio = median(ratios);
    return s;
}

std::vector<Error> shippedDataErrors()
{
    std::vector<Error> out = shippedPresetErrors();
    if (const auto& points = shippedMeasuredPoints(); !points)
        out.push_back(points.error());
    for (const Error& e : shippedGpuCalibrationErrors())
        out.push_back(e);
    if (const auto& lpu = shippedLpuCalibration(); !lpu)
        out.push_back(lpu.error());
    if (const auto& wafer = shippedWaferCalibration(); !wafer)
        out.push_back(wafer.error());
    if (const auto& prefill = shippedWaferPrefill(); !prefill)
        out.push_back(prefill.error());
    if (const auto& stacks = shippedStackProfiles(); !stacks)
        out.push_back(stacks.error());
    else
        for (const StackProfile& s : *stacks)
            if (const auto& k = stackKernel(s); !k)
                out.push_back(k.error());
    return out;
}

std::vector<AccuracyGroup> accuracyTable(const std::vector<AccuracyRow>& rows)
{
    const char* const groups[] = {"calibration", "development", "check"};
    const char* const kinds[] = {"wafer", "gpu", "lpu", "all"};
    std::vector<AccuracyGroup> out;
    for (const char* group : groups) {
        const std::string g = group;
        for (const char* kind : kinds) {
            std::vector<AccuracyRow> in;
            for (const AccuracyRow& r : rows) {
                if (g == measuredRoleId(r.point.role) &&
                    (std::string(kind) == "all" || kind == std::string(hardwareKindId(r.kind))))
                    in.push_back(r);
            }
            out.push_back({g, kind, summarize(in)});
        }
    }
    return out;
}

} // namespace ws
