#include "app/session/livewafer.h"

#include "app/common/presetlibrary.h"
#include "app/explore/explorestate.h"
#include "app/scenario/scenarioscene.h"
#include "app/session/systempaces.h"
#include "app/stage/stage.h"
#include "views/mesh/meshview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QScopedValueRollback>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace ws {

LiveWafer::LiveWafer(QObject* parent)
    : QObject(parent), m_row(new QWidget), m_choice(new QComboBox(m_row)), m_slowMotionBox(new QCheckBox(m_row)),
      m_header(new QLabel(m_row)), m_jobs(this), m_frameJobs(this)
{
    buildRow();
    connect(m_choice, &QComboBox::activated, this,
            [this](int index) { setShows(index == 1 ? Shows::LoadedModel : Shows::ScenarioModel); });
    connect(m_slowMotionBox, &QCheckBox::toggled, this, &LiveWafer::setSlowMotion);
    connect(this, &LiveWafer::readyChanged, this, [this] {
        if (m_idleWanted)
            showIdle();
    });
    retranslate();
}

void LiveWafer::setShows(Shows shows)
{
    m_choice->setCurrentIndex(shows == Shows::LoadedModel ? 1 : 0);
    if (shows == m_shows)
        return;
    m_shows = shows;
    if (m_shows == Shows::ScenarioModel) {
        m_chatPlacement.reset();
        emit mainPlacementWanted(); // the window's own placement comes back through setMainPlacement
    }
    rebuild();
}

void LiveWafer::setStage(Stage* stage)
{
    m_stage = stage;
    connect(stage, &Stage::resultChanged, this, &LiveWafer::setMainPlacement);
    connect(stage, &Stage::layerChanged, this, &LiveWafer::viewChanged);
    connect(stage, &Stage::deviceChanged, this, &LiveWafer::viewChanged);
}

void LiveWafer::setMainPlacement(std::shared_ptr<const PlacementResult> result)
{
    if (result && result == m_chatPlacement)
        return; // the window shows the loaded model's placement: not the scenario's
    if (result == m_mainPlacement)
        return;
    m_mainPlacement = std::move(result);
    if (m_shows == Shows::ScenarioModel)
        rebuild();
}

void LiveWafer::setScenario(const Scenario& scenario)
{
    m_scenario = scenario;
    if (m_shows == Shows::LoadedModel)
        rebuild();
}

void LiveWafer::setChatModel(const std::optional<SessionModelInfo>& info)
{
    m_model = info;
    if (m_shows == Shows::LoadedModel)
        rebuild();
    else
        updateHeader();
}

std::optional<TokenPacer> LiveWafer::pacer() const
{
    if (m_shows == Shows::ScenarioModel && m_scenarioPace)
        return TokenPacer::atPaceOf(*m_scenarioPace).slowedBy(slowMotion());
    return std::nullopt;
}

double LiveWafer::slowMotion() const
{
    if (!m_slowMotionOn || m_shows != Shows::ScenarioModel || !m_scenarioPace)
        return 1;
    return TokenPacer::slowMotionFor(m_scenarioPace->tokensPerSecondPerUser);
}

void LiveWafer::setSlowMotion(bool on)
{
    m_slowMotionBox->setChecked(on);
    if (on == m_slowMotionOn)
        return;
    m_slowMotionOn = on;
    updateHeader();
}

void LiveWafer::followSnapshot(const SessionSnapshot& snapshot)
{
    if (!m_frames)
        return;
    if (snapshot.isFinal()) // the answer is over: after its last token's frame the wafer rests
        m_idle = WantedFrame{-1, snapshot.promptTokens + snapshot.generatedTokens, nullptr};
    if (snapshot.generatedTokens <= 0 || snapshot.newPieces.empty()) {
        if (!m_frameBusy)
            startFrame();
        return;
    }
    m_wantedFrame =
        WantedFrame{snapshot.generatedTokens - 1, snapshot.promptTokens + snapshot.generatedTokens, snapshot.routing};
    m_lastFrame = m_wantedFrame;
    if (!m_frameBusy)
        startFrame();
}

void LiveWafer::viewChanged()
{
    if (m_switchingLayer)
        return; // the frame that brings the layer is on its way to the view
    if (!m_lastFrame || !m_frames || !m_stage || m_stage->view()->snapshot() == nullptr)
        return;
    // The mesh engine's still pictures (Links, Values) are the Dataflow dock's run: a token's dataflow frame made
    // for them would only put "no values" over the engine's values of the loaded model.
    if (const MeshLayer layer = m_stage->view()->layer(); isFrameLayer(layer) && layer != MeshLayer::Dataflow)
        return;
    m_wantedFrame = m_lastFrame;
    if (!m_frameBusy)
        startFrame();
}

void LiveWafer::startFrame()
{
    if (!m_wantedFrame && m_idle) {
        // The last token's frame stays up for one (shown) token's time, then the idle wafer.
        const std::optional<TokenPacer> pace = pacer();
        const double hold = pace && pace->isPaced() ? pace->slowMotion() / pace->tokensPerSecond() : 0;
        m_wantedFrame = m_idle;
        m_idle.reset();
        m_lastFrame = m_wantedFrame;
        QTimer::singleShot(int(std::ceil(1000 * std::min(hold, 1.0))), this, [this, turn = m_turn] {
            if (turn == m_turn && !m_frameBusy)
                startFrame();
        });
        return;
    }
    if (!m_wantedFrame || !m_frames)
        return;
    const auto [index, cacheTokens, routing] = *m_wantedFrame;
    m_wantedFrame.reset();
    // The frame and its images are made for the device, layer and zoom the view has now.
    int device = 0;
    MeshLayer layer = MeshLayer::Dataflow;
    views::ViewTransform transform;
    transform.scale = 0; // no view: the image alone
    if (m_stage) {
        noteShown();
        device = m_stage->view()->device();
        layer = m_dataflowWanted ? MeshLayer::Dataflow : m_stage->view()->layer();
        transform = m_stage->view()->transform();
    }
    m_frameBusy = true;
    using Made = std::pair<int, views::PreparedMeshFrame>;
    m_frameJobs.start(
        [source = m_frames, index = index, cacheTokens = cacheTokens, routing = routing, device, layer, transform,
         spare = m_recycled.take()]() mutable {
            return Made(index, views::prepareMeshFrame(source(index, cacheTokens, routing), device, layer, transform,
                                                       std::move(spare)));
        },
        [this](const Made& made) {
            m_frameBusy = false;
            if (m_stage && made.second.frame && m_dataflowWanted && made.second.layer == MeshLayer::Dataflow) {
                // The turn's layer comes up with its first frame, made beside the GUI thread.
                m_dataflowWanted = false;
                const QScopedValueRollback switching(m_switchingLayer, true);
                emit layerWanted(MeshLayer::Dataflow);
            }
            m_recycled.shown(made.second); // on stage or not, its images are the next job's but one
            if (m_stage && made.second.frame)
                m_stage->showPreparedFrame(Stage::FrameSource::Chat, made.second);
            if (made.first >= 0)
                emit frameShown(made.second.frame, made.first);
            else
                emit idleShown();
            startFrame();
        },
        [this](const Made&) {
            m_frameBusy = false; // a frame of a wafer replaced since
            startFrame();
        });
}

void LiveWafer::noteShown()
{
    // The next frames are made for the device and layer shown.
    m_shown->device.store(m_stage->view()->device());
    m_shown->kvLayer.store(m_stage->view()->layer() == MeshLayer::KvCache);
}

void LiveWafer::turnStarting()
{
    ++m_turn; // a rest still waiting for the last turn is dropped
    m_idle.reset();
    m_idleWanted = false;
    // The Dataflow layer comes up with the turn's first frame: its image is made with the frame, not on the GUI
    // thread as the layer changes (3-5 ms on a 2 x WSE-3 wafer, in the same event as the new dock's layout).
    m_dataflowWanted = m_stage && m_frames && m_stage->view()->layer() != MeshLayer::Dataflow &&
                       m_stage->view()->layer() != MeshLayer::KvCache;
    if (m_stage)
        noteShown();
}

void LiveWafer::showIdle()
{
    m_idleWanted = !m_frames; // then once the frame source is ready
    if (!m_frames)
        return;
    ++m_turn; // a rest still waiting for the last turn is dropped
    m_idle.reset();
    m_wantedFrame = WantedFrame{-1, m_lastFrame ? m_lastFrame->cacheTokens : 0, nullptr};
    m_lastFrame = m_wantedFrame;
    if (!m_frameBusy)
        startFrame();
}

void LiveWafer::dropFrames()
{
    m_frameJobs.cancel();
    m_frameBusy = false;
    m_wantedFrame.reset();
    m_lastFrame.reset();
}

void LiveWafer::rebuild()
{
    m_jobs.cancel();
    dropFrames();
    m_idle.reset();
    m_frames = {};
    m_scenarioPace.reset();
    m_error.clear();
    if (m_shows == Shows::LoadedModel)
        placeChatModel();
    else
        followMainPlacement();
    updateHeader();
    emit readyChanged();
}

void LiveWafer::followMainPlacement()
{
    if (!m_mainPlacement || !m_mainPlacement->scene)
        return;
    struct Followed
    {
        std::optional<TokenFrames> wafer;
        std::optional<SystemPace> pace;
        QString error;
    };
    m_jobs.start(
        [result = m_mainPlacement] {
            Followed out;
            const WaferScene& scene = *result->scene;
            if (auto timing = sceneSchedule(scene, scene.spec.kv); !timing)
                out.error = sceneErrorText(timing.error(), scene.spec);
            else
                out.wafer = TokenFrames::build(scene, &out.error, timing->schedule);
            // The scenario system's pace: the prediction the Layout dock shows for the placement on stage (its
            // workload, layout and serving stack), so the chat names the number every other view names.
            const std::optional<Layout> layout = result->layout();
            const ExploreState state =
                layout ? exploreResult(result, LayoutChoice{*layout, scene.spec.kv, 0}) : ExploreState{};
            if (state.predicted && state.prediction.tokensPerSecondPerUser > 0)
                out.pace = SystemPaces::paceOf(state.prediction, result->hardware().id, result->hardware().name);
            else if (out.error.isEmpty())
                out.error = state.predictionError.empty()
                                ? tr("no speed predicted for %1").arg(QString::fromStdString(result->hardware().name))
                                : QString::fromStdString(state.predictionError);
            return out;
        },
        [this](Followed out) {
            m_frames = out.wafer && out.pace ? out.wafer->frameSource(m_shown) : TokenFrames::Source{};
            m_scenarioPace = out.pace;
            m_error = out.error;
            updateHeader();
            emit readyChanged();
        });
}

void LiveWafer::placeChatModel()
{
    if (!m_model)
        return;
    Scenario scenario = m_scenario;
    scenario.modelPreset.clear();
    scenario.modelFile = QString::fromStdString(m_model->filePath);
    scenario.draftModel.clear();           // a preset drafts for a preset; the chat's model is placed alone
    if (m_model->config.contextLength > 0) // no KV cache beyond the context it was trained for (the bar says so)
        scenario.contextTokens = std::min(scenario.contextTokens, m_model->config.contextLength);
    struct Placed
    {
        std::optional<TokenFrames> wafer;
        std::shared_ptr<const PlacementResult> result;
        QString error;
    };
    m_jobs.start(
        [scenario, model = m_model->config] {
            Placed placed;
            // The session already read the model's header: place its own config (no second read of the file),
            // on the smallest sub-mesh that holds it.
            std::optional<ScenarioScene> scene =
                ScenarioScene::build(scenario, PresetLibrary(), QString(), &placed.error, true, &model, true);
            if (!scene)
                return placed;
            placed.wafer = TokenFrames::build(*scene, &placed.error);
            if (placed.wafer)
                placed.wafer->followRouting(*scene); // the chat's own model: light its routed experts
            placed.result = std::make_shared<const PlacementResult>(
                placementResultOf(std::make_shared<const WaferScene>(std::move(*scene))));
            return placed;
        },
        [this](Placed placed) {
            m_error = placed.error;
            if (!placed.wafer) {
                updateHeader();
                emit placementFailed(placed.error);
                return;
            }
            m_chatPlacement = placed.result;
            m_frames = placed.wafer->frameSource(m_shown);
            updateHeader();
            emit placementReady(m_chatPlacement);
            zoomToPlacedCores();
            emit readyChanged();
        });
}

bool LiveWafer::adoptChatPlacement(std::shared_ptr<const PlacementResult> result)
{
    if (m_shows != Shows::LoadedModel || !m_chatPlacement || !result || !result->scene ||
        result->model().id != m_chatPlacement->model().id)
        return false;
    QString error;
    std::optional<TokenFrames> wafer = TokenFrames::build(*result->scene, &error);
    if (!wafer)
        return false;
    wafer->followRouting(*result->scene);
    dropFrames();
    m_chatPlacement = std::move(result);
    m_frames = wafer->frameSource(m_shown);
    updateHeader();
    emit readyChanged();
    return true;
}

void LiveWafer::zoomToPlacedCores()
{
    // A model on a small sub-mesh: zoom the main view onto it (with a margin), so it is seen at once.
    if (!m_stage || !m_chatPlacement || m_stage->view()->snapshot() != m_chatPlacement->snapshot)
        return;
    const MeshSnapshot& s = *m_chatPlacement->snapshot;
    int left = s.meshCols, top = s.meshRows, right = 0, bottom = 0;
    for (const MeshRegion& r : s.regions) {
        left = std::min(left, r.x);
        top = std::min(top, r.y);
        right = std::max(right, r.x + r.width);
        bottom = std::max(bottom, r.y + r.height);
    }
    if (right <= left || bottom <= top)
        return;
    const double zoom = 0.8 * std::min(double(s.meshCols) / (right - left), double(s.meshRows) / (bottom - top));
    if (zoom > 1.5)
        m_stage->setViewState(zoom, QPointF((left + right) / 2.0, (top + bottom) / 2.0));
}

} // namespace ws
