#pragma once
// Explore > What Would It Take…: for the scenario on stage (its model, hardware, precision, context, batch and
// devices) and a target speed per user, the engine's answer (engine/explore/targetsearch.h whatItTakes, the same
// call as `waferscope-cli predict --target-tokens-per-second`): every combination of kernels, speculative decoding
// and devices it tried, with its predicted speed and ceiling, and the verdict. The target comes from the spin box
// or from a published figure for the same model and hardware (the shipped measurement rows, each with its source).
// The search runs off the GUI thread; the table exports as CSV or JSON.

#include "app/common/jobtracker.h"
#include "app/export/datatable.h"
#include "app/scenario/scenario.h"
#include "engine/explore/targetsearch.h"
#include "views/charts/charttable.h"

#include <QDialog>

#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace ws {

class PresetLibrary;

class WhatItTakesDialog : public QDialog
{
    Q_OBJECT

public:
    WhatItTakesDialog(const PresetLibrary& presets, QWidget* parent = nullptr);

    // Shows the dialog for `scenario`; false (with `error`) when its model or hardware cannot be resolved.
    bool setScenario(const Scenario& scenario, QString* error);
    void setTarget(double tokensPerSecond);
    double target() const;
    // The latest answer (none while searching or after an error).
    const std::optional<TargetAnswer>& answer() const { return m_answer; }
    QTableWidget* table() const { return m_table; }
    // What Export writes: the rows the table shows (one description, rows()) with the inputs; no rows without an
    // answer.
    DataTable tableData() const;
    // The answer's options, one row each, as shown and exported; the least change that reaches the target is marked.
    static views::ChartTable rows(const TargetAnswer& answer);
    QLabel* verdictLabel() const { return m_verdict; }
    QComboBox* figureBox() const { return m_figures; }
    bool isSearching() const { return m_jobs.isBusy(); }

signals:
    void answered();

private:
    void search();
    void showAnswer(const Expected<TargetAnswer>& answer);
    void exportTable();

    const PresetLibrary& m_presets;
    JobTracker m_jobs;
    struct Inputs;
    std::shared_ptr<const Inputs> m_inputs;
    std::optional<TargetAnswer> m_answer;
    views::ChartTable m_rows; // rows(*m_answer): what m_table shows and Export writes
    QLabel* m_title = nullptr;
    QDoubleSpinBox* m_target = nullptr;
    QComboBox* m_figures = nullptr;
    QTableWidget* m_table = nullptr;
    QLabel* m_verdict = nullptr;
    QPushButton* m_export = nullptr;
};

} // namespace ws
