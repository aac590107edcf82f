#pragma once
// The compared systems' predicted speeds for the chat's model: one SystemPace
// per hardware preset, from the engine's predictor (engine/perf predict())
// for a single user (concurrency 1) with the chat's prompt and answer
// lengths. A system the predictor cannot handle is left out and its reason
// kept, so the stats line never shows a made-up number.

#include "engine/model/modelconfig.h"
#include "engine/perf/workload.h"
#include "engine/session/sessionsnapshot.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace ws {

class PresetLibrary;

struct SystemPaces
{
    std::vector<SystemPace> systems;
    QStringList skipped; // "id: reason"

    // Workload of one chat turn: one user, BF16 weights (the presets'
    // serving precision), prompt and answer lengths as given.
    static Workload chatWorkload(int64_t promptTokens, int64_t outputTokens);
    static SystemPaces predict(const ModelConfig& model, const PresetLibrary& presets, const QStringList& hardwareIds,
                               const Workload& workload);
};

} // namespace ws
