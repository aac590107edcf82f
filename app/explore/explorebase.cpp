#include "app/explore/explorebase.h"

#include "app/common/presetlibrary.h"

#include <algorithm>

namespace ws {

std::optional<ScenarioSpec> sweepBaseOf(const Scenario& scenario, const PresetLibrary& presets, QString* error)
{
    auto model = presets.model(scenario.modelPreset);
    auto hardware = presets.hardware(scenario.hardwarePreset);
    if (!model || !hardware) {
        *error = QString::fromStdString((!model ? model.error() : hardware.error()).message());
        return std::nullopt;
    }
    if (hardware->kind != HardwareKind::Wafer) {
        *error = QStringLiteral("%1 is not wafer hardware").arg(scenario.hardwarePreset);
        return std::nullopt;
    }
    ScenarioSpec b;
    b.model = std::move(*model);
    b.hardware = std::move(*hardware);
    b.workload.precision = scenario.precision;
    b.workload.contextTokens = scenario.contextTokens;
    b.workload.promptTokens = scenario.promptTokens;
    b.workload.outputTokens = scenario.outputTokens;
    b.workload.concurrency = std::max(1, scenario.batch);
    b.devices = scenario.devices;
    return b;
}

Scenario scenarioWithLayout(Scenario scenario, const ScenarioSpec& base, const Layout& layout)
{
    scenario.precision = base.workload.precision;
    scenario.contextTokens = base.workload.contextTokens;
    scenario.batch = base.workload.concurrency;
    scenario.devices = base.devices;
    scenario.defects = {}; // a given layout is not placed around defects
    scenario.layout = layout;
    return scenario;
}

} // namespace ws
