#pragma once
// The Sweep dock: one or two parameters of the layout (fill, context,
// precision, wafers, concurrency, layer order, region aspect, hop latency),
// each with its values as `waferscope-cli sweep` takes them ("0.6:0.9:0.05"
// or "snake,row-major"; the engine's parseSweepAxis reads both), swept from
// the window's scenario on a worker thread through JobTracker with progress
// and cancel. Results: a table, a chart (a line for one parameter, a heatmap
// for two) and the Pareto view of tokens/s per user against wafers or KV
// capacity; clicking a point opens its layout as B in the compare dock
// (openAsB). Export writes the sweep as the CLI does (CSV, JSON) or the
// chart as PNG or SVG.

#include "app/common/jobtracker.h"
#include "app/scenario/scenario.h"

#include "engine/explore/layoutsweep.h"

#include <QDockWidget>

#include <atomic>
#include <functional>
#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTableWidget;
class QTimer;

namespace ws {

namespace views {
class SweepChart;
}

class PresetLibrary;

class SweepDock : public QDockWidget
{
    Q_OBJECT

public:
    SweepDock(const PresetLibrary& presets, std::function<Scenario()> currentScenario, QWidget* parent = nullptr);
    ~SweepDock() override;

    // Parameter rows: `second` may be empty (one parameter). Each is "NAME=VALUES".
    void setAxes(const QString& first, const QString& second);
    void run();
    void cancel();
    bool isRunning() const { return m_jobs.isBusy(); }
    std::shared_ptr<const SweepResult> result() const { return m_result; }
    // Opens point `index` of the last sweep as B (what a click on the chart does).
    void openPoint(int64_t index);
    views::SweepChart* chart() const { return m_chart; }
    views::SweepChart* pareto() const { return m_pareto; }
    void showTab(int index);
    // Writes the sweep (.csv, .json) or the shown chart (.png, .svg); false with `error` on failure.
    bool exportTo(const QString& path, QString* error);

signals:
    void openAsB(const Scenario& b, const QString& label);
    void finished(bool ok);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void showResult(std::shared_ptr<const SweepResult> result);
    void fillTable();
    void exportAsked();

    const PresetLibrary& m_presets;
    std::function<Scenario()> m_current;
    Scenario m_sweptScenario; // what the last sweep started from
    ScenarioSpec m_base;

    QComboBox* m_param[2] = {};
    QLineEdit* m_values[2] = {};
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_export = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QComboBox* m_paretoAxis = nullptr;
    QTabWidget* m_tabs = nullptr;
    QTableWidget* m_table = nullptr;
    views::SweepChart* m_chart = nullptr;
    views::SweepChart* m_pareto = nullptr;
    QTimer* m_poll = nullptr;
    std::shared_ptr<std::atomic<int64_t>> m_done;
    std::shared_ptr<std::atomic<int64_t>> m_total;
    std::shared_ptr<std::atomic<bool>> m_stop; // the running sweep's cancel flag
    std::shared_ptr<const SweepResult> m_result;
    JobTracker m_jobs;
    JobTracker m_open;
};

} // namespace ws
