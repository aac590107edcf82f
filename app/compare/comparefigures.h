#pragma once
// The figures the comparison shows beside each prediction, gathered in one
// place for the controller: the user's hourly cost in place of the hardware
// preset's, the cost curve over concurrency with the providers' published API
// prices, and the race's marks for published speeds that match a system.

#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/predict/prediction.h"
#include "engine/spec/workload.h"
#include "views/compare/comparisonsnapshot.h"
#include "views/compare/tokenrace.h"

#include <QCoreApplication>

#include <string>
#include <vector>

namespace ws {

class PresetLibrary;

class CompareFigures
{
    Q_DECLARE_TR_FUNCTIONS(ws::CompareFigures)

public:
    // Puts the settings' hourly cost per device for this hardware (if the user set one) in place of the
    // preset's, with "your setting" as its source; returns the preset's own figure per device.
    static double applyHourlyCost(HardwareSpec& hardware, const views::ComparisonSettings& settings);
    // A system with a prediction: its cost curve, the preset's hourly cost and the API prices for the model.
    static void addCostFigures(views::ComparisonSystem& system, const std::string& modelId, double presetHourlyUsd);
    // The workload for one system: `base` with the user's speculative decoding for this hardware (settings),
    // the draft resolved from the presets (the default draft when none is chosen). Fills the system's
    // speculative fields (defaults with sources, the draft used).
    static Workload speculativeWorkload(const Workload& base, const HardwareSpec& hardware, const ModelConfig& model,
                                        const views::ComparisonSettings& settings, const PresetLibrary& presets,
                                        views::ComparisonSystem& system);
    // With speculative decoding on: what it gained or lost against the same system without it.
    static void addSpeculativeEffect(views::ComparisonSystem& system, const Prediction& withSpeculative,
                                     const Expected<Prediction>& plain, const Workload& work);
    // Published figures at the race's concurrency (the system's measured points that give a per-user speed).
    static std::vector<views::RaceMark> raceMarks(const views::ComparisonSystem& system);
};

} // namespace ws
