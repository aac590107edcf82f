#include "app/present/windowstage.h"

#include "app/stage/stage.h"

#include "app/compare/comparecontroller.h"
#include "app/dataflow/dataflowdock.h"
#include "app/defects/defectsdock.h"
#include "app/scenario/scenarioformat.h"
#include "views/chat/chatstats.h"
#include "views/compare/tokenrace.h"
#include "views/mesh/meshview.h"

#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QLocale>
#include <QMainWindow>

#include <algorithm>

namespace ws {

WindowStage::WindowStage(WindowParts parts) : m_parts(std::move(parts)) {}

QString WindowStage::open(const TourStep& step, const QString& tourFile)
{
    Scenario scenario;
    if (!step.scenarioPath.isEmpty()) {
        // Relative to the tour's folder; ":/..." names a resource.
        const QString path =
            step.scenarioPath.startsWith(QLatin1String(":/")) || QDir::isAbsolutePath(step.scenarioPath)
                ? step.scenarioPath
                : QFileInfo(tourFile).dir().filePath(step.scenarioPath);
        QString error;
        const auto loaded = ScenarioFormat::load(path, &error);
        if (!loaded)
            return error;
        scenario = *loaded;
    } else {
        scenario.modelPreset = step.model;
        scenario.hardwarePreset = step.hardware;
        scenario.precision = step.precision;
        scenario.contextTokens = step.contextTokens;
        scenario.layer = m_parts.stage->layer();
    }
    m_parts.applyScenario(scenario);
    return m_parts.stage->error();
}

QString WindowStage::injectDefects(double deadFraction, quint64 seed)
{
    DefectsController* controller = m_parts.defects->controller();
    if (!controller->hasContext())
        return QStringLiteral("no placement to put defects on");
    const Status status = controller->injectRandom(deadFraction, seed);
    return status ? QString() : QString::fromStdString(status.error().message());
}

void WindowStage::setLayer(MeshLayer layer, int engineLayer)
{
    DataflowDock* dock = m_parts.dataflow;
    const DataflowController::FrameBatch batch(*dock->controller()); // the layer and the source: one frame
    m_parts.setLayer(layer);
    // The Dataflow layer plays the mesh engine's run of engineLayer, or the closed forms' whole token (-1); the
    // Links and Values layers show the engine's run of engineLayer (or of the dock's layer).
    const int source = engineLayer >= 0 || (isFrameLayer(layer) && layer != MeshLayer::Dataflow) ? 1 : 0;
    if (isFrameLayer(layer) && (source != dock->source() || (source == 1 && engineLayer != dock->executedLayer())))
        dock->setSource(source, engineLayer >= 0 ? engineLayer : dock->executedLayer());
    m_parts.dataflow->hide(); // the heatmap is the picture and the caption says what it shows (frames still flow)
    // The Defects layer's numbers live in its dock (the Dataflow dock shows itself with its layer).
    m_parts.defects->setVisible(layer == MeshLayer::Defects);
    if (layer == MeshLayer::Defects)
        m_parts.defects->raise();
}

void WindowStage::zoomTo(const QRectF& region)
{
    Stage* stage = m_parts.stage;
    stage->fitToWindow();
    const views::MeshView* view = stage->view();
    const auto result = m_parts.stage->result();
    if (region.isEmpty() || !result || !result->snapshot)
        return;
    const double fitScale = view->transform().scale;
    const QRectF mesh(0, 0, result->snapshot->meshCols, result->snapshot->meshRows);
    const QRectF shown = region.intersected(mesh);
    if (shown.isEmpty() || fitScale <= 0)
        return;
    const double scale = view->transform().scaleToShow(shown.size());
    stage->setViewState(std::max(1.0, scale / fitScale), shown.center());
}

void WindowStage::showComparison(bool show)
{
    if (show) {
        // The comparison of the model on the wafer.
        if (const auto result = m_parts.stage->result()) {
            auto settings = m_parts.comparison->settings();
            settings.modelId = QString::fromStdString(result->model().id);
            if (settings != m_parts.comparison->settings())
                m_parts.comparison->setSettings(settings);
        }
    }
    m_parts.raceDock->hide();
    m_parts.comparisonDock->setVisible(show);
    if (show) // most of the window: the panel's charts and table need the room more than the heatmap
        m_parts.window->resizeDocks({m_parts.comparisonDock}, {m_parts.window->height() * 3 / 4}, Qt::Vertical);
}

views::TokenRace* WindowStage::race() const
{
    // The controller's race, not the dock's widget: the window wraps every dock's content in a scroll area.
    return m_parts.comparison->race();
}

void WindowStage::startRace(double timeScale)
{
    m_parts.comparisonDock->hide(); // the race in its place
    m_parts.raceDock->show();
    m_parts.window->resizeDocks({m_parts.raceDock}, {m_parts.window->height() * 3 / 4}, Qt::Vertical);
    if (views::TokenRace* r = race()) {
        r->setExternalClock(true); // the tour's clock drives it
        timeScale > 0 ? r->setTimeScale(timeScale) : r->setDemoPace();
        r->advanceTo(0);
    }
}

double WindowStage::raceTimeScale() const
{
    const views::TokenRace* r = race();
    return r ? r->timeScale() : 1.0;
}

void WindowStage::showRaceAt(double seconds)
{
    if (views::TokenRace* r = race())
        r->advanceTo(seconds);
}

void WindowStage::showToken(int token, int tokens, double fraction, double waferMicrosecondsPerSecond)
{
    Q_UNUSED(token);
    Q_UNUSED(tokens);
    DataflowController* controller = m_parts.dataflow->controller();
    controller->pause();
    const double pace = waferMicrosecondsPerSecond * 1e-6;
    controller->seekFraction(fraction, std::abs(controller->waferSecondsPerSecond() - pace) > 1e-15
                                           ? pace
                                           : controller->waferSecondsPerSecond());
    // The heatmap follows the token from wafer to wafer.
    if (const int device = controller->tokenDevice(m_parts.stage->device());
        device >= 0 && device != m_parts.stage->device()) {
        m_parts.setDevice(device);
        m_parts.dataflow->hide(); // the window shows the dock again with the new wafer
    }
}

double WindowStage::tokenSeconds() const
{
    const auto schedule = m_parts.dataflow->controller()->schedule();
    return schedule ? schedule->seconds() : 0.0;
}

bool WindowStage::isBusy() const
{
    return m_parts.isBusy() || m_parts.defects->isBusy() || m_parts.dataflow->isExecuting();
}

QString WindowStage::lastError() const
{
    if (QString error = m_parts.stage->error(); !error.isEmpty())
        return error;
    const auto outcome = m_parts.defects->controller()->outcome();
    return outcome && !outcome->remapped() ? QString::fromStdString(outcome->error) : QString();
}

QMap<QString, QString> WindowStage::values() const
{
    const QLocale locale;
    QMap<QString, QString> v;
    if (const auto result = m_parts.stage->result()) {
        v[QStringLiteral("model")] = QString::fromStdString(result->model().name);
        v[QStringLiteral("hardware")] = QString::fromStdString(result->hardware().name);
        v[QStringLiteral("precision")] =
            QString::fromLatin1(precisionId(result->spec().workload.precision).data()).toUpper();
        v[QStringLiteral("devices")] = locale.toString(result->devices);
    }
    // The prediction every view shows for the scenario (the comparison's, the Layout dock's, `predict --json`'s),
    // not the Dataflow timetable's token (tokenSeconds: the closed forms' schedule the animation plays).
    if (const auto p = m_parts.comparison->scenarioPrediction(); p && p->secondsPerToken > 0) {
        v[QStringLiteral("token_time")] = views::ChatStats::formatSeconds(p->secondsPerToken, locale);
        v[QStringLiteral("tokens_per_second")] = locale.toString(p->tokensPerSecondPerUser, 'f', 0);
    }
    if (const auto outcome = m_parts.defects->controller()->outcome(); outcome && outcome->remapped()) {
        v[QStringLiteral("dead_cores")] = locale.toString(qlonglong(outcome->summary.deadCores));
        v[QStringLiteral("spares_used")] = locale.toString(qlonglong(outcome->summary.sparesUsed));
        if (outcome->secondsPerTokenBefore > 0 && outcome->secondsPerTokenAfter > 0) {
            v[QStringLiteral("token_time_before")] =
                views::ChatStats::formatSeconds(outcome->secondsPerTokenBefore, locale);
            v[QStringLiteral("token_time_after")] =
                views::ChatStats::formatSeconds(outcome->secondsPerTokenAfter, locale);
            v[QStringLiteral("devices_before")] = locale.toString(outcome->devicesBefore);
            v[QStringLiteral("devices_after")] = locale.toString(outcome->devicesAfter);
        }
    }
    const auto systems = m_parts.comparison->raceSystems();
    const auto [slowest, fastest] =
        std::minmax_element(systems.begin(), systems.end(), [](const auto& a, const auto& b) {
            return a.pace.tokensPerSecondPerUser < b.pace.tokensPerSecondPerUser;
        });
    if (fastest != systems.end()) {
        v[QStringLiteral("fastest")] = fastest->label;
        v[QStringLiteral("fastest_tokens_per_second")] = locale.toString(fastest->pace.tokensPerSecondPerUser, 'f', 0);
        v[QStringLiteral("slowest")] = slowest->label;
        v[QStringLiteral("slowest_tokens_per_second")] = locale.toString(slowest->pace.tokensPerSecondPerUser, 'f', 0);
    }
    return v;
}

} // namespace ws
