#include "app/window/scenariocontroller.h"

#include "app/common/presetlibrary.h"
#include "app/defects/defectsdock.h"
#include "app/scenario/scenarioscene.h"
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
    // The bar offers the chat's loaded model and names it while the wafer shows it.
    connect(m_parts.chat, &ChatController::modelChanged, this, [this] {
        const auto& info = m_parts.chat->runController()->modelInfo();
        m_parts.bar->setLoadedModel(info ? std::optional(info->config) : std::nullopt);
    });
    connect(m_parts.defects, &DefectsDock::defectsChanged, this, &ScenarioController::defectsEdited);
    // The pickers name the default scenario from the start (not the presets' first entries), also behind a
    // question asked before anything is placed.
    m_parts.bar->setRequest(defaultRequest());
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
    m_parts.stage->showResult(std::make_shared<const PlacementResult>(placementResultOf(std::move(scene))),
                              m_parts.stage->device());
}

void ScenarioController::applyScenario(const Scenario& scenario)
{
    m_scenario = scenario;
    emit opened();
    m_parts.chat->setWaferScenario(m_scenario);
    Scenario request = scenario;
    if (request.modelPreset.isEmpty())
        request.modelPreset = defaultRequest().modelPreset;
    m_parts.stage->setLayer(scenario.layer);
    m_pendingDevice = scenario.viewDevice;
    m_pendingView = scenario.zoom != 1.0 || !scenario.center.isNull();
    const auto model = m_presets.model(request.modelPreset);
    const auto hardware = m_presets.hardware(request.hardwarePreset);
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
    m_parts.bar->setRequest(defaultRequest());
    m_scenario = m_parts.bar->request(m_scenario);
    m_scenario.modelFile.clear();
    // Start on what every core holds: layers in snake order over the wafers (SRAM is a click away).
    m_scenario.layer = MeshLayer::WeightPlacement;
    applyScenario(m_scenario);
    return true;
}

void ScenarioController::userChangedRequest()
{
    m_scenario = m_parts.bar->request(m_scenario);
    m_scenario.layout.reset(); // an edited layout belongs to the model and hardware it was made for
    m_parts.chat->setWaferScenario(m_scenario);
    m_parts.markModified();
    // The loaded model chosen in the bar, or a preset chosen while the wafer showed it: the wafer follows (and
    // places what it shows: the chat's model, or the scenario's through recompute).
    LiveWafer* live = m_parts.chat->liveWafer();
    const auto wanted =
        m_parts.bar->loadedModelChosen() ? LiveWafer::Shows::LoadedModel : LiveWafer::Shows::ScenarioModel;
    if (wanted != live->shows()) {
        live->setShows(wanted);
        return;
    }
    recompute();
}

void ScenarioController::setRequest(const Scenario& request)
{
    m_parts.bar->setRequest(request);
    recompute();
}

Scenario ScenarioController::request() const
{
    return m_parts.bar->request(m_scenario);
}

Scenario ScenarioController::shown() const
{
    Scenario s = request();
    const auto result = m_parts.stage->result();
    const auto& info = m_parts.chat->runController()->modelInfo();
    if (!result || result != m_parts.chat->liveWafer()->chatPlacement() || !info)
        return s;
    s.modelPreset.clear();
    s.modelFile = QString::fromStdString(info->filePath);
    s.contextTokens = result->spec().workload.contextTokens;
    s.precision = result->spec().workload.precision;
    s.draftModel.clear();
    // The chat's model sits on the smallest sub-mesh that holds it (where it is seen): that layout, not the
    // placer's spread over the wafer, is what the views predict.
    s.layout = result->layout();
    return s;
}

void ScenarioController::recompute()
{
    // The pickers say what to place; the scenario gives the workload and where its wafers are dead. The heatmap
    // places the preset (the loaded file is the chat's, below); an edited layout is the Layout dock's, applied
    // once this placement arrives.
    Scenario chosen = request();
    chosen.modelFile.clear();
    chosen.layout.reset();
    m_placements.cancel(); // whatever happens below, an older placement is no longer wanted
    if (m_parts.chat->liveWafer()->shows() == LiveWafer::Shows::LoadedModel &&
        m_parts.chat->runController()->modelInfo()) {
        m_parts.chat->setWaferScenario(m_scenario); // the chat places its model; placementReady shows it
        return;
    }
    auto spec = scenarioSpec(chosen, m_presets);
    if (!spec) {
        showError(QString::fromStdString(spec.error().message()));
        emit placementFinished(false);
        return;
    }
    spdlog::info("placing {} on {} at {}, {} tokens of context", spec->model.id, spec->hardware.id,
                 precisionId(spec->workload.precision), spec->workload.contextTokens);
    m_parts.stage->showBusy(tr("Computing the placement…"));
    m_placements.start([spec = std::move(*spec)] { return computePlacement(spec, true); },
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

void ScenarioController::showChatResult(std::shared_ptr<const PlacementResult> result)
{
    m_placements.cancel(); // the window is no longer busy with it (isBusy)
    showResult(std::move(result));
}

void ScenarioController::showError(const QString& message)
{
    spdlog::warn("placement failed: {}", message.toStdString());
    m_parts.stage->showError(message);
}

void ScenarioController::resultShown()
{
    const auto result = m_parts.stage->result();
    m_parts.bar->showLoadedModel(result && result == m_parts.chat->liveWafer()->chatPlacement());
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
