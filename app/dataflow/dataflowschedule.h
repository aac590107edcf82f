#pragma once
// The dataflow of one decode token for the placement the main window shows:
// the engine's schedule of the result's scene (scheduleScene,
// engine/scene/scene.h), the constants it was timed with and their sources,
// and the KV capacity of the first layer's region under both KV layouts
// (concat vs shift). Or the same for one layer executed by the mesh engine
// (engine/wafer/mesh): the engine's run as a playback, its phases timed by the
// engine, and the core and link parameters it ran with, each with its source;
// with a model file's weights, also what each core computed (the Values layer).
// Or the wafer's prefill of the scenario's prompt (prefillScene): its chunks
// pipelined through the layers, then the first token, at the predictor's time.

#include "app/common/placementresult.h"
#include "engine/scene/scene.h"
#include "engine/session/chatturn.h"
#include "engine/wafer/dataflow/kvcapacity.h"
#include "engine/wafer/dataflow/schedule.h"
#include "engine/wafer/dataflow/timingparams.h"
#include "engine/wafer/mesh/meshplayback.h"

#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace ws {

struct DataflowSetup
{
    std::shared_ptr<const TokenSchedule> schedule;
    std::vector<ParamInfo> params; // TimingParams with sources
    std::optional<KvCapacity> kv;  // layer 0's region
    KvPlacement kvPlacement = KvPlacement::Shift;
    // A wafer-to-wafer hop of the token: the hidden state (bytes) crossing from one wafer to the next, and its cycles.
    struct WaferLink
    {
        int from = 0, to = 0;
        double bytes = 0;
        double cycles = 0;
    };
    std::vector<WaferLink> waferLinks;            // the closed forms' whole token only
    std::shared_ptr<const MeshPlayback> executed; // the mesh engine's run of one layer (schedule is its timeline)
    int executedLayer = -1;
    double closedFormCycles = 0;         // the closed forms with the engine's unit costs, for the executed phases
    int valuesTokens = 0;                // values: the turn's tokens decoded (the picture is the last one's)
    int valuesDropped = 0;               // values: the turn's first tokens left out (kValuesTokensMax, the context)
    std::optional<ScenePrefill> prefill; // the prompt's prefill (schedule is its pipeline)
};

std::optional<DataflowSetup> buildDataflowSetup(const PlacementResult& result, KvPlacement kv, QString* error);
// The prefill of the scenario's prompt (workload.promptTokens) on the result's placement.
std::optional<DataflowSetup> buildPrefillSetup(const PlacementResult& result, KvPlacement kv, QString* error);
// Layer `layer` of the result's placement executed by the mesh engine at the scenario's context (about a second
// for a 70B-class layer on WSE-3: run it off the GUI thread). Dense models on wafers only.
std::optional<DataflowSetup> buildExecutedSetup(const PlacementResult& result, int layer, QString* error);
// What the Values run decodes: a turn's prompt as the chat built it (its messages and mode: the model's own
// template) and the tokens of its answer, as the chat generated them; before any turn, a completion of "Once upon a
// time". `label` names it in the dock.
struct ValuesTurn
{
    TurnRequest request;
    std::vector<TokenId> answer;
    QString label;
};
ValuesTurn defaultValuesTurn();
// At most this many tokens are decoded (the last ones): values mode runs at CPU speed, tiled.
constexpr int kValuesTokensMax = 1024;
// The same run with values (engine/wafer/mesh/meshvalues.h): the model file's weights (the model the result
// placed, e.g. the chat's loaded model) decode `turn` token by token on the placement's cores, from position 0
// (its last kValuesTokensMax tokens, within the placement's context); the run of the last step, timed on
// `layer`, carries what each core computed for it. Seconds for a 0.6B model: off the GUI thread.
std::optional<DataflowSetup> buildValuesSetup(const PlacementResult& result, const QString& weightsFile,
                                              const ValuesTurn& turn, int layer, QString* error);

} // namespace ws
