#pragma once
// Fit a calibration profile from your own measurements: a table of GPU
// decode measurements (model and GPU presets, GPU count, precision,
// concurrency, context or prompt/output lengths, measured tokens/s per user),
// or a measurement file of any kind (the resources/measurements format). Fit
// runs the engine's least-squares fitter (fitProfile) and shows every row's
// residual as the calibration tab will (CalibrationChart::rows); OK adds the
// profile to the comparison's list.

#include "engine/calibration/calibrationprofile.h"

#include <QDialog>

#include <optional>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace ws {

class CalibrationDialog : public QDialog
{
    Q_OBJECT

public:
    enum Column
    {
        Label,
        Model,
        Hardware,
        Gpus,
        Precision,
        Concurrency,
        Context,
        Prompt,
        Output,
        TokensPerSecond,
        ColumnCount
    };

    explicit CalibrationDialog(QWidget* parent = nullptr);

    // Fills the table from a measurement file's JSON text; false (and an error shown) when it cannot.
    bool setMeasurementsJson(const QString& jsonText);
    // The table as a measurement file (kind "gpu"), or the loaded file's text for other kinds.
    QString measurementsJson() const;
    // Runs the fit; false when it fails (the error is shown).
    bool fit();

    const std::optional<CalibrationProfile>& profile() const { return m_profile; }
    QString errorText() const;
    QTableWidget* measurementsTable() const { return m_table; }
    QTableWidget* residualsTable() const { return m_residuals; }

private:
    void loadFile();
    void showError(const QString& message);

    QLineEdit* m_id = nullptr;
    QTableWidget* m_table = nullptr;
    QTableWidget* m_residuals = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_error = nullptr;
    QPushButton* m_ok = nullptr;
    QString m_otherKindJson; // a loaded file of a kind the table does not edit (wafer-kernel, lpu)
    std::optional<CalibrationProfile> m_profile;
};

} // namespace ws
