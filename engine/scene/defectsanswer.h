#pragma once
// What a scenario's defects do: the one answer the window's Defects dock,
// `render`, `record`, the chat's wafer and `predict` share. The scene is
// buildWaferScene's for the specification, defects included: the model placed
// on the usable mesh the remaps leave (placeWithDefects,
// engine/wafer/redundancy/defectplacement.h), the snapshot's Defects layer
// filled from each wafer's remap, and the hop stretch S_max over the placed
// regions. Beside it: one wafer's remap (the wafer the user looks at: its
// summary and usable mesh, known even when no placement fits), and the time
// per token without the defects and with them, both from predict() with the
// same specification (the second places around the same defects, so it times
// the scene shown).

#include "engine/core/error.h"
#include "engine/predict/placementcache.h"
#include "engine/scene/scene.h"
#include "engine/spec/scenariospec.h"
#include "engine/wafer/redundancy/remap.h"

#include <memory>
#include <string>

namespace ws {

struct DefectsAnswer
{
    int device = 0;
    std::shared_ptr<const Remap> remap; // `device`'s; null when the remap itself failed (see error)
    DefectSummary summary;              // `device`'s remap
    MeshSize usableMesh;                // what `device`'s remap leaves
    // The scene placed around the defects (null when no placement fits: error says why).
    std::shared_ptr<const WaferScene> scene;
    double hopStretch = 1.0;          // the scene's S_max over its placed regions, both axes (1 without a scene)
    std::string error;                // the remap or the placement failed; the summary is valid when remap is set
    double secondsPerTokenBefore = 0; // 0: not predicted (predictionError says why)
    double secondsPerTokenAfter = 0;
    int devicesBefore = 0; // wafers each prediction uses (the fewest that hold the model)
    int devicesAfter = 0;
    std::string predictionError;
};

// The answer for `spec` (wafer hardware) seen on wafer `device`. `built`, when given, is buildWaferScene(spec)'s
// scene and is used instead of placing again. `placements` (may be null) keeps the predictions' placements.
DefectsAnswer answerDefects(const ScenarioSpec& spec, int device, PlacementCache* placements = nullptr,
                            std::shared_ptr<const WaferScene> built = nullptr);

} // namespace ws
