#include "engine/perf/predictor.h"

#include "engine/perf/gpupredictor.h"
#include "engine/perf/lpupredictor.h"
#include "engine/perf/predictionutil.h"
#include "engine/perf/waferpredictor.h"

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
                             w.speculative.draftModel->id + " has " + std::to_string(w.speculative.draftModel->vocabSize) +
                             " tokens, " + m.id + " " + std::to_string(m.vocabSize),
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
        o.defectRate = options.waferDefectRate;
        o.defectSeed = options.waferDefectSeed;
        o.hopStretch = options.waferHopStretch;
        o.usableCols = options.waferUsableCols;
        o.usableRows = options.waferUsableRows;
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

Expected<Prediction> predict(const ModelConfig& model, const HardwareSpec& hardware, const Workload& workload,
                             const PredictOptions& options)
{
    auto p = predictByKind(model, hardware, workload, options);
    if (p)
        completeCost(*p, hardware);
    return p;
}

} // namespace ws
