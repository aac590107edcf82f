#pragma once
// The Layout dock: the placement controls (strategy, weight fill, wafer
// count, layer order, KV placement, context, precision per tensor group),
// the switch for editing by hand on the heatmap, and what the engine says of
// the layout shown (time per token, tokens/s per user, time to first token,
// wafers, regions over SRAM). The dock only reads and shows values; a user
// change emits settingsChanged and LayoutEditController re-places. "Time
// with the mesh engine" executes the layout shown, hand edits included, one
// region shape at a time (engine/wafer/mesh/meshshapes.h) off the GUI thread
// and puts the engine's time beside the closed forms'.

#include "app/common/jobtracker.h"
#include "app/explore/explorestate.h"

#include <QDockWidget>

class QCheckBox;
class QPushButton;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace ws {

class LayoutDock : public QDockWidget
{
    Q_OBJECT

public:
    explicit LayoutDock(QWidget* parent = nullptr);

    LayoutSettings settings() const;
    // Shows `state`'s settings (without emitting settingsChanged) and its prediction; the wafer count starts at
    // the fewest that hold the model.
    void showState(const ExploreState& state);
    void showMessage(const QString& text); // e.g. why a placement failed
    bool editing() const;
    // The mesh engine's timing of the layout shown (what the button does); its line is engineText().
    void timeWithEngine();
    bool isTiming() const { return m_jobs.isBusy(); }
    QString engineText() const;

signals:
    void settingsChanged();
    void editingChanged(bool on);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void showPrediction(const ExploreState& state);

    QComboBox* m_strategy = nullptr;
    QComboBox* m_experts = nullptr;
    QDoubleSpinBox* m_fill = nullptr;
    QSpinBox* m_wafers = nullptr;
    QComboBox* m_order = nullptr;
    QComboBox* m_kv = nullptr;
    QSpinBox* m_context = nullptr;
    QComboBox* m_attention = nullptr;
    QComboBox* m_ffn = nullptr;
    QComboBox* m_tables = nullptr;
    QCheckBox* m_edit = nullptr;
    QLabel* m_summary = nullptr;
    QPushButton* m_engineButton = nullptr;
    QLabel* m_engine = nullptr;
    JobTracker m_jobs{this};
    QLabel* m_labels[10] = {};
    bool m_showing = false;
    std::shared_ptr<const ExploreState> m_state;
};

} // namespace ws
