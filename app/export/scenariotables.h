#pragma once
// The data a scenario can export, computed on demand from the engine: the
// per-core SRAM map of its placement, the per-token dataflow schedule
// (per-phase timings) on wafers, and the prediction for its workload with the
// per-phase breakdown. Every table carries the scenario's inputs; the
// prediction also the hardware preset's sources.

#include "app/export/datatable.h"
#include "app/scenario/scenario.h"

#include <QCoreApplication>

#include <optional>

namespace ws {

class PresetLibrary;

class ScenarioTables
{
    Q_DECLARE_TR_FUNCTIONS(ws::ScenarioTables)

public:
    static std::optional<DataTable> sramMap(const Scenario& scenario, const PresetLibrary& presets, QString* error);
    static std::optional<DataTable> schedule(const Scenario& scenario, const PresetLibrary& presets, QString* error);
    static std::optional<DataTable> prediction(const Scenario& scenario, const PresetLibrary& presets, QString* error);
    static std::optional<DataTable> breakdown(const Scenario& scenario, const PresetLibrary& presets, QString* error);
    static QJsonObject scenarioInputs(const Scenario& scenario);
};

} // namespace ws
