#pragma once
// Speculative decoding per device: the defaults a user starts from, each
// with its source, and what a prediction with it on gained or lost against
// the same prediction without it.
//
// A step drafts k tokens one at a time and verifies k + 1 in one pass of the
// target (the predictors' timing model: engine/predict/predictionutil.h
// speculativeSecondsPerToken), and yields E = (1 - a^(k+1)) / (1 - a) tokens.
// In units of one plain target token t: the draft costs k x c (c = t_draft / t)
// and the verify v (= t_verify(k + 1) / t), so the speed-up is E / (k c + v)
// and it pays only when k c + v < E. On a GPU v is close to 1 (the k + 1
// tokens share one pass over the weights); on a wafer each core also reads its
// weights once for the k + 1 tokens: the latencies and fixed costs are paid
// once and of the compute only the SIMD part per token (engine/predict/
// waferpredictor.cpp), so v stays well under k + 1 at batch 1; a slow draft
// (c near 1: on a wafer a small model is not proportionally faster, its time
// being mostly reductions) can still make it slower.

#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/predict/placementcache.h"
#include "engine/predict/prediction.h"
#include "engine/predict/waferpredictor.h"
#include "engine/spec/workload.h"
#include "engine/wafer/placement/draftplacement.h"
#include "engine/wafer/placement/layout.h"

#include <string>
#include <vector>

namespace ws {

struct SpeculativeDefaults
{
    bool vendorUses = false;  // the system's vendor is known to run speculative decoding
    std::string vendorSource; // where that is said (or why nothing is known)
    // The vendor serves speculative decoding under endpoints of their own name: a figure for another endpoint
    // ran without it, so "not known whether on" is off there.
    bool namedEndpoints = false;
    int tokensPerStep = 4; // k
    std::string tokensPerStepSource;
    double acceptanceRate = 0.7; // a
    std::string acceptanceRateSource;
};

SpeculativeDefaults speculativeDefaults(const HardwareSpec& hardware);

// The largest draft/target ratio of parameters read per token in published speculative-decoding deployments
// (Llama 3 8B drafting for Llama 3 70B, about 0.114; computed from the presets of those shapes).
double maxDraftRatio();
// The draft to start from: the smallest candidate (by parameters) that shares the target's vocabulary and
// architecture family and reads per token at most maxDraftRatio() of what the target reads, other than the
// target itself (between equal sizes, the one whose id shares more with the target's); null when none does
// (llama-4-maverick: llama-4-scout reads as many active parameters per token).
const ModelConfig* defaultDraftModel(const ModelConfig& target, const std::vector<ModelConfig>& candidates);
// Every candidate that can draft for `target` (the same vocabulary and family, fewer parameters, within
// maxDraftRatio), in that
// order: smallest first, and between equal sizes the one whose id shares more with the target's.
std::vector<const ModelConfig*> draftCandidates(const ModelConfig& target, const std::vector<ModelConfig>& candidates);

// On a wafer the draft model holds its own strip of cores beside the target (draftplacement.h): the
// narrowest that holds it, placed through `cache` (may be null). `placement` has the target's options with
// the whole usable mesh. Refused around defects (`aroundDefects`), and with a given `layout` that leaves
// the draft too few columns (the error names the cores needed and available).
Expected<DraftShare> waferDraftShare(const ModelConfig& draft, const WaferSpec& wafer,
                                     const PlacementOptions& placement, PlacementCache* cache,
                                     const Layout* layout = nullptr, bool aroundDefects = false);

// Where the draft model of `workload` decodes beside `target` on wafer `hardware`: the one choice the predictor
// and the scene (engine/scene/scene.h) both use. Candidates: a strip on wafer 0 of the narrowest width that
// holds the draft and 1.25, 1.5, 2 and 3 times it (while the target still places on the rest), and a wafer of
// its own after the target's (the target placed as without a draft). Each is timed by predictWafer at that
// home (k draft tokens, the verify of k + 1, the hand-off between draft and target); the choice is the
// fewest wafers in total (within options.devices when given), then the lowest seconds per output token.
// A given layout (options.placedLayout) decides: made for the whole usable mesh, the draft gets a wafer of its
// own; for fewer columns, the strip is the columns it leaves (which must hold the draft). Regions given to
// time (options.layout): the narrowest strip. Placements go through options.placements (or a cache of its own).
Expected<DraftHomeChoice> chooseDraftHome(const ModelConfig& target, const HardwareSpec& hardware,
                                          const Workload& workload, const WaferPredictOptions& options);

// Seconds per speculative step for the hand-off between the draft (its regions `draft`, at `home`) and the
// target (`target`): the k proposals from the draft's LM head to the target's embedding, and the verified token
// from there to the draft's embedding; hops across wafer 0 on a strip, one wafer link each from its own wafer.
double draftHandoffSeconds(const ScheduleRegions& target, const ScheduleRegions& draft, const DraftHome& home,
                           const TimingParams& params, int k);

// Where the chosen home leaves speculative decoding slower than plain decoding on the fewest wafers: a note
// with the plain and speculative figures and what one more wafer for the draft would bring (from the
// choice's candidates).
void addDraftHomeNote(Prediction& prediction, const DraftHomeChoice& choice, const SpeculativeDecoding& spec);

// The predictor's steps with a draft model (engine/predict/waferpredictor.cpp): its home (options.draftHome, or
// chooseDraftHome's) and the draft's regions there into `setup`, placed through `cache`; then the draft's own
// token at that home and the hand-off per step, which also set the prediction's draft fields and its note.
Status placeDraftHome(WaferSetup& setup, const ModelConfig& target, const HardwareSpec& hardware,
                      const Workload& workload, const WaferPredictOptions& options, PlacementCache* cache);
struct DraftAtHome
{
    double secondsPerToken = 0; // the draft's own token on its cores
    double handoffSeconds = 0;  // per step (draftHandoffSeconds)
};
Expected<DraftAtHome> timeDraftAtHome(Prediction& prediction, const HardwareSpec& hardware, const Workload& workload,
                                      const WaferPredictOptions& options, const WaferSetup& setup,
                                      const ScheduleRegions& target);

// The draft's home in a wafer prediction (Prediction::draftCores, usableCoresPerDevice, draftSecondsPerStep,
// draftHome, draftColumns).
void setDraftHome(Prediction& prediction, const DraftHome& home, double draftSecondsPerStep);

struct SpeculativeEffect
{
    double expectedTokensPerStep = 1; // E
    double draftTargetTokens = 0;     // k x c: the k draft tokens in plain target tokens
    double verifyTargetTokens = 0;    // v: the verify of k + 1 tokens in plain target tokens
    double speedup = 1;               // plain seconds per token / with speculative decoding = E / (k c + v)
    bool slower() const { return speedup < 1; }
};

// From a prediction with speculative decoding on (its breakdown's "speculative_draft" share) and the same
// prediction with it off.
SpeculativeEffect speculativeEffect(const Prediction& withSpeculative, const Prediction& plain,
                                    const SpeculativeDecoding& spec);

} // namespace ws
