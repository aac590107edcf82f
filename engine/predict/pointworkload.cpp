#include "engine/predict/pointworkload.h"

#include "engine/calibration/measurementdata.h"
#include "engine/predict/speculative.h"

namespace ws {

Expected<Workload> workloadForPoint(const MeasuredPoint& point, const ModelConfig& model, const HardwareSpec& hw)
{
    Workload w;
    w.precision = point.precision ? *point.precision : model.nativePrecision;
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
        const SpeculativeDefaults d = speculativeDefaults(hw);
        SpeculativeDecoding& s = w.speculative;
        s.enabled = true;
        s.tokensPerStep = point.draftTokens > 0 ? point.draftTokens : d.tokensPerStep;
        s.acceptanceRate = point.acceptanceRate > 0 ? point.acceptanceRate : d.acceptanceRate;
        const ModelConfig* draft = !point.draftModelId.empty() ? shippedModel(point.draftModelId) : nullptr;
        if (!draft && !(point.draftCostFraction > 0))
            draft = defaultDraftModel(model, shippedModels());
        if (!point.draftModelId.empty() && !draft)
            return makeError(ErrorCode::NotFound, "no preset for draft model " + point.draftModelId + " yet", "draft");
        if (draft)
            s.draftModel = *draft;
        else if (point.draftCostFraction > 0)
            s.draftCostFraction = point.draftCostFraction;
    } else if (point.speculative == Tristate::Unknown) {
        w.speculativeUnknown = true;
    }
    return w;
}

} // namespace ws
