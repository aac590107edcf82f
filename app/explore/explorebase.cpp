#include "app/explore/explorebase.h"

#include "app/common/presetlibrary.h"
#include "app/scenario/scenarioscene.h"

#include <algorithm>

namespace ws {

std::optional<ScenarioSpec> sweepBaseOf(const Scenario& scenario, const PresetLibrary& presets, QString* error)
{
    auto spec = scenarioSpec(scenario, presets); // the one translation of a scenario
    if (!spec) {
        *error = QString::fromStdString(spec.error().message());
        return std::nullopt;
    }
    if (spec->hardware.kind != HardwareKind::Wafer) {
        *error = QStringLiteral("%1 is not wafer hardware").arg(scenario.hardwarePreset);
        return std::nullopt;
    }
    // A sweep lays the model out afresh at every point on whole wafers: not the scenario's hand layout (nor its
    // weight fill), its draft model's strip or its dead cores.
    const ScenarioSpec fresh;
    spec->layout.reset();
    spec->weightFill = fresh.weightFill;
    spec->defects = fresh.defects;
    spec->workload.speculative = fresh.workload.speculative;
    spec->workload.concurrency = std::max(1, spec->workload.concurrency);
    return std::move(*spec);
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
