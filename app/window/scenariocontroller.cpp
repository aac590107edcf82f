#include "app/window/scenariocontroller.h"

#include "app/common/presetlibrary.h"
#include "app/defects/defectsdock.h"
#include "app/session/chatcontroller.h"
#include "app/session/livewafer.h"
#include "app/session/runcontroller.h"
#include "app/stage/stage.h"
#include "app/window/scenariobar.h"
#include "views/mesh/meshview.h"

#include <spdlog/spdlog.h>

#include <cmath>

namespace ws {

ScenarioController::ScenarioController(const PresetLibrary& presets, Parts parts, QObject* parent)
    : QObject(parent), m_presets(presets), m_parts(std::move(parts)), m_placements(this)
{
    connect(m_parts.stage, &Stage::resultChanged, this, &ScenarioController::resultShown);
    connect(m_parts.defects, &DefectsDock::defectsChanged, this, &ScenarioController::defectsEdited);
}

void ScenarioController::defectsEdited(const DefectRequest& defects, std::shared_ptr<const WaferScene> scene)
{
    m_scenario.defects = defects;
    m_parts.chat->setWaferScenario(m_scenario);
    m_parts.markModified();
    const auto shown = m_parts.stage->result();
    if (m_placements.isBusy() || !shown || !scene) { // a newer choice is being placed: place it with these defects
        recompute();
        return;
    }
    PlacementRequest request = shown->request;
    request.defects = defects;
    m_parts.stage->showResult(std::make_shared<const PlacementResult>(placementResultOf(request, std::move(scene))),
                              m_parts.stage->device());
}

PlacementRequest ScenarioController::defaultRequest()
{
    const Scenario defaults; // the one statement of the defaults
    PlacementRequest r;
    r.modelId = defaults.modelPreset;
    r.hardwareId = defaults.hardwarePreset;
    r.precision = defaults.precision;
    r.contextTokens = defaults.contextTokens;
    r.defects = defaults.defects;
    return r;
}

void ScenarioController::applyScenario(const Scenario& scenario)
{
    m_scenario = scenario;
    emit opened();
    m_parts.chat->setWaferScenario(m_scenario);
    PlacementRequest request = defaultRequest();
    if (!scenario.modelPreset.isEmpty())
        request.modelId = scenario.modelPreset;
    request.hardwareId = scenario.hardwarePreset;
    request.precision = scenario.precision;
    request.contextTokens = scenario.contextTokens;
    request.draftModelId = scenario.draftModel;
    request.defects = scenario.defects;
    m_parts.stage->setLayer(scenario.layer);
    m_pendingDevice = scenario.viewDevice;
    m_pendingView = scenario.zoom != 1.0 || !scenario.center.isNull();
    const auto model = m_presets.model(request.modelId);
    const auto hardware = m_presets.hardware(request.hardwareId);
    if (scenario.modelPreset.isEmpty() && !scenario.modelFile.isEmpty()) {
        m_placements.cancel(); // drops any placement still running
        showError(tr("the heatmap needs a model preset; this scenario names only the file %1").arg(scenario.modelFile));
        return;
    }
    if (!model || !hardware) {
        m_placements.cancel();
        showError(QString::fromStdString((!model ? model.error() : hardware.error()).message()));
        return;
    }
    if (hardware->kind != HardwareKind::Wafer) {
        m_placements.cancel();
        showError(tr("%1 is not wafer-scale hardware; the heatmap shows wafers only")
                      .arg(QString::fromStdString(hardware->name)));
        return;
    }
    setRequest(request);
}

bool ScenarioController::ensurePlacement()
{
    if (m_placements.latestId() != 0)
        return false;
    // Nothing opened: show the default scenario, and save what is shown.
    const PlacementRequest r = defaultRequest();
    m_scenario.modelPreset = r.modelId;
    m_scenario.modelFile.clear();
    m_scenario.hardwarePreset = r.hardwareId;
    m_scenario.precision = r.precision;
    m_scenario.contextTokens = r.contextTokens;
    // Start on what every core holds: layers in snake order over the wafers (SRAM is a click away).
    m_scenario.layer = MeshLayer::WeightPlacement;
    applyScenario(m_scenario);
    return true;
}

void ScenarioController::userChangedRequest()
{
    const PlacementRequest r = m_parts.bar->request();
    m_scenario.modelPreset = r.modelId;
    m_scenario.hardwarePreset = r.hardwareId;
    m_scenario.precision = r.precision;
    m_scenario.contextTokens = r.contextTokens;
    m_scenario.draftModel = r.draftModelId;
    m_scenario.layout.reset(); // an edited layout belongs to the model and hardware it was made for
    m_parts.chat->setWaferScenario(m_scenario);
    m_parts.markModified();
    recompute();
}

void ScenarioController::setRequest(const PlacementRequest& request)
{
    m_parts.bar->setRequest(request);
    recompute();
}

PlacementRequest ScenarioController::request() const
{
    return m_parts.bar->request();
}

void ScenarioController::recompute()
{
    PlacementRequest req = m_parts.bar->request();
    req.defects = m_scenario.defects; // the pickers say what to place, the scenario where its wafers are dead
    m_placements.cancel();            // whatever happens below, an older placement is no longer wanted
    if (m_parts.chat->liveWafer()->shows() == LiveWafer::Shows::LoadedModel &&
        m_parts.chat->runController()->modelInfo()) {
        m_parts.chat->setWaferScenario(m_scenario); // the chat places its model; placementReady shows it
        return;
    }
    const auto hardware = m_presets.hardware(req.hardwareId);
    const auto model = m_presets.model(req.modelId);
    if (!hardware || !model) {
        const Error& e = !hardware ? hardware.error() : model.error();
        showError(QString::fromStdString(e.message()));
        emit placementFinished(false);
        return;
    }
    spdlog::info("placing {} on {} at {}, {} tokens of context", req.modelId.toStdString(),
                 req.hardwareId.toStdString(), precisionId(req.precision), req.contextTokens);
    m_parts.stage->showBusy(tr("Computing the placement…"));
    std::optional<ModelConfig> draft;
    if (!req.draftModelId.isEmpty())
        if (auto d = m_presets.model(req.draftModelId))
            draft = std::move(*d);
    m_placements.start([req, hw = *hardware, m = *model, draft] { return computePlacement(req, hw, m, {}, draft); },
                       [this](Expected<PlacementResult> r) {
                           if (!r) {
                               showError(QString::fromStdString(r.error().message()));
                               emit placementFinished(false);
                               return;
                           }
                           showResult(std::make_shared<const PlacementResult>(std::move(*r)));
                           emit placementFinished(true);
                       });
}

void ScenarioController::showResult(std::shared_ptr<const PlacementResult> result)
{
    const int device = m_pendingDevice;
    m_pendingDevice = 0;
    m_parts.stage->showResult(std::move(result), device > 0 ? device : -1);
}

void ScenarioController::showError(const QString& message)
{
    spdlog::warn("placement failed: {}", message.toStdString());
    m_parts.stage->showError(message);
}

void ScenarioController::resultShown()
{
    const auto result = m_parts.stage->result();
    if (!result || !m_pendingView)
        return;
    const auto& snap = *result->snapshot;
    const QPointF centre =
        m_scenario.center.isNull() ? QPointF(snap.meshCols / 2.0, snap.meshRows / 2.0) : m_scenario.center;
    m_parts.stage->setViewState(m_scenario.zoom, centre);
    m_pendingView = false;
}

void ScenarioController::noteLayer(MeshLayer layer)
{
    m_scenario.layer = layer;
    m_parts.markModified();
}

void ScenarioController::noteDevice(int device)
{
    m_scenario.viewDevice = device;
    m_parts.markModified();
}

void ScenarioController::noteView()
{
    if (!m_parts.stage->result())
        return;
    // Scenario convention: zoom 1 with centre (0, 0) means "fitted and centred".
    const views::MeshView& view = *m_parts.stage->view();
    const bool fitted = std::abs(view.zoomFactor() - 1.0) < 1e-9;
    m_scenario.zoom = fitted ? 1.0 : view.zoomFactor();
    m_scenario.center = fitted ? QPointF() : view.centreCore();
    m_parts.markModified();
}

void ScenarioController::noteLayout(const Layout& layout)
{
    if (m_scenario.layout && *m_scenario.layout == layout)
        return; // an opened scenario's layout, placed
    m_scenario.layout = layout;
    m_parts.markModified();
}

} // namespace ws
