#include "engine/predict/speculative.h"

#include "engine/calibration/measurementdata.h"
#include "engine/core/numbertext.h"
#include "engine/model/modelshape.h"
#include "engine/wafer/dataflow/scheduleregions.h"
#include "engine/wafer/dataflow/timingmodel.h"

#include <algorithm>
#include <cmath>

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
                         "decoding\" (release text as posted on Hacker News [Cerebras-Oct2024], docs/sources.md); "
                         "its draft model is not published";
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

double maxDraftRatio()
{
    // The largest draft/target pair of published deployments: Llama 3 8B drafting for Llama 3 70B (llama.cpp,
    // devquasar.com 'Speculative decoding tradeoffs: GPU with large models, Llama 70B / 8B'; TensorRT-LLM
    // draft_target, mikamirai.com 2026 [Draft-ratio] in docs/sources.md), its parameters read per token from the
    // presets of the same shapes (Llama 3 8B, Llama 3.1 70B). Chen et al.'s 4B draft for Chinchilla 70B and
    // Leviathan et al.'s T5-small to T5-large drafts for T5-XXL are smaller still.
    static const double ratio = [] {
        const ModelConfig* draft = shippedModel("llama-3-8b");
        const ModelConfig* target = shippedModel("llama-3.1-70b");
        if (!draft || !target)
            return 0.0; // no presets: no draft qualifies (shippedPresetErrors reports it)
        return double(ModelShape(*draft).activeParameters()) / double(ModelShape(*target).activeParameters());
    }();
    return ratio;
}

std::vector<const ModelConfig*> draftCandidates(const ModelConfig& target, const std::vector<ModelConfig>& candidates)
{
    const int64_t targetParams = ModelShape(target).totalParameters();
    // A draft reads its weights for every drafted token: per token it must read a small share of what the
    // target reads (an MoE's active parameters), else drafting costs about as much as the target's own token.
    const double targetActive = double(ModelShape(target).activeParameters());
    std::vector<std::pair<int64_t, const ModelConfig*>> fit;
    for (const ModelConfig& c : candidates) {
        if (c.id == target.id || c.vocabSize != target.vocabSize ||
            family(c.architecture) != family(target.architecture))
            continue;
        const ModelShape shape(c);
        const int64_t params = shape.totalParameters();
        if (params < targetParams && double(shape.activeParameters()) <= maxDraftRatio() * targetActive * (1 + 1e-9))
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

Expected<DraftShare> waferDraftShare(const ModelConfig& draft, const WaferSpec& wafer,
                                     const PlacementOptions& placement, PlacementCache* cache, const Layout* layout,
                                     bool aroundDefects)
{
    if (aroundDefects)
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
                             " cores per wafer and " + draft.id + " needs " + std::to_string(share->cores()) + ", " +
                             std::to_string(share->usableCores()) + " usable",
                         "draft");
    return share;
}

Expected<DraftHomeChoice> chooseDraftHome(const ModelConfig& target, const HardwareSpec& hw, const Workload& w,
                                          const WaferPredictOptions& o)
{
    if (!w.speculative.draftModel)
        return makeError(ErrorCode::InvalidArgument, "no draft model to place", "draft");
    const ModelConfig& draft = *w.speculative.draftModel;
    PlacementCache local(32);
    PlacementCache* cache = o.placements ? o.placements : &local;
    const PlacementOptions po = waferPlacementOptions(w, o);
    auto devicesOf = [&](const ModelConfig& m, const PlacementOptions& options) {
        const SharedPlacement placed = placeThrough(cache, m, hw.wafer, options);
        return *placed ? (*placed)->deviceCount : 0;
    };
    auto narrowest = waferDraftShare(draft, hw.wafer, po, cache, nullptr, o.defects.any());
    if (!narrowest)
        return narrowest.error();
    DraftHomeChoice choice;
    choice.home.share = *narrowest;
    if (const Layout* l = o.placedLayout) { // the layout's mesh decides: the whole one, or the rest beside a strip
        if (l->usableCols == narrowest->usableCols && l->usableRows == narrowest->usableRows) {
            if (devicesOf(draft, draftHomeOptions(po, ownWaferHome(hw.wafer, po, 0))) == 1)
                choice.home = ownWaferHome(hw.wafer, po, 0);
            return choice;
        }
        if (auto checked = waferDraftShare(draft, hw.wafer, po, cache, l, o.defects.any()); !checked)
            return checked.error();
        if (l->usableRows == narrowest->usableRows)
            choice.home.share.columns = narrowest->usableCols - l->usableCols;
        return choice;
    }
    if (o.layout)
        return choice; // regions given to time: beside the narrowest strip

    std::vector<DraftHomeCandidate> candidates;
    for (const double factor : {1.0, 1.25, 1.5, 2.0, 3.0}) {
        DraftHome h;
        h.share = *narrowest;
        h.share.columns = int(std::ceil(narrowest->columns * factor));
        if (h.share.columns >= narrowest->usableCols ||
            (!candidates.empty() && candidates.back().home.share.columns == h.share.columns))
            continue;
        if (devicesOf(draft, draftHomeOptions(po, h)) != 1)
            continue;
        h.targetDevices = devicesOf(target, targetHomeOptions(po, h));
        if (h.targetDevices > 0)
            candidates.push_back({h, 0});
    }
    {
        DraftHome own = ownWaferHome(hw.wafer, po, 0);
        own.targetDevices = devicesOf(target, targetHomeOptions(po, own));
        if (own.targetDevices > 0 && devicesOf(draft, draftHomeOptions(po, own)) == 1)
            candidates.push_back({own, 0});
    }
    if (candidates.empty())
        return choice; // the target places nowhere beside it (e.g. a MoE spanning wafers): the narrowest strip

    // Fewest wafers (within the wafers given), then the fastest; the fewest + 1 are timed too, for the note
    // on what one more wafer would bring.
    auto allowed = [&](const DraftHomeCandidate& c) { return o.devices <= 0 || c.home.devices() <= o.devices; };
    const bool anyAllowed = std::any_of(candidates.begin(), candidates.end(), allowed);
    int fewest = 0;
    for (const DraftHomeCandidate& c : candidates)
        if (!anyAllowed || allowed(c))
            fewest = fewest == 0 ? c.home.devices() : std::min(fewest, c.home.devices());
    WaferPredictOptions timed = o;
    timed.devices = 0;
    timed.placements = cache;
    timed.pointOnly = true;
    const DraftHomeCandidate* best = nullptr;
    for (DraftHomeCandidate& c : candidates) {
        if (c.home.devices() > fewest + 1)
            continue;
        timed.draftHome = &c.home;
        auto p = predictWafer(target, hw, w, timed);
        if (!p)
            continue;
        c.secondsPerToken = p->secondsPerToken;
        if (c.home.devices() == fewest && (anyAllowed ? allowed(c) : true) &&
            (!best || c.secondsPerToken < best->secondsPerToken))
            best = &c;
    }
    if (!best)
        return choice;
    choice.home = best->home;
    choice.secondsPerToken = best->secondsPerToken;
    Workload plainWork = w;
    plainWork.speculative.enabled = false;
    timed.draftHome = nullptr;
    if (auto plain = predictWafer(target, hw, plainWork, timed)) {
        choice.plainSecondsPerToken = plain->secondsPerToken;
        choice.plainDevices = plain->devices;
    }
    choice.candidates = std::move(candidates);
    return choice;
}

// Seconds per speculative step for the hand-off between the draft and the target: the k proposals from the
// draft's LM head to the target's embedding, and the verified token from there (the target's own schedule
// brings it back from its LM head) to the draft's embedding. Token ids travel as one 32-bit wavelet each. On a
// strip both legs are hops across wafer 0 (TimingModel::hopCycles over the regions' centres, as the schedule's
// layer hops); from a wafer of its own each leg crosses one wafer link (interWaferSeconds: the on-wafer hops
// to and from the wafer's edge, the link latency and the payload over the I/O bandwidth, as the schedule's
// wafer hops).
double draftHandoffSeconds(const ScheduleRegions& target, const ScheduleRegions& draft, const DraftHome& home,
                           const TimingParams& params, int k)
{
    const TimingModel timing(params);
    auto cx = [](const CoreRect& r) { return r.x + r.width / 2.0; };
    auto cy = [](const CoreRect& r) { return r.y + r.height / 2.0; };
    const CoreRect& in = target.embedding.rect;
    double seconds = 0;
    const std::pair<const CoreRect*, int> legs[2] = {{&draft.lmHead.rect, std::max(1, k)}, {&draft.embedding.rect, 1}};
    for (const auto& [rect, tokens] : legs) {
        if (home.ownWafer()) {
            const double edgeHops = std::max(0.0, double(draft.meshCols) - cx(*rect)) + cx(in);
            seconds += timing.interWaferSeconds(edgeHops, 4.0 * tokens);
        } else {
            const double hops = std::abs(cx(*rect) - cx(in)) + std::abs(cy(*rect) - cy(in));
            seconds += timing.hopCycles(hops, tokens) / params.clockHz;
        }
    }
    return seconds;
}

namespace {
std::string figure(double v, int decimals)
{
    return fixedText(v, decimals);
}
std::string homeText(const DraftHome& h)
{
    return h.ownWafer() ? std::string("a wafer of its own")
                        : "a strip of " + std::to_string(h.share.columns) + " columns on wafer 0";
}
} // namespace

void addDraftHomeNote(Prediction& p, const DraftHomeChoice& c, const SpeculativeDecoding& spec)
{
    if (!(c.plainSecondsPerToken > 0) || !(c.secondsPerToken > 0) || c.plainSecondsPerToken >= c.secondsPerToken)
        return;
    const int fewest = c.home.devices();
    const DraftHomeCandidate* more = nullptr;
    for (const DraftHomeCandidate& k : c.candidates)
        if (k.home.devices() == fewest + 1 && k.secondsPerToken > 0 &&
            (!more || k.secondsPerToken < more->secondsPerToken))
            more = &k;
    std::string note = "speculative decoding (k = " + std::to_string(spec.tokensPerStep) + ") does not pay on " +
                       std::to_string(fewest) + " wafers: plain decoding gives " +
                       figure(1 / c.plainSecondsPerToken, 0) + " tokens/s on " + std::to_string(c.plainDevices) +
                       ", with the draft on " + homeText(c.home) + " " + figure(1 / c.secondsPerToken, 0) + " (" +
                       figure(c.plainSecondsPerToken / c.secondsPerToken, 2) + "x)";
    if (more)
        note += "; one more wafer for the draft (" + homeText(more->home) + ", " + std::to_string(fewest + 1) +
                " wafers) would give " + figure(1 / more->secondsPerToken, 0) + " tokens/s, " +
                figure(c.plainSecondsPerToken / more->secondsPerToken, 2) + "x plain";
    else
        note += "; no home for the draft on one more wafer was found";
    p.notes.push_back(note);
}

Status placeDraftHome(WaferSetup& s, const ModelConfig& target, const HardwareSpec& hw, const Workload& w,
                      const WaferPredictOptions& o, PlacementCache* cache)
{
    if (o.draftHome) {
        s.draftHome = DraftHomeChoice{};
        s.draftHome->home = *o.draftHome;
    } else {
        WaferPredictOptions choose = o;
        choose.placements = cache;
        auto choice = chooseDraftHome(target, hw, w, choose);
        if (!choice)
            return choice.error();
        s.draftHome = std::move(*choice);
    }
    const PlacementOptions po = draftHomeOptions(waferPlacementOptions(w, o), s.draftHome->home);
    auto placed = placeThrough(cache, *w.speculative.draftModel, hw.wafer, po);
    if (*placed)
        s.draftLayout = scheduleRegionsFromPlacement(**placed);
    else if (!o.draftHome) // a home given (the range's other fills) times only the target's regions
        return placed->error();
    return Ok{};
}

Expected<DraftAtHome> timeDraftAtHome(Prediction& p, const HardwareSpec& hw, const Workload& w,
                                      const WaferPredictOptions& o, const WaferSetup& s, const ScheduleRegions& target)
{
    const ModelConfig& model = *w.speculative.draftModel;
    Workload dw = w;
    dw.speculative.enabled = false;
    dw.concurrency = 1;
    const DraftHome& home = s.draftHome->home;
    WaferPredictOptions draftOptions;
    draftOptions.placements = o.placements;
    draftOptions.weightFill = o.weightFill;
    draftOptions.devices = 1;
    draftOptions.usableCols = home.share.columns;
    draftOptions.usableRows = home.share.usableRows;
    draftOptions.pointOnly = true;
    auto draft = predictWafer(model, hw, dw, draftOptions);
    if (!draft)
        return draft.error();
    DraftAtHome out;
    out.secondsPerToken = draft->secondsPerToken;
    out.handoffSeconds = draftHandoffSeconds(target, s.draftLayout, home, s.params, w.speculative.tokensPerStep);
    setDraftHome(p, home, w.speculative.tokensPerStep * out.secondsPerToken);
    p.notes.push_back(home.ownWafer()
                          ? "speculative decoding: the draft model " + model.id +
                                " decodes on a wafer of its own (wafer " + std::to_string(home.draftDevice() + 1) +
                                ", " + std::to_string(home.draftCores()) + " cores) after the target's " +
                                std::to_string(home.targetDevices) +
                                "; its proposals and the verified token cross one wafer link each per step"
                          : "speculative decoding: the draft model " + model.id + " decodes on " +
                                std::to_string(home.share.columns) + " x " + std::to_string(home.share.usableRows) +
                                " cores at the left of wafer 0 (" + std::to_string(home.draftCores()) + " of " +
                                std::to_string(home.share.usableCores()) + "); the target on the other " +
                                std::to_string(home.share.targetColumns()) + " columns of every wafer");
    return out;
}

void setDraftHome(Prediction& p, const DraftHome& home, double draftSecondsPerStep)
{
    p.draftCores = home.draftCores();
    p.usableCoresPerDevice = home.share.usableCores();
    p.draftSecondsPerStep = draftSecondsPerStep;
    p.draftHome = draftHomeId(home.kind);
    p.draftColumns = home.share.columns;
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
