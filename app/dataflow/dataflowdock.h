#pragma once
// The "Dataflow" dock: plays one decode token of the shown placement on the
// heatmap (when its Dataflow layer is on) with a playback bar, the per-token
// timeline, the KV layout toggle (concat vs shift, with both capacities) and
// the timing constants with their sources. It is shown while the heatmap's
// Dataflow layer is. It owns the DataflowController;
// its actions (View menu) play or pause with Space and step from phase to phase with Left and Right.
// Its source is the closed forms (the whole token, region by region) or the mesh engine (one layer executed
// core by core, run off the GUI thread; each core lights when it computes, each message along its route).
// It also serves the Links and Values layers, the engine run's still pictures: on either the source is the
// mesh engine; Values runs with the weights of the model file the chat loaded (setWeightsFile).
// A third source is the wafer's prefill of the scenario's prompt (buildPrefillSetup): the prompt's chunks
// pipelined through the layers, then the first token, lasting the predictor's time to first token.

#include "app/common/jobtracker.h"
#include "app/common/placementresult.h"
#include "app/dataflow/dataflowcontroller.h"
#include "app/dataflow/dataflowschedule.h"
#include "app/stage/preparedframes.h"

#include "views/charts/charttable.h"

#include <QDockWidget>

#include <memory>
#include <optional>

class QAction;
class QComboBox;
class QLabel;
class QSpinBox;
class QTabWidget;
class QTableWidget;

namespace ws {

class Stage;

namespace views {
class ElidedLabel;
class PlaybackBar;
class TimelineChart;
} // namespace views

class DataflowDock : public QDockWidget
{
    Q_OBJECT

public:
    // Follows the stage: the scene it shows, its layer and wafer; frames go to it as the Dataflow source.
    DataflowDock(Stage* stage, QWidget* parent = nullptr);

    void setResult(std::shared_ptr<const PlacementResult> result);
    // Called when the heatmap's layer changes: frames go to the view only on the Dataflow layer, and the dock
    // shows with a frame layer (setShowsWithLayer).
    void layerChanged();
    // Whether the dock shows itself with its layers (the default) or stays as it is (a presentation, where the
    // heatmap is the picture: showing it for a moment would lay out the window and its timeline for nothing).
    void setShowsWithLayer(bool shows) { m_showsWithLayer = shows; }
    void setKvPlacement(KvPlacement kv);
    // The weights behind the Values layer (the chat's loaded model; empty: none) and the turn it decodes (the
    // chat's last one; before any, a completion of "Once upon a time").
    void setWeightsFile(const QString& path);
    void setValuesTurn(ValuesTurn turn);
    const ValuesTurn& valuesTurn() const { return m_valuesTurn; }
    // The prompt plays in about this many real seconds (at the playback bar's nearest pace).
    static constexpr double kPrefillPlaySeconds = 16;
    QString infoText() const; // the line beside the KV choice (the KV capacities, or the prefill's summary)

    DataflowController* controller() { return &m_controller; }
    views::PlaybackBar* playbackBar() const { return m_bar; }
    views::TimelineChart* timeline() const { return m_timeline; }
    QString errorText() const { return m_error; }
    QString statusText() const; // the line beside the layer: the frame's time, the engine's run, an error
    // 0: the closed forms' whole token; 1: the mesh engine's run of `layer` (see buildExecutedSetup); 2: the
    // prompt's prefill (buildPrefillSetup).
    void setSource(int source, int layer = 0);
    bool isExecuting() const { return m_jobs.isBusy(); }
    int source() const;
    int executedLayer() const; // the layer the mesh engine source runs
    // Play / pause (Space), step back (Left), step forward (Right): window shortcuts, enabled with the dock.
    QList<QAction*> playbackActions() const { return {m_playAction, m_backAction, m_forwardAction}; }

signals:
    // The mesh engine's run now playing (null: the closed forms, or none) and its layer.
    void executedChanged(std::shared_ptr<const MeshPlayback> run, int layer);
    // What crosses each wafer-to-wafer link per token (texts[d]: wafer d to d + 1, empty where none), with tooltips.
    void waferLinksChanged(const QStringList& texts, const QStringList& toolTips);

protected:
    void changeEvent(QEvent* event) override;

private:
    void deviceChanged(); // the frames follow the wafer shown; the dock stays shown or hidden as it is
    void followStage(bool showWithLayer);
    void rebuild();
    void apply();
    void focusExecutedLayer();
    void emitWaferLinks();
    void showFrame(std::shared_ptr<const MeshFrame> frame);
    void updateState();
    void fillTables();
    void showPrefillSummary(); // dataflowdocktexts.cpp
    void retranslate();

    Stage* m_stage = nullptr;
    DataflowController m_controller;
    views::PlaybackBar* m_bar = nullptr;
    views::TimelineChart* m_timeline = nullptr;
    QAction* m_playAction = nullptr;
    QAction* m_backAction = nullptr;
    QAction* m_forwardAction = nullptr;
    QComboBox* m_source = nullptr;
    QSpinBox* m_layer = nullptr;
    QComboBox* m_kv = nullptr;
    views::ElidedLabel* m_kvLabel = nullptr;    // its whole text in its tooltip
    views::ElidedLabel* m_frameLabel = nullptr; // its whole text in its tooltip
    QTabWidget* m_tabs = nullptr;
    QTableWidget* m_breakdown = nullptr;
    QTableWidget* m_params = nullptr;
    views::ChartTable m_breakdownRows; // what m_breakdown shows and exports
    views::ChartTable m_paramRows;     // what m_params shows and exports
    std::shared_ptr<const PlacementResult> m_result;
    std::optional<DataflowSetup> m_setup;
    // The closed forms' whole token for m_result and a KV placement (it places the model: milliseconds), kept
    // so that switching the source back and forth (a tour's engine layer, then the token) does not redo it.
    struct ClosedForms
    {
        const PlacementResult* result = nullptr; // m_result, while it holds it (cleared with it)
        KvPlacement kv = KvPlacement::Shift;
        std::optional<DataflowSetup> setup;
        QString error;
    } m_closed;
    std::shared_ptr<const MeshFrame> m_lastFrame;      // the frame last put in the view
    std::shared_ptr<const MeshSnapshot> m_adoptedBase; // a snapshot someone else put in the view, adopted as base
    KvPlacement m_kvPlacement = KvPlacement::Shift;
    QString m_weightsFile;
    ValuesTurn m_valuesTurn = defaultValuesTurn();
    QString m_error;
    bool m_focusPending = false;                        // zoom to the executed layer when its run arrives
    bool m_builtValues = false;                         // the engine run last asked for was a values run
    bool m_showsWithLayer = true;                       // setShowsWithLayer
    std::vector<DataflowSetup::WaferLink> m_waferLinks; // the whole token's, for the strip's link labels
    double m_tokenCycles = 0;
    JobTracker m_jobs{this};
    PreparedFrames m_prepared; // frames that move (playing, a tour): their images made off the GUI thread
};

} // namespace ws
