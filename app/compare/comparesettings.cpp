// The comparison's defaults: the systems compared, the workload and reading speed they start from, the
// workload a set of settings asks for, and the settings a scenario on stage sets (followScenario).
#include "app/compare/comparecontroller.h"

#include "app/common/presetlibrary.h"
#include "engine/predict/speculative.h"

#include <QFileInfo>

namespace ws {

std::vector<CompareSystemChoice> ComparisonController::defaultSystems()
{
    return {
        {QStringLiteral("wse3"), 0, QColor(0xe6, 0x7e, 0x22), true},
        {QStringLiteral("h100"), 8, QColor(0x76, 0xb9, 0x00), true},
        {QStringLiteral("h200"), 8, QColor(0x3e, 0x8e, 0x41), false},
        {QStringLiteral("b200"), 8, QColor(0x1f, 0x6f, 0x8b), true},
        {QStringLiteral("groq-lpu"), 0, QColor(0xc0, 0x39, 0x2b), true},
    };
}

views::ComparisonSettings ComparisonController::defaultSettings()
{
    views::ComparisonSettings s; // the engine's workload (engine/spec/workload.h) and its defaults
    s.modelId = QStringLiteral("llama-3.1-70b");
    return s;
}

views::ReadingSpeed ComparisonController::defaultReadingSpeed()
{
    views::ReadingSpeed r;
    // [Chinese-reading-rate]: 259.5 ± 38.2 characters/min; the range is the mean ± 1 SD.
    r.charactersPerMinuteLow = 221;
    r.charactersPerMinuteHigh = 298;
    r.source = tr("Wang, Lin & Guo, 'Visual requirement for Chinese reading with normal vision', Brain and Behavior "
                  "2019, https://doi.org/10.1002/brb3.1216: 259.5 ± 38.2 characters/min (30 readers, mean ± 1 SD) "
                  "[Chinese-reading-rate]");
    return r;
}

Workload ComparisonController::workloadFor(const views::ComparisonSettings& s, Precision precision)
{
    Workload w = s.workload;
    w.precision = precision;
    return w;
}

void ComparisonController::followScenario(const Scenario& scenario)
{
    views::ComparisonSettings settings = m_settings;
    // A preset, else the loaded GGUF's file (resolveModel reads either), so the comparison offers the loaded model.
    const std::optional<Precision> precisionBefore = m_scenarioPrecision;
    const std::optional<Layout> layoutBefore = m_scenarioLayout;
    if (!scenario.modelPreset.isEmpty() || !scenario.modelFile.isEmpty()) {
        settings.modelId = scenario.modelPreset.isEmpty() ? scenario.modelFile : scenario.modelPreset;
        m_scenarioModelId = settings.modelId;
        m_scenarioPrecision = scenario.precision;
        m_scenarioLayout = scenario.layout;
        m_scenarioHardwareId = scenario.hardwarePreset;
    }
    settings.workload.concurrency = std::max(1, scenario.batch);
    settings.workload.contextTokens = scenario.contextTokens;
    settings.workload.promptTokens = scenario.promptTokens;
    settings.workload.outputTokens = scenario.outputTokens;
    std::vector<CompareSystemChoice> systems = m_systems;
    const auto hardware = m_presets.hardware(scenario.hardwarePreset);
    bool systemsChanged = false;
    if (hardware && hardware->kind == HardwareKind::Wafer)
        for (CompareSystemChoice& c : systems) {
            const auto h = m_presets.hardware(c.hardwareId);
            if (!h || h->kind != HardwareKind::Wafer)
                continue;
            // The wafer lane is the scenario's wafer, on as many wafers as it names (0: the fewest that hold it).
            systemsChanged = c.hardwareId != scenario.hardwarePreset || c.devices != scenario.devices;
            c.hardwareId = scenario.hardwarePreset;
            c.devices = scenario.devices;
            break;
        }
    if (systemsChanged)
        m_systems = std::move(systems);
    // The scenario's draft model decodes speculatively on its wafer (the sourced k and acceptance, as the CLI's
    // --speculative --draft); no draft: off, unless the user turned it on here for another system.
    if (hardware && hardware->kind == HardwareKind::Wafer) {
        views::SpeculativeChoice choice = settings.speculative.value(scenario.hardwarePreset);
        const bool draft = !scenario.draftModel.isEmpty();
        if (draft || choice.draftModelId != scenario.draftModel) {
            const SpeculativeDefaults d = speculativeDefaults(*hardware);
            choice = {draft, scenario.draftModel, d.tokensPerStep, d.acceptanceRate};
            settings.speculative.insert(scenario.hardwarePreset, choice);
        }
    }
    if (settings != m_settings)
        setSettings(settings); // recomputes
    else if (systemsChanged || m_scenarioPrecision != precisionBefore || !(m_scenarioLayout == layoutBefore))
        recompute();
}

void ComparisonController::setLoadedModel(const QString& file, const QString& name)
{
    if (std::pair(file, name) == m_loadedModel)
        return;
    m_loadedModel = {file, name};
    recompute();
}

std::optional<Prediction> ComparisonController::scenarioPrediction() const
{
    if (!m_snapshot || m_scenarioModelId.isEmpty() || m_settings.modelId != m_scenarioModelId)
        return std::nullopt;
    for (const views::ComparisonSystem& s : m_snapshot->systems)
        if (s.ok && s.hardwareId == m_scenarioHardwareId)
            return s.prediction;
    return std::nullopt;
}

QString ComparisonController::shownModelText() const
{
    const auto name = [this](const QString& id) {
        const auto model = m_presets.model(id);
        return model ? QString::fromStdString(model->name) : QFileInfo(id).completeBaseName();
    };
    const QString shown = name(m_settings.modelId);
    if (m_scenarioModelId.isEmpty() || m_scenarioModelId == m_settings.modelId)
        return shown;
    return tr("%1, chosen here; the scenario shows %2").arg(shown, name(m_scenarioModelId));
}

} // namespace ws
