#pragma once
// Wires the live session together for the main window: the chat pane (a dock
// widget), the run controller (worker thread and model), the Model menu
// (app/session/modelmenu.h: open, recent files, download from URL) and the
// main wafer that follows the chat (app/session/livewafer.h: what it shows,
// its per-token frames and pace). The race follows sessionSnapshotReady()
// (the comparison's TokenRace, ComparisonController::followSession).
// Background work (the systems' paces, placements, schedules) runs through
// app/common/jobtracker.h, so a newer model or scenario drops older results.
// The main window needs only:
//
//     auto* chat = new ws::ChatController(this);
//     addDockWidget(Qt::RightDockWidgetArea, chat->pane());
//     menuBar()->addMenu(chat->modelMenu());
//     chat->liveWafer()->setMainView(meshView); // and its placementReady() into the view
//     chat->setWaferScenario(scenario()); // and again when the scenario changes
//
// setSystems() overrides the paces the controller works out itself.

#include "app/common/jobtracker.h"
#include "app/scenario/scenario.h"
#include "engine/model/modelconfig.h"
#include "engine/session/chatturn.h"
#include "engine/session/sessionsnapshot.h"

#include <QObject>
#include <QStringList>

#include <functional>
#include <memory>
#include <vector>

class QMenu;
class QWidget;

namespace ws {

namespace views {
class ChatPane;
}
class LiveWafer;
class ModelDownloader;
class ModelMenu;
class RunController;

class ChatController : public QObject
{
    Q_OBJECT
public:
    // `window` parents the pane, the menu and the dialogs.
    explicit ChatController(QWidget* window);
    ~ChatController() override;

    views::ChatPane* pane() const { return m_pane; }
    // The main wafer's part in the session: what it shows and its frames.
    LiveWafer* liveWafer() const { return m_live; }
    QMenu* modelMenu() const;
    RunController* runController() const { return m_run; }
    ModelDownloader* downloader() const { return m_downloader; }

    // Predicted speed of each compared system for the loaded model (from the
    // engine's predictors): the pace choices and the stats line use them.
    // Without this call, every hardware preset is predicted for one user at
    // BF16 when a model loads (app/session/systempaces.h, fastest first).
    void setSystems(std::vector<SystemPace> systems);
    // The wafer the chat's model is placed on when the wafer shows the loaded
    // model (hardware, precision, context, defects; the model is the loaded
    // file): placed off the GUI thread, waferReady() gives its heatmap.
    void setWaferScenario(const Scenario& scenario);

    QStringList recentModels() const;
    // Threads for the generator: all cores but one (the GUI thread's), at least one.
    static int defaultGeneratorThreads();

public slots:
    void openModelFile(const QString& path);
    void chooseModelFile();
    void showDownloadDialog();

signals:
    // The loaded model's architecture: becomes the placed model.
    void modelChanged(const ws::ModelConfig& config);
    // In step with the tokens of the chat: the main wafer's frame of the latest token, once shown.
    void meshFrameReady(std::shared_ptr<const ws::MeshFrame> frame);
    // The loaded model placed on the wafer scenario (LoadedModel mode; no dataflow yet).
    void waferReady(std::shared_ptr<const ws::MeshSnapshot> snapshot);
    void waferFailed(const QString& message);
    // Every accepted session snapshot (for the race view).
    void sessionSnapshotReady(std::shared_ptr<const ws::SessionSnapshot> snapshot);
    // A turn ended (finished or stopped): its request as sent (the conversation, the prompt mode), the tokens of
    // its answer in order, and the prompt and answer's text (the Values layer decodes them on the mesh engine).
    void turnDecoded(const ws::TurnRequest& request, const std::vector<ws::TokenId>& answer, const QString& text);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void retranslate();
    void sendTurn();
    void applySystems(std::vector<SystemPace> systems);
    // Predicts the compared systems' speeds for `model` from the hardware presets.
    void predictSystems(const ModelConfig& model);

    QWidget* m_window;
    views::ChatPane* m_pane;
    LiveWafer* m_live;
    RunController* m_run;
    ModelDownloader* m_downloader;
    ModelMenu* m_menu;
    std::vector<SystemPace> m_systems;
    TurnRequest m_turn;                // the turn running or last run, as sent
    std::vector<TokenId> m_turnTokens; // its answer's tokens so far
    bool m_systemsFromWindow = false;  // setSystems() was called: keep the window's systems
    JobTracker m_paceJobs;             // the systems' paces for the latest loaded model
    QString m_loadingPath;
};

} // namespace ws
