#include "app/session/chatcontroller.h"

#include "app/session/chatwafer.h"
#include "app/session/downloaddialog.h"
#include "app/session/modeldownloader.h"
#include "app/session/runcontroller.h"
#include "app/session/systempaces.h"
#include "app/common/presetlibrary.h"
#include "engine/session/generatorsessionmodel.h"
#include "views/chatpane.h"
#include "views/meshview.h"
#include "views/racepane.h"

#include <QDir>
#include <QDockWidget>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMenu>
#include <QSettings>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace ws {

namespace {
const char* kRecentKey = "session/recentModels";
const char* kLastDirKey = "session/lastModelDirectory";
} // namespace

ChatController::ChatController(QWidget* window)
    : QObject(window),
      m_window(window),
      m_pane(new views::ChatPane(window)),
      m_race(new views::RacePane(window)),
      m_waferDock(new QDockWidget(window)),
      m_waferView(new views::MeshView(m_waferDock)),
      m_run(new RunController(this)),
      m_downloader(new ModelDownloader(this)),
      m_modelMenu(new QMenu(window)),
      m_recentMenu(new QMenu(window))
{
    m_openAction = m_modelMenu->addAction(QString(), this, &ChatController::chooseModelFile);
    m_modelMenu->addMenu(m_recentMenu);
    m_downloadAction = m_modelMenu->addAction(QString(), this, &ChatController::showDownloadDialog);
    m_modelMenu->addSeparator();
    m_modelMenu->addAction(m_pane->toggleViewAction());
    m_modelMenu->addAction(m_race->toggleViewAction());
    m_modelMenu->addAction(m_waferDock->toggleViewAction());
    m_waferDock->setObjectName(QStringLiteral("liveWaferDock"));
    m_waferDock->setWidget(m_waferView);
    m_waferView->setLayer(MeshLayer::Dataflow);
    retranslate();
    window->installEventFilter(this); // its LanguageChange retranslates the menu and the wafer dock
    connect(this, &ChatController::waferReady, m_waferView, &views::MeshView::setSnapshot);
    connect(this, &ChatController::meshFrameReady, m_waferView, &views::MeshView::setFrame);
    connect(this, &ChatController::waferFailed, m_waferView, [this](const QString& message) {
        m_waferView->setSnapshot(nullptr);
        m_waferView->setEmptyText(tr("The model could not be placed on this wafer: %1").arg(message));
    });
    rebuildRecentMenu();

    connect(m_pane, &views::ChatPane::openModelRequested, this, &ChatController::chooseModelFile);
    connect(m_pane, &views::ChatPane::downloadModelRequested, this, &ChatController::showDownloadDialog);
    connect(m_pane, &views::ChatPane::modelFileDropped, this, &ChatController::openModelFile);
    connect(m_pane, &views::ChatPane::sendRequested, this, &ChatController::sendTurn);
    connect(m_pane, &views::ChatPane::stopRequested, m_run, &RunController::stop);
    connect(m_pane, &views::ChatPane::clearRequested, m_run, &RunController::stop);

    connect(m_run, &RunController::snapshotReady, this, [this](std::shared_ptr<const SessionSnapshot> s) {
        m_pane->setSnapshot(s);
        m_race->setSnapshot(s);
        if (s->mesh)
            emit meshFrameReady(s->mesh);
        emit sessionSnapshotReady(s);
    });
    connect(m_run, &RunController::runFailed, m_pane, [this](quint64, const QString& message) {
        m_pane->showError(message);
    });
    connect(m_run, &RunController::modelLoaded, this, [this] {
        m_pane->setModelStatus({});
        m_pane->setModel(m_run->modelInfo());
        if (m_run->modelInfo()) {
            addRecent(QString::fromStdString(m_run->modelInfo()->filePath));
            if (!m_systemsFromWindow)
                predictSystems(m_run->modelInfo()->config);
            placeChatModel();
            emit modelChanged(m_run->modelInfo()->config);
        }
    });
    connect(m_run, &RunController::modelLoadFailed, this, [this](const QString& message) {
        m_pane->setModelStatus(tr("Could not open %1: %2").arg(QDir::toNativeSeparators(m_loadingPath), message));
    });
}

ChatController::~ChatController() = default;

void ChatController::retranslate()
{
    m_modelMenu->setTitle(tr("&Model"));
    m_recentMenu->setTitle(tr("Open &Recent"));
    m_openAction->setText(tr("&Open Model…"));
    m_downloadAction->setText(tr("&Download from URL…"));
    m_waferDock->setWindowTitle(tr("Live Wafer"));
    if (!m_waferView->snapshot())
        m_waferView->setEmptyText(tr("Open a model: it is placed on the wafer here and lights up token by token."));
    rebuildRecentMenu();
}

bool ChatController::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_window && event->type() == QEvent::LanguageChange)
        retranslate();
    return QObject::eventFilter(watched, event);
}

void ChatController::setSystems(std::vector<SystemPace> systems)
{
    m_systemsFromWindow = true;
    applySystems(std::move(systems));
}

void ChatController::applySystems(std::vector<SystemPace> systems)
{
    m_systems = std::move(systems);
    m_pane->setSystems(m_systems);
}

void ChatController::predictSystems(const ModelConfig& model)
{
    // Off the GUI thread: a wafer prediction places the model first.
    const int64_t outputTokens = m_pane->settings().maxTokens;
    auto* watcher = new QFutureWatcher<SystemPaces>(this);
    connect(watcher, &QFutureWatcher<SystemPaces>::finished, this, [this, watcher] {
        watcher->deleteLater();
        if (!m_systemsFromWindow)
            applySystems(watcher->result().systems);
    });
    watcher->setFuture(QtConcurrent::run([model, outputTokens] {
        const PresetLibrary presets;
        QStringList ids;
        for (const char* id : {"wse3", "wse2", "b200", "h200", "h100", "a100", "groq-lpu"})
            ids << QString::fromLatin1(id);
        for (const QString& id : presets.hardwareIds()) {
            if (!ids.contains(id))
                ids << id;
        }
        return SystemPaces::predict(model, presets, ids, SystemPaces::chatWorkload(128, outputTokens));
    }));
}

void ChatController::setMeshFrameSource(MeshFrameSource source)
{
    m_meshFrames = std::move(source);
}

void ChatController::setWaferScenario(const Scenario& scenario)
{
    m_waferScenario = scenario;
    placeChatModel();
}

void ChatController::placeChatModel()
{
    if (!m_run->modelInfo())
        return;
    Scenario scenario = m_waferScenario;
    const bool newModel = m_placedModel != m_run->modelInfo()->filePath;
    scenario.modelPreset.clear();
    scenario.modelFile = QString::fromStdString(m_run->modelInfo()->filePath);
    const quint64 request = ++m_waferRequest;
    if (newModel) {
        m_placedModel = m_run->modelInfo()->filePath;
        m_firstWaferOfModel = request;
    }
    struct Placed
    {
        std::optional<ChatWafer> wafer;
        QString error;
    };
    auto* watcher = new QFutureWatcher<Placed>(this);
    connect(watcher, &QFutureWatcher<Placed>::finished, this, [this, watcher, request] {
        watcher->deleteLater();
        if (request != m_waferRequest)
            return; // a newer model or scenario is being placed
        const Placed placed = watcher->result();
        if (!placed.wafer) {
            emit waferFailed(placed.error);
            return;
        }
        setMeshFrameSource(placed.wafer->frameSource());
        emit waferReady(placed.wafer->snapshot);
        if (request == m_firstWaferOfModel)
            m_waferDock->show(); // a newly loaded model: show where it sits
    });
    watcher->setFuture(QtConcurrent::run([scenario] {
        Placed placed;
        const PresetLibrary presets;
        const std::optional<ScenarioScene> scene =
            ScenarioScene::build(scenario, presets, QString(), &placed.error, true);
        if (scene)
            placed.wafer = ChatWafer::build(*scene, &placed.error);
        return placed;
    }));
}

void ChatController::openModelFile(const QString& path)
{
    if (m_pane->isRunning())
        m_pane->setRunning(false); // the running turn is dropped with the old model
    m_loadingPath = path;
    m_pane->setModelStatus(tr("Loading %1…").arg(QFileInfo(path).fileName()));
    const std::string file = path.toStdString();
    GeneratorSessionModel::Options options;
    options.threads = defaultGeneratorThreads();
    m_run->loadModel([file, options]() -> Expected<std::unique_ptr<SessionModel>> {
        Expected<std::unique_ptr<GeneratorSessionModel>> model = GeneratorSessionModel::load(file, options);
        if (!model)
            return model.error();
        return std::unique_ptr<SessionModel>(std::move(*model));
    });
}

void ChatController::chooseModelFile()
{
    QSettings settings;
    const QString dir = settings.value(QLatin1String(kLastDirKey), ModelDownloader::defaultDirectory()).toString();
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open Model"), dir,
                                                      tr("Models (*.gguf *.bin);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(QLatin1String(kLastDirKey), QFileInfo(path).absolutePath());
    openModelFile(path);
}

void ChatController::showDownloadDialog()
{
    if (!m_downloadDialog) {
        m_downloadDialog = new DownloadDialog(m_downloader, m_window);
        connect(m_downloadDialog, &DownloadDialog::modelDownloaded, this, &ChatController::openModelFile);
    }
    m_downloadDialog->show();
    m_downloadDialog->raise();
    m_downloadDialog->activateWindow();
}

void ChatController::sendTurn()
{
    const views::ChatSettings settings = m_pane->settings();
    RunRequest request;
    request.turn.messages = m_pane->conversation();
    request.turn.mode = settings.mode;
    request.turn.sampling = settings.sampling;
    request.turn.maxTokens = settings.maxTokens;
    if (const SystemPace* pace = m_pane->paceSystem())
        request.pacer = TokenPacer::atPaceOf(*pace);
    request.systems = m_systems;
    request.meshFrame = m_meshFrames;
    m_run->start(std::move(request));
}

int ChatController::defaultGeneratorThreads()
{
    return std::max(1, QThread::idealThreadCount() - 1);
}

QStringList ChatController::recentModels() const
{
    return QSettings().value(QLatin1String(kRecentKey)).toStringList();
}

void ChatController::addRecent(const QString& path)
{
    QStringList recent = recentModels();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecentModels)
        recent.removeLast();
    QSettings().setValue(QLatin1String(kRecentKey), recent);
    rebuildRecentMenu();
}

void ChatController::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = recentModels();
    for (const QString& path : recent) {
        QAction* action = m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] { openModelFile(path); });
        action->setToolTip(QDir::toNativeSeparators(path));
        action->setEnabled(QFileInfo::exists(path));
    }
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
}

} // namespace ws
