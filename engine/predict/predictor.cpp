#include "engine/predict/predictor.h"

#include "engine/calibration/measurementdata.h"
#include "engine/core/numbertext.h"
#include "engine/predict/gpupredictor.h"
#include "engine/predict/lpupredictor.h"
#include "engine/predict/predictionutil.h"
#include "engine/predict/speculative.h"
#include "engine/predict/waferpredictor.h"

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
Expected<Prediction> predictByKind(const ModelConfig& model, const HardwareSpec& hardware, const Workload& workload,
                                   const PredictOptions& options)
{
    if (auto ok = validate(model, workload); !ok)
        return ok.error();
    if (options.devices < 0)
        return makeError(ErrorCode::InvalidArgument, "device count must not be negative", "devices");
    switch (hardware.kind) {
    case HardwareKind::Wafer: {
        WaferPredictOptions o;
        o.devices = options.devices;
        o.defects = options.waferDefects;
        o.kv = options.kv;
        o.placements = options.waferPlacements;
        o.placedLayout = options.waferLayout;
        return predictWafer(model, hardware, workload, o);
    }
    case HardwareKind::Gpu: {
        GpuPredictOptions o;
        o.devices = options.devices;
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
                           const PredictOptions& o)
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
            if (auto r = predictByKind(model, hw, q, o))
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
        auto r = predictByKind(model, hw, on, o);
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

Expected<Prediction> predict(const ModelConfig& model, const HardwareSpec& hardware, const Workload& workload,
                             const PredictOptions& options)
{
    auto p = predictByKind(model, hardware, workload, options);
    if (p) {
        addSpeculativeDrivers(*p, model, hardware, workload, options);
        completeScenarios(*p, workload);
        completeCost(*p, hardware);
    }
    return p;
}

} // namespace ws
