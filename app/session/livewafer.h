#pragma once
// The one wafer that lives with the chat: the main heatmap follows the
// answer, token by token. Per session the user chooses what it shows (the
// row under the chat's header):
// - the scenario's model (default): the text comes from the small model on
//   this CPU, and for every token the main wafer plays one token of the
//   scenario model's dataflow (e.g. Qwen3-32B on 2 x WSE-3), paced at that
//   system's predicted speed (SystemPaces, TokenPacer: the one pacing formula);
// - the loaded model: the chat's model is placed on the scenario's hardware
//   (on the smallest sub-mesh that holds it when it is far smaller than a
//   wafer, PlacementOptions::fitSubMesh) and becomes the main view's placement.
// Either way the KV layer holds the conversation's tokens so far
// (tokenframes.h). Slow motion (on by default, a check box in the row): the
// scenario model's pace is shown slowed to about reading pace, by the factor
// TokenPacer::slowMotionFor gives ("slowed 100×"), so every token's frame can
// be seen; the predicted rate is still the one named. When a turn ends the
// wafer goes back to idle (nothing lit). Schedules, placements and predictions run through
// app/common/jobtracker.h; a newer request drops older results.

#include "app/common/jobtracker.h"
#include "app/common/placementresult.h"
#include "app/scenario/scenario.h"
#include "app/session/tokenframes.h"
#include "app/stage/preparedframes.h"
#include "engine/session/sessionmodel.h"
#include "engine/session/tokenpacer.h"

#include <QObject>

#include <atomic>
#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QWidget;

namespace ws {

class Stage;

class LiveWafer : public QObject
{
    Q_OBJECT
public:
    enum class Shows
    {
        ScenarioModel,
        LoadedModel
    };

    explicit LiveWafer(QObject* parent);

    // The choice and the header line saying which model wrote the text and which model's timing is shown.
    QWidget* row() const { return m_row; }
    Shows shows() const { return m_shows; }
    void setShows(Shows shows);
    // The main heatmap's stage: frames go to it (as the Chat source), for the device it shows; its scene is the
    // window's own placement (setMainPlacement), and a change of its layer or wafer makes the frame again.
    void setStage(Stage* stage);
    // The window's own placement (the scenario's model): its schedule and predicted pace drive the frames in
    // ScenarioModel mode. Null when there is none.
    void setMainPlacement(std::shared_ptr<const PlacementResult> result);
    // The hardware, precision, context and defects the loaded model is placed on.
    void setScenario(const Scenario& scenario);
    void setChatModel(const std::optional<SessionModelInfo>& info);

    // The frames of the mode's wafer (empty until its schedule is ready).
    TokenFrames::Source frameSource() const { return m_frames; }
    // For the run request: in ScenarioModel mode the pace of the scenario's system (slowed in slow motion).
    std::optional<TokenPacer> pacer() const;
    void setSlowMotion(bool on);
    bool slowMotionOn() const { return m_slowMotionOn; }
    // The factor the text and wafer are slowed by now: 1 when off, not paced or already at reading pace.
    double slowMotion() const;
    // The scenario system's predicted pace (ScenarioModel mode), when known.
    const std::optional<SystemPace>& scenarioPace() const { return m_scenarioPace; }
    // The loaded model's placement shown in the main view (LoadedModel mode), when ready.
    std::shared_ptr<const PlacementResult> chatPlacement() const { return m_chatPlacement; }
    // A layout edit of the loaded model's placement (the Layout dock): the wafer plays the chat on it from now on.
    // False (nothing changes) unless the wafer shows the loaded model and `result` places that same model.
    bool adoptChatPlacement(std::shared_ptr<const PlacementResult> result);
    // Every snapshot of the chat, on the GUI thread: the frame of its last token is made off the GUI thread
    // (one at a time: while one is being made, only the latest snapshot waits) and then shown in the main view;
    // the final snapshot of a turn (ended, stopped or failed) brings the idle wafer back.
    void followSnapshot(const SessionSnapshot& snapshot);
    bool isReady() const { return bool(m_frames); }
    // The main view's layer or device changed: the last token's frame again, made for them (the KV layer with
    // the conversation's tokens, the activity of the wafer now shown).
    void viewChanged();
    // A turn is about to stream: the main view shows the Dataflow layer unless it shows the KV layer (which grows),
    // from the turn's first frame on (layerWanted just before it is shown).
    void turnStarting();
    // The idle wafer (nothing lit, the KV layer with the conversation's tokens so far) in the main view now,
    // made the Chat source: e.g. on entering Chat mode before a turn has played. Waits for the frame source.
    void showIdle();
    // The loaded model on a small sub-mesh of the main view: zoom onto it (with a margin), as when it was placed;
    // nothing otherwise. A mode that fits the whole wafer again (a dot of a model) calls it after.
    void zoomToPlacedCores();
    void retranslate();

signals:
    // LoadedModel mode: the chat's model placed on the scenario's hardware, for the main view.
    void placementReady(std::shared_ptr<const ws::PlacementResult> result);
    void placementFailed(const QString& message);
    // Back to the scenario's model: the window shows its own placement again.
    void mainPlacementWanted();
    // The frame source (and pace) changed: ready for the next turn.
    void readyChanged();
    void layerWanted(ws::MeshLayer layer);
    // The main view now shows `frame`, the dataflow of token `index` (0-based) of the turn.
    void frameShown(std::shared_ptr<const ws::MeshFrame> frame, int index);
    // The turn is over and the main view shows the idle wafer (nothing lit).
    void idleShown();

private:
    void buildRow(); // livewafertext.cpp
    void rebuild();
    void dropFrames(); // the frames asked for or being made, of a wafer no longer shown
    void placeChatModel();
    void followMainPlacement();
    void updateHeader();
    void noteShown();
    void startFrame();

    QWidget* m_row;
    QComboBox* m_choice;
    QCheckBox* m_slowMotionBox;
    QLabel* m_header;
    Stage* m_stage = nullptr;
    Shows m_shows = Shows::ScenarioModel;
    bool m_slowMotionOn = true;
    Scenario m_scenario;
    std::optional<SessionModelInfo> m_model;
    std::shared_ptr<const PlacementResult> m_mainPlacement;
    std::shared_ptr<const PlacementResult> m_chatPlacement;
    std::optional<SystemPace> m_scenarioPace;
    TokenFrames::Source m_frames;
    std::shared_ptr<TokenFrames::Shown> m_shown = std::make_shared<TokenFrames::Shown>();
    bool m_idleWanted = false; // showIdle() before the frame source was ready
    QString m_error;
    JobTracker m_jobs;         // the schedule and pace, or the chat model's placement, of the latest request
    JobTracker m_frameJobs;    // the frame of the latest token
    RecycledImages m_recycled; // the images its next frame is made in
    bool m_frameBusy = false;
    struct WantedFrame
    {
        int index = 0;                                // token index
        int cacheTokens = 0;                          // tokens in the cache
        std::shared_ptr<const ExpertRouting> routing; // the token's routed experts (MoE), or null
    };
    std::optional<WantedFrame> m_wantedFrame; // still to make
    std::optional<WantedFrame> m_lastFrame;   // the last one asked for
    std::optional<WantedFrame> m_idle;        // the turn ended: the rest to show after its last frame
    bool m_dataflowWanted = false;            // a turn started: its first frame brings the Dataflow layer up
    bool m_switchingLayer = false;            // that frame is bringing it up (viewChanged need not remake it)
    int m_turn = 0;
};

} // namespace ws
