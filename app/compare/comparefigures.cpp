#include "app/compare/comparefigures.h"

#include "app/common/presetlibrary.h"
#include "engine/predict/speculative.h"
#include "engine/predict/tokencost.h"
#include "views/charts/chartformat.h"
#include "views/compare/rangebarchart.h"

namespace ws {

double CompareFigures::applyHourlyCost(HardwareSpec& hw, const views::ComparisonSettings& settings)
{
    const double preset = hw.cost.usd;
    const auto it = settings.hourlyUsdPerDevice.constFind(QString::fromStdString(hw.id));
    if (it != settings.hourlyUsdPerDevice.constEnd() && *it > 0) {
        hw.cost = {*it, *it, *it};
        hw.sources["hourlyCostUsd"] = tr("your setting: $%1 per device-hour (preset: $%2)")
                                          .arg(views::formatSignificant(*it), views::formatSignificant(preset))
                                          .toStdString();
    }
    return preset;
}

void CompareFigures::addCostFigures(views::ComparisonSystem& system, const std::string& modelId, double presetHourlyUsd)
{
    system.costCurve = costCurve(system.prediction);
    system.presetHourlyUsdPerDevice = presetHourlyUsd;
    system.apiPrices = apiPricesFor(modelId, system.hardwareId.toStdString());
}

Workload CompareFigures::speculativeWorkload(const Workload& base, const HardwareSpec& hw, const ModelConfig& model,
                                             const views::ComparisonSettings& settings, const PresetLibrary& presets,
                                             views::ComparisonSystem& system)
{
    system.speculativeDefaults = speculativeDefaults(hw);
    std::vector<ModelConfig> candidates;
    for (const QString& id : presets.modelIds())
        if (auto m = presets.model(id))
            candidates.push_back(*m);
    const ModelConfig* draft = defaultDraftModel(model, candidates);
    system.defaultDraftId = draft ? QString::fromStdString(draft->id) : QString();
    Workload w = base;
    const auto it = settings.speculative.constFind(system.hardwareId);
    if (it == settings.speculative.constEnd() || !it->enabled)
        return w;
    w.speculative.enabled = true;
    w.speculative.tokensPerStep = it->tokensPerStep;
    w.speculative.acceptanceRate = it->acceptanceRate;
    const QString draftId = it->draftModelId.isEmpty() ? system.defaultDraftId : it->draftModelId;
    if (!draftId.isEmpty()) {
        if (auto m = presets.model(draftId))
            w.speculative.draftModel = *m;
    }
    system.speculative = true;
    system.draftModelId = w.speculative.draftModel ? draftId : QString();
    return w;
}

void CompareFigures::addSpeculativeEffect(views::ComparisonSystem& system, const Prediction& withSpeculative,
                                          const Expected<Prediction>& plain, const Workload& work)
{
    if (!plain)
        return;
    system.speculativeEffect = speculativeEffect(withSpeculative, *plain, work.speculative);
    system.plainTokensPerSecondPerUser = plain->tokensPerSecondPerUser;
}

std::vector<views::RaceMark> CompareFigures::raceMarks(const views::ComparisonSystem& system)
{
    std::vector<views::RaceMark> out;
    for (const MeasuredPoint& m : system.measured) {
        const double perUser = m.tokensPerSecondPerUser();
        if (m.concurrency != system.prediction.concurrency || !(perUser > 0))
            continue;
        out.push_back({perUser, views::measuredPointTip(m, perUser, tr("tokens/s per user"))});
    }
    return out;
}

} // namespace ws
