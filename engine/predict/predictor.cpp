#include "engine/predict/predictor.h"

#include "engine/calibration/gpucalibration.h"
#include "engine/calibration/measurementdata.h"
#include "engine/calibration/stackprofile.h"
#include "engine/core/numbertext.h"
#include "engine/predict/gpupredictor.h"
#include "engine/predict/lpupredictor.h"
#include "engine/predict/predictionutil.h"
#include "engine/predict/speculative.h"
#include "engine/predict/stackkernel.h"
#include "engine/predict/waferpredictor.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace ws {

namespace {
Status validate(const ModelConfig& m, const Workload& w)
{
    if (m.layers <= 0 || m.hiddenSize <= 0 || m.headCount <= 0 || m.vocabSize <= 0)
        return makeError(ErrorCode::InvalidArgument, "the model has no layers, width, heads or vocabulary", "model");
    if (w.concurrency < 1)
        return makeError(ErrorCode::InvalidArgument, "concurrency must be at least 1", "batch");
    if (w.contextTokens < 1)
        return makeError(ErrorCode::InvalidArgument, "context must be at least 1 token", "context");
    if (w.promptTokens < 1 || w.outputTokens < 1)
        return makeError(ErrorCode::InvalidArgument, "prompt and output must be at least 1 token", "prompt-tokens");
    if (w.speculative.enabled &&
        (w.speculative.tokensPerStep < 1 || !(w.speculative.acceptanceRate >= 0 && w.speculative.acceptanceRate <= 1) ||
         !(w.speculative.draftCostFraction >= 0)))
        return makeError(ErrorCode::InvalidArgument,
                         "speculative decoding needs at least 1 draft token, an acceptance rate in [0, 1] and a "
                         "non-negative draft cost",
                         "speculative");
    if (w.speculative.enabled && w.speculative.draftModel && w.speculative.draftModel->vocabSize != m.vocabSize)
        return makeError(ErrorCode::InvalidArgument,
                         "the draft model must share the target's vocabulary (verification compares token ids): " +
                             w.speculative.draftModel->id + " has " +
                             std::to_string(w.speculative.draftModel->vocabSize) + " tokens, " + m.id + " " +
                             std::to_string(m.vocabSize),
                         "draft");
    if (!(w.tokensPerCharacterLow > 0) || w.tokensPerCharacterHigh < w.tokensPerCharacterLow)
        return makeError(ErrorCode::InvalidArgument, "tokens per character must be a positive range",
                         "tokens-per-character");
    return Ok{};
}
} // namespace

namespace {
// `kernelEnds` (wafers): the point's tokens per second at these kernel factors too, into `endsAt`.
Expected<Prediction> predictByKind(const ModelConfig& model, const HardwareSpec& hardware, const Workload& workload,
                                   const PredictOptions& options, double kernelFactor,
                                   const std::vector<double>& kernelEnds = {},
                                   std::vector<std::optional<double>>* endsAt = nullptr)
{
    if (auto ok = validate(model, workload); !ok)
        return ok.error();
    if (options.devices < 0)
        return makeError(ErrorCode::InvalidArgument, "device count must not be negative", "devices");
    switch (hardware.kind) {
    case HardwareKind::Wafer: {
        WaferPredictOptions o = options.wafer;
        o.devices = options.devices;
        o.kernelFactor = kernelFactor;
        auto at = predictWaferAt(model, hardware, workload, o, kernelEnds);
        if (!at)
            return at.error();
        if (endsAt)
            *endsAt = std::move(at->tokensPerSecondAt);
        return std::move(at->prediction);
    }
    case HardwareKind::Gpu: {
        GpuPredictOptions o;
        o.devices = options.devices;
        if (options.asOf) // the profile of a stack public by then
            if (const GpuCalibration* c =
                    gpuCalibrationFor(hardware.id, workload.concurrency, options.asOf, model.isMoe()))
                o.profile = c->profile.id;
        return predictGpu(model, hardware, workload, o);
    }
    case HardwareKind::Lpu: {
        LpuPredictOptions o;
        o.devices = options.devices;
        return predictLpu(model, hardware, workload, o);
    }
    }
    return makeError(ErrorCode::Unsupported, "unknown hardware kind", "hardware");
}
} // namespace

namespace {
// Speculative decoding's unknowns as range drivers, from the sourced defaults (engine/predict/speculative.h):
// with it on, the acceptance rate over the range its source measured; with it unknown where the vendor is
// known to use it, off at the point and on (defaults, the default draft) at the other end.
void addSpeculativeDrivers(Prediction& p, const ModelConfig& model, const HardwareSpec& hw, const Workload& w,
                           const PredictOptions& o, double kernelFactor)
{
    const SpeculativeDefaults d = speculativeDefaults(hw);
    const double point = p.tokensPerSecondPerUser;
    if (w.speculative.enabled) {
        constexpr double kLow = 0.5; // Leviathan et al. measure about 0.5-0.9 (the default's source)
        constexpr double kHigh = 0.9;
        double at[2] = {point, point};
        const double rates[2] = {kLow, kHigh};
        for (int i = 0; i < 2; ++i) {
            Workload q = w;
            q.speculative.acceptanceRate = rates[i];
            if (auto r = predictByKind(model, hw, q, o, kernelFactor))
                at[i] = r->tokensPerSecondPerUser;
        }
        p.rangeDrivers.push_back(rangeDriver("speculative_acceptance", "fraction", w.speculative.acceptanceRate, kLow,
                                             kHigh, d.acceptanceRateSource, point, at[0], at[1]));
    } else if (w.speculativeUnknown && d.vendorUses && !d.namedEndpoints) {
        Workload on = w;
        on.speculativeUnknown = false;
        on.speculative.enabled = true;
        on.speculative.tokensPerStep = d.tokensPerStep;
        on.speculative.acceptanceRate = d.acceptanceRate;
        const ModelConfig* draft = defaultDraftModel(model, shippedModels());
        if (draft)
            on.speculative.draftModel = *draft;
        auto r = predictByKind(model, hw, on, o, kernelFactor);
        if (!r)
            return;
        p.rangeDrivers.push_back(rangeDriver(
            "speculative_decoding", "off (0) / on (1)", 0, 0, 1,
            "unknown for this vendor and date: " + d.vendorSource + "; on: k = " + std::to_string(d.tokensPerStep) +
                ", acceptance " + toStringC(d.acceptanceRate).substr(0, 4) + ", draft " +
                (draft ? draft->id
                       : "at " + toStringC(on.speculative.draftCostFraction).substr(0, 4) + " of a target token"),
            point, point, r->tokensPerSecondPerUser));
        // The configuration is not known: the ceiling is the higher of the two.
        if (r->ceiling.tokensPerSecondPerUser > p.ceiling.tokensPerSecondPerUser)
            p.ceiling = r->ceiling;
        p.notes.push_back("speculative decoding: not known whether on; the range spans off to on");
    } else {
        return;
    }
    finishRange(p);
}
} // namespace

namespace {
// The stack's name, date and what it changed, in the prediction; on wafers the spread of its fitted kernel
// factor as a range driver, its ends' speeds `ends` (at kernel.low and kernel.high; null: no driver).
void addStack(Prediction& p, const StackProfile& stack, const StackKernel& kernel, const PredictOptions& o,
              const std::vector<std::optional<double>>* ends)
{
    p.stack = stack.id;
    p.stackName = stack.name;
    p.stackPublic = yearMonthText(stack.publicMonth);
    std::string note = "stack " + stack.id + " (" + stack.name + ", public " + p.stackPublic + ")";
    if (o.asOf && stack.publicMonth > *o.asOf)
        note += ": no stack of " + p.hardwareId + " was public by " + yearMonthText(*o.asOf) + "; its earliest";
    if (p.kind == HardwareKind::Wafer && kernel.factor != 1.0)
        note += "; kernel factor " + toStringC(kernel.factor).substr(0, 5) +
                " on the fitted cycles per MAC, all-reduce fixed cycles and routing stage cycles";
    p.notes.push_back(note + "; assumed: " + stack.assumed);
    if (p.kind != HardwareKind::Wafer || !(kernel.high > kernel.low) || !ends || ends->size() != 2)
        return;
    std::string rows;
    for (const StackKernelRow& r : kernel.rows)
        rows += (rows.empty() ? "" : "; ") + r.row + " -> " + toStringC(r.factor).substr(0, 5) +
                (r.atFloor ? " (at the SIMD limit)" : "");
    const std::optional<double>& low = (*ends)[0];
    const std::optional<double>& high = (*ends)[1];
    if (!low || !high)
        return;
    p.rangeDrivers.push_back(rangeDriver("stack_kernel_factor", "factor", kernel.factor, kernel.low, kernel.high,
                                         "stack " + stack.id + ", fitted per row: " + rows, p.tokensPerSecondPerUser,
                                         *low, *high));
    finishRange(p);
}
} // namespace

Expected<Prediction> predict(const ModelConfig& model, const HardwareSpec& hardware, const Workload& workload,
                             const PredictOptions& options)
{
    const StackProfile* stack = stackFor(hardware.id, options.asOf);
    if (const auto& all = shippedStackProfiles(); !all)
        return all.error();
    StackKernel kernel;
    Workload w = workload;
    if (stack) {
        if (hardware.kind == HardwareKind::Wafer) {
            const auto& k = stackKernel(*stack, options.wafer.placements);
            if (!k)
                return k.error();
            kernel = *k;
        }
        if (options.kernelFactor && hardware.kind == HardwareKind::Wafer)
            kernel = StackKernel{*options.kernelFactor, *options.kernelFactor, *options.kernelFactor, {}};
    }
    if (w.speculativeUnknown) // what the caller set stays
        if (const StackProfile* s = speculationStack(hardware, model, w.concurrency, options.asOf))
            applyStackSpeculation(w, *s, model, hardware);
    const bool ranges = !options.wafer.noRange && !options.wafer.pointOnly;
    // The stack driver's ends need only their speed, timed with the point on its placement (predictWaferAt).
    std::vector<double> kernelEnds;
    if (stack && ranges && hardware.kind == HardwareKind::Wafer && kernel.high > kernel.low)
        kernelEnds = {kernel.low, kernel.high};
    std::vector<std::optional<double>> endsAt;
    PredictOptions used = options;
    if (stack && ranges && stack->fitKernel && !options.kernelFactor && !kernel.rows.empty())
        used.wafer.kernelFactorAtClock = [stack, placements = options.wafer.placements](double clockHz) {
            const auto& k = stackKernelAt(*stack, clockHz, placements);
            return k ? std::optional<double>(k->factor) : std::nullopt;
        };
    auto p = predictByKind(model, hardware, w, used, kernel.factor, kernelEnds, &endsAt);
    if (p) {
        if (stack)
            addStack(*p, *stack, kernel, options, kernelEnds.empty() ? nullptr : &endsAt);
        else if (hardware.kind == HardwareKind::Gpu)
            if (const StackProfile* g = stackOfGpuProfile(p->profile))
                addStack(*p, *g, kernel, options, nullptr);
        if (ranges)
            addSpeculativeDrivers(*p, model, hardware, w, used, kernel.factor);
        completeScenarios(*p, w);
        completeCost(*p, hardware);
    }
    return p;
}

PredictOptions predictOptions(const ScenarioSpec& spec, PredictOptions options)
{
    options.devices = spec.devices;
    options.wafer.kv = spec.kv;
    options.wafer.hopStretch = spec.hopStretch;
    options.wafer.weightFill = spec.weightFill;
    options.wafer.experts = spec.experts;
    if (spec.layout && !options.wafer.placedLayout)
        options.wafer.placedLayout = &*spec.layout;
    options.wafer.defects = options.wafer.placedLayout ? DefectRequest{} : spec.defects;
    return options;
}

Expected<Prediction> predict(const ScenarioSpec& spec, PredictOptions options)
{
    return predict(spec.model, spec.hardware, spec.workload, predictOptions(spec, std::move(options)));
}

} // namespace ws
