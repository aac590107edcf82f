#pragma once
// A scenario predicted as `waferscope-cli predict` predicts it: its scene
// (scenarioscene.h: hardware, model and workload resolved, the placement of
// its layout if it has one) and the engine's prediction with the scenario's
// wafer count, defects and layout. `waferscope-cli compare` and the window's
// compare dock both predict each side here and difference the two with
// comparePredictions (engine/explore/layoutcompare.h), so they show the same
// deltas for the same two scenarios.

#include "app/scenario/scenarioscene.h"

#include "engine/predict/prediction.h"

#include <QString>

#include <optional>

namespace ws {

struct ScenarioPrediction
{
    ScenarioScene scene;
    Prediction prediction;
};

// `withSchedule` also builds the scene's token schedule (the compare dock's per-region time difference).
// Null with `error` set when the scenario cannot be built or predicted.
std::optional<ScenarioPrediction> predictScenario(const Scenario& scenario, const PresetLibrary& presets,
                                                  const QString& baseDir, QString* error, bool withSchedule = false);

} // namespace ws
