#pragma once
// The compared systems' predicted speeds: one SystemPace per hardware preset,
// from the engine's predictor (engine/predict predict()). The one place a
// Prediction becomes a SystemPace (paceOf): the chat's pace choices and stats
// line and the comparison's race lanes all take their paces from here. For
// the chat, every hardware preset of the library is predicted for a single
// user (concurrency 1) with the chat's prompt and answer lengths, fastest
// first. A system the predictor cannot handle is left out and its reason
// kept, so the stats line never shows a made-up number.

#include "engine/model/modelconfig.h"
#include "engine/predict/prediction.h"
#include "engine/session/sessionsnapshot.h"
#include "engine/spec/workload.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace ws {

class PresetLibrary;

struct SystemPaces
{
    std::vector<SystemPace> systems; // fastest (predicted tokens/s per user) first
    QStringList skipped;             // "id: reason"

    // Workload of one chat turn: one user, BF16 weights (the presets'
    // serving precision), prompt and answer lengths as given.
    static Workload chatWorkload(int64_t promptTokens, int64_t outputTokens);
    // Every hardware preset in `presets`.
    static SystemPaces predict(const ModelConfig& model, const PresetLibrary& presets, const Workload& workload);
    static SystemPaces predict(const ModelConfig& model, const PresetLibrary& presets, const QStringList& hardwareIds,
                               const Workload& workload);
    // A prediction as a pace: its tokens/s per user and time to first token.
    static SystemPace paceOf(const Prediction& prediction, std::string id, std::string name);
};

} // namespace ws
