#pragma once
// Speculative decoding per device: the defaults a user starts from, each
// with its source, and what a prediction with it on gained or lost against
// the same prediction without it.
//
// A step drafts k tokens one at a time and verifies k + 1 in one pass of the
// target (the predictors' timing model: engine/perf/predictionutil.h
// speculativeSecondsPerToken), and yields E = (1 - a^(k+1)) / (1 - a) tokens.
// In units of one plain target token t: the draft costs k x c (c = t_draft / t)
// and the verify v (= t_verify(k + 1) / t), so the speed-up is E / (k c + v)
// and it pays only when k c + v < E. On a GPU v is close to 1 (the k + 1
// tokens share one pass over the weights); on a wafer each core also reads its
// weights once for the k + 1 tokens: the latencies and fixed costs are paid
// once and of the compute only the SIMD part per token (engine/perf/
// waferpredictor.cpp), so v stays well under k + 1 at batch 1; a slow draft
// (c near 1: on a wafer a small model is not proportionally faster, its time
// being mostly reductions) can still make it slower.

#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/perf/placementcache.h"
#include "engine/perf/prediction.h"
#include "engine/perf/workload.h"
#include "engine/wafer/placement/draftplacement.h"
#include "engine/wafer/placement/layout.h"

#include <string>
#include <vector>

namespace ws {

struct SpeculativeDefaults
{
    bool vendorUses = false;      // the system's vendor is known to run speculative decoding
    std::string vendorSource;     // where that is said (or why nothing is known)
    // The vendor serves speculative decoding under endpoints of their own name: a figure for another endpoint
    // ran without it, so "not known whether on" is off there.
    bool namedEndpoints = false;
    int tokensPerStep = 4;        // k
    std::string tokensPerStepSource;
    double acceptanceRate = 0.7;  // a
    std::string acceptanceRateSource;
};

SpeculativeDefaults speculativeDefaults(const HardwareSpec& hardware);

// The draft to start from: the smallest candidate (by parameters) that shares the target's vocabulary and
// architecture family, other than the target itself (between equal sizes, the one whose id shares more
// with the target's); null when none does.
const ModelConfig* defaultDraftModel(const ModelConfig& target, const std::vector<ModelConfig>& candidates);
// Every candidate that can draft for `target` (the same vocabulary and family, fewer parameters), in that
// order: smallest first, and between equal sizes the one whose id shares more with the target's.
std::vector<const ModelConfig*> draftCandidates(const ModelConfig& target, const std::vector<ModelConfig>& candidates);

// On a wafer the draft model holds its own strip of cores beside the target (draftplacement.h): the
// narrowest that holds it, placed through `cache` (may be null). `placement` has the target's options with
// the whole usable mesh. Refused around defects (`defectRate` > 0), and with a given `layout` that leaves
// the draft too few columns (the error names the cores needed and available).
Expected<DraftShare> waferDraftShare(const ModelConfig& draft, const WaferSpec& wafer, const PlacementOptions& placement,
                                     PlacementCache* cache, const Layout* layout = nullptr, double defectRate = 0);

// The draft's share in a wafer prediction (Prediction::draftCores, usableCoresPerDevice, draftSecondsPerStep).
void setDraftShare(Prediction& prediction, const DraftShare& share, double draftSecondsPerStep);

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
