#pragma once
// The Compare Layouts dock: layout A (pinned with "Pin as A") beside layout B
// (the window's current layout, which keeps changing as it is edited, or a
// layout opened from a sweep point or the optimiser), as two heatmaps whose
// zoom and pan follow each other, with a difference mode (per-core SRAM or
// per-region time per token, B - A, drawn on B's mesh) and the delta table.
// Each side is predicted by predictScenario and the two differenced by
// comparePredictions, exactly as `waferscope-cli compare` does, on a worker
// thread through JobTracker (a newer request drops older results).

#include "app/common/jobtracker.h"
#include "app/scenario/scenario.h"

#include <QDockWidget>

#include <functional>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QSpinBox;

namespace ws {

namespace views {
class LayoutDeltaTable;
class MeshView;
} // namespace views

class PresetLibrary;
struct CompareOutcome;

class CompareDock : public QDockWidget
{
    Q_OBJECT

public:
    CompareDock(const PresetLibrary& presets, QWidget* parent = nullptr);
    ~CompareDock() override;

    void pinA(const Scenario& a, const QString& label);
    // B from now on: `b` (a sweep point, the optimiser's result) until followB is called again.
    void setB(const Scenario& b, const QString& label);
    // B is the window's current layout: `b` now, and whatever the window shows next (setWindowScenario).
    void followB(const Scenario& b);
    void setWindowScenario(const Scenario& current);
    bool hasA() const { return m_a.scenario.has_value(); }
    bool isBusy() const { return m_jobs.isBusy(); }

    enum class Mode
    {
        Layouts,
        SramDifference,
        TimeDifference
    };
    void setMode(Mode mode);

    const views::LayoutDeltaTable* table() const { return m_table; }
    views::MeshView* viewA() const { return m_a.view; }
    views::MeshView* viewB() const { return m_b.view; }
    QString lastError() const { return m_error; }

signals:
    void compared(bool ok);

protected:
    void changeEvent(QEvent* event) override;

private:
    void recompute();
    void showOutcome(std::shared_ptr<const CompareOutcome> outcome);
    void applyMode();
    void retranslate();
    void syncView(views::MeshView* from, views::MeshView* to);

    // One side of the comparison: its layout, the name it was opened under, its title and heatmap.
    struct Side
    {
        std::optional<Scenario> scenario;
        QString label;
        QLabel* title = nullptr;
        views::MeshView* view = nullptr;
    };

    const PresetLibrary& m_presets;
    Side m_a;
    Side m_b;
    bool m_followWindow = true;
    QString m_error;
    std::shared_ptr<const CompareOutcome> m_outcome;

    QLabel* m_status = nullptr;
    QComboBox* m_mode = nullptr;
    QSpinBox* m_wafer = nullptr;
    QLabel* m_waferLabel = nullptr;
    views::LayoutDeltaTable* m_table = nullptr;
    bool m_syncing = false;
    JobTracker m_jobs;
};

} // namespace ws
