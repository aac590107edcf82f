#pragma once
// What the layout explorer's sweep and optimiser start from, and how a layout
// they found becomes a scenario again: the window's scenario as an engine
// ScenarioSpec (scenarioSpec's, laid out afresh at each point), and a
// ScenarioSpec with its layout as the scenario the compare dock opens as B.

#include "app/scenario/scenario.h"

#include "engine/explore/layoutsweep.h"

#include <QString>

#include <optional>

namespace ws {

class PresetLibrary;

std::optional<ScenarioSpec> sweepBaseOf(const Scenario& scenario, const PresetLibrary& presets, QString* error);
// `scenario` with the base's precision, context, batch and wafer count and exactly `layout`.
Scenario scenarioWithLayout(Scenario scenario, const ScenarioSpec& base, const Layout& layout);

} // namespace ws
