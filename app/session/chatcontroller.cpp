#include "app/session/chatcontroller.h"

#include "app/common/presetlibrary.h"
#include "app/session/livewafer.h"
#include "app/session/modeldownloader.h"
#include "app/session/modelmenu.h"
#include "app/session/runcontroller.h"
#include "app/session/systempaces.h"
#include "engine/session/generatorsessionmodel.h"
#include "views/chat/chatpane.h"

#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QMenu>
#include <QThread>

#include <algorithm>

namespace ws {

ChatController::ChatController(QWidget* window)
    : QObject(window), m_window(window), m_pane(new views::ChatPane(window)), m_live(new LiveWafer(this)),
      m_run(new RunController(this)), m_downloader(new ModelDownloader(this)),
      m_menu(new ModelMenu(window, m_downloader)), m_paceJobs(this)
{
    m_menu->addDockActions({m_pane->toggleViewAction()});
    connect(m_menu, &ModelMenu::openRequested, this, &ChatController::openModelFile);
    m_pane->addHeaderRow(m_live->row());
    retranslate();
    window->installEventFilter(this); // its LanguageChange retranslates the menu and the wafer row
    connect(m_live, &LiveWafer::placementReady, this,
            [this](std::shared_ptr<const PlacementResult> result) { emit waferReady(result->snapshot); });
    connect(m_live, &LiveWafer::placementFailed, this, &ChatController::waferFailed);
    connect(m_live, &LiveWafer::frameShown, this,
            [this](std::shared_ptr<const MeshFrame> frame, int) { emit meshFrameReady(frame); });

    connect(m_pane, &views::ChatPane::openModelRequested, m_menu, &ModelMenu::chooseModelFile);
    connect(m_pane, &views::ChatPane::downloadModelRequested, m_menu, &ModelMenu::showDownloadDialog);
    connect(m_pane, &views::ChatPane::modelFileDropped, this, &ChatController::openModelFile);
    connect(m_pane, &views::ChatPane::sendRequested, this, &ChatController::sendTurn);
    connect(m_pane, &views::ChatPane::stopRequested, m_run, &RunController::stop);
    connect(m_pane, &views::ChatPane::clearRequested, m_run, &RunController::stop);

    connect(m_run, &RunController::snapshotReady, this, [this](std::shared_ptr<const SessionSnapshot> s) {
        m_pane->setSnapshot(s);
        m_live->followSnapshot(*s);
        for (const TokenPiece& piece : s->newPieces)
            if (piece.token >= 0)
                m_turnTokens.push_back(piece.token);
        emit sessionSnapshotReady(s);
        if (s->state == TurnState::Finished || s->state == TurnState::Stopped) {
            const std::string& prompt = m_turn.messages.empty() ? std::string() : m_turn.messages.back().content;
            emit turnDecoded(m_turn, m_turnTokens, QString::fromStdString(prompt + s->text));
        }
    });
    connect(m_run, &RunController::runFailed, m_pane,
            [this](quint64, const QString& message) { m_pane->showError(message); });
    connect(m_run, &RunController::modelLoaded, this, [this] {
        m_pane->setModelStatus({});
        m_pane->setModel(m_run->modelInfo());
        if (m_run->modelInfo()) {
            m_menu->addRecent(QString::fromStdString(m_run->modelInfo()->filePath));
            if (!m_systemsFromWindow)
                predictSystems(m_run->modelInfo()->config);
            m_live->setChatModel(m_run->modelInfo());
            emit modelChanged(m_run->modelInfo()->config);
        }
    });
    connect(m_run, &RunController::modelLoadFailed, this, [this](const QString& message) {
        m_pane->setModelStatus(tr("Could not open %1: %2").arg(QDir::toNativeSeparators(m_loadingPath), message));
    });
}

ChatController::~ChatController() = default;

QMenu* ChatController::modelMenu() const
{
    return m_menu->menu();
}

void ChatController::retranslate()
{
    m_menu->retranslate();
    m_live->retranslate();
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
    m_paceJobs.cancel(); // a prediction still running must not replace the window's systems
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
    m_paceJobs.start(
        [model, outputTokens] {
            return SystemPaces::predict(model, PresetLibrary(), SystemPaces::chatWorkload(128, outputTokens));
        },
        [this](SystemPaces paces) { applySystems(std::move(paces.systems)); });
}

void ChatController::setWaferScenario(const Scenario& scenario)
{
    m_live->setScenario(scenario);
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
    options.contextLength = m_pane->settings().contextLength; // the loader's memory check is for these
    options.kvCacheType = m_pane->settings().kvCache;
    options.mapWeights = m_pane->settings().mapWeights;
    m_run->loadModel([file, options]() -> Expected<std::unique_ptr<SessionModel>> {
        Expected<std::unique_ptr<GeneratorSessionModel>> model = GeneratorSessionModel::load(file, options);
        if (!model)
            return model.error();
        return std::unique_ptr<SessionModel>(std::move(*model));
    });
}

void ChatController::chooseModelFile()
{
    m_menu->chooseModelFile();
}

void ChatController::showDownloadDialog()
{
    m_menu->showDownloadDialog();
}

void ChatController::sendTurn()
{
    const views::ChatSettings settings = m_pane->settings();
    RunRequest request;
    request.turn.messages = m_pane->conversation();
    request.turn.mode = settings.mode;
    request.turn.sampling = settings.sampling;
    request.turn.maxTokens = settings.maxTokens;
    request.turn.contextLength = settings.contextLength;
    request.turn.kvCache = settings.kvCache;
    request.turn.contextFull = settings.contextFull;
    if (const SystemPace* pace = m_pane->paceSystem())
        request.pacer = TokenPacer::atPaceOf(*pace);
    if (const std::optional<TokenPacer> wafer = m_live->pacer())
        request.pacer = *wafer;  // the wafer plays the scenario's model: its pace is the text's
    request.systems = m_systems; // the wafer's frames are made off the worker (LiveWafer::followSnapshot)
    m_live->turnStarting();
    m_turn = request.turn;
    m_turnTokens.clear();
    m_run->start(std::move(request));
}

int ChatController::defaultGeneratorThreads()
{
    return std::max(1, QThread::idealThreadCount() - 1);
}

QStringList ChatController::recentModels() const
{
    return m_menu->recentModels();
}

} // namespace ws
