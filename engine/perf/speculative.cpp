#include "engine/perf/speculative.h"

#include "engine/model/modelshape.h"

#include <algorithm>

namespace ws {

namespace {
// Draft length and acceptance rate: no vendor publishes either for its service, so every system starts from
// the same values, cited to where they were measured.
constexpr int kDraftTokens = 4;
constexpr double kAcceptance = 0.7;
const char* const kDraftTokensSource =
    "Chen et al., 'Accelerating Large Language Model Decoding with Speculative Sampling' (DeepMind, "
    "arXiv:2302.01318, 2023): K = 4 draft tokens for Chinchilla 70B; no vendor publishes its draft length";
const char* const kAcceptanceSource =
    "assumed 0.7: Leviathan et al., 'Fast Inference from Transformers via Speculative Decoding' (ICML 2023, "
    "arXiv:2211.17192) measure acceptance rates between about 0.5 and 0.9 for their draft/target pairs; none is "
    "published for these models or services";

std::string family(const std::string& architecture)
{
    // Families whose presets share one tokenizer per vocabulary size (qwen3moe drafts with qwen3).
    if (architecture.rfind("qwen3", 0) == 0)
        return "qwen3";
    return architecture;
}
size_t commonPrefix(const std::string& a, const std::string& b)
{
    size_t n = 0;
    while (n < a.size() && n < b.size() && a[n] == b[n])
        ++n;
    return n;
}
} // namespace

SpeculativeDefaults speculativeDefaults(const HardwareSpec& hw)
{
    SpeculativeDefaults d;
    d.tokensPerStep = kDraftTokens;
    d.tokensPerStepSource = kDraftTokensSource;
    d.acceptanceRate = kAcceptance;
    d.acceptanceRateSource = kAcceptanceSource;
    if (hw.kind == HardwareKind::Wafer && hw.id == "wse3") {
        d.vendorUses = true;
        d.vendorSource = "Cerebras' Oct 2024 inference release: \"This release also implements speculative "
                         "decoding\" (shared/facts wafer-mapping.md §2 [C9]); its draft model is not published";
    } else if (hw.kind == HardwareKind::Lpu) {
        d.vendorUses = true;
        d.vendorSource = "GroqCloud's llama-3.1-70b-specdec endpoint (2024): Llama 3.1 70B with speculative "
                         "decoding, 250 -> 1,660 tokens/s per Groq (resources/measurements/api-prices.json); its "
                         "draft model is not published. Groq serves it under endpoints named -specdec beside the "
                         "regular ones (llama-3.1-70b-specdec 'more than 6x' the regular llama-3.1-70b endpoint's "
                         "250 T/s, theaiobserver.com/?p=321; deepseek-r1-distill-llama-70b-specdec, Groq on X, 2025)";
        d.namedEndpoints = true;
    } else {
        d.vendorSource = "no source here says which GPU providers run speculative decoding for this model; off "
                         "unless you switch it on";
    }
    return d;
}

std::vector<const ModelConfig*> draftCandidates(const ModelConfig& target, const std::vector<ModelConfig>& candidates)
{
    const int64_t targetParams = ModelShape(target).totalParameters();
    std::vector<std::pair<int64_t, const ModelConfig*>> fit;
    for (const ModelConfig& c : candidates) {
        if (c.id == target.id || c.vocabSize != target.vocabSize || family(c.architecture) != family(target.architecture))
            continue;
        const int64_t params = ModelShape(c).totalParameters();
        if (params < targetParams)
            fit.emplace_back(params, &c);
    }
    // Equal sizes (Llama 3 and 3.1 8B): the one whose id shares more with the target's (its release) first.
    std::stable_sort(fit.begin(), fit.end(), [&](const auto& a, const auto& b) {
        if (a.first != b.first)
            return a.first < b.first;
        return commonPrefix(a.second->id, target.id) > commonPrefix(b.second->id, target.id);
    });
    std::vector<const ModelConfig*> out;
    for (const auto& [params, model] : fit)
        out.push_back(model);
    return out;
}

const ModelConfig* defaultDraftModel(const ModelConfig& target, const std::vector<ModelConfig>& candidates)
{
    const auto all = draftCandidates(target, candidates);
    return all.empty() ? nullptr : all.front();
}

Expected<DraftShare> waferDraftShare(const ModelConfig& draft, const WaferSpec& wafer, const PlacementOptions& placement,
                                     PlacementCache* cache, const Layout* layout, double defectRate)
{
    if (defectRate > 0)
        return makeError(ErrorCode::Unsupported, "a draft model is not placed around defects", "draft");
    auto share = draftShare(draft, wafer, placement, [&](const PlacementOptions& o) {
        const SharedPlacement placed = placeThrough(cache, draft, wafer, o);
        return *placed && (*placed)->deviceCount == 1;
    });
    if (!share)
        return share.error();
    if (layout && (layout->usableCols > share->targetColumns() || layout->usableRows > share->usableRows))
        return makeError(ErrorCode::OutOfRange,
                         "the layout and the draft model do not fit together: the layout uses " +
                             std::to_string(static_cast<long long>(layout->usableCols) * layout->usableRows) +
                             " cores per wafer and " + draft.id + " needs " + std::to_string(share->cores()) +
                             ", " + std::to_string(share->usableCores()) + " usable",
                         "draft");
    return share;
}

void setDraftShare(Prediction& p, const DraftShare& share, double draftSecondsPerStep)
{
    p.draftCores = share.cores();
    p.usableCoresPerDevice = share.usableCores();
    p.draftSecondsPerStep = draftSecondsPerStep;
}

SpeculativeEffect speculativeEffect(const Prediction& spec, const Prediction& plain, const SpeculativeDecoding& s)
{
    SpeculativeEffect e;
    e.expectedTokensPerStep = s.expectedTokensPerStep();
    if (!(plain.secondsPerToken > 0) || !(spec.secondsPerToken > 0))
        return e;
    double draftShare = 0; // seconds per output token spent drafting
    for (const PhaseTime& ph : spec.breakdown)
        if (ph.id == "speculative_draft")
            draftShare += ph.seconds;
    const double stepSeconds = spec.secondsPerToken * e.expectedTokensPerStep;
    e.draftTargetTokens = draftShare * e.expectedTokensPerStep / plain.secondsPerToken;
    e.verifyTargetTokens = (stepSeconds - draftShare * e.expectedTokensPerStep) / plain.secondsPerToken;
    e.speedup = plain.secondsPerToken / spec.secondsPerToken;
    return e;
}

} // namespace ws
