#pragma once
// The calibration profiles behind the predictions: every shipped profile
// (and any a user fitted) with the measurements it was fitted on, how well
// the fit reproduces each (relative residuals), its constants with their
// sources, and the predicted-vs-measured chart over all profiles. "Fit from
// my measurements…" asks the app for the fitting dialog (fitRequested).

#include "engine/calibration/calibrationprofile.h"

#include <QStringList>
#include <QWidget>

#include <vector>

class QLabel;
class QListWidget;
class QPushButton;
class QTableWidget;

namespace ws::views {

class CalibrationChart;
class ChartCard;

class CalibrationPanel : public QWidget
{
    Q_OBJECT

public:
    explicit CalibrationPanel(QWidget* parent = nullptr);

    // userIds: the profiles a user fitted (marked as such).
    void setProfiles(const std::vector<CalibrationProfile>& profiles, const QStringList& userIds);
    void selectProfile(const QString& id);
    QString selectedProfile() const;

    CalibrationChart* chart() const { return m_chart; }
    ChartCard* chartCard() const { return m_card; }
    QTableWidget* rowsTable() const { return m_rows; }
    QTableWidget* constantsTable() const { return m_constants; }
    QListWidget* profileList() const { return m_list; }

signals:
    void fitRequested();
    // "Add measurements…": a file of published or measured figures to show on the comparison's charts.
    void addMeasurementsRequested();

private:
    void showProfile(int index);

    std::vector<CalibrationProfile> m_profiles;
    QStringList m_userIds;
    QListWidget* m_list = nullptr;
    QLabel* m_info = nullptr;
    QTableWidget* m_rows = nullptr;
    QTableWidget* m_constants = nullptr;
    CalibrationChart* m_chart = nullptr;
    ChartCard* m_card = nullptr;
    QPushButton* m_fit = nullptr;
    QPushButton* m_addMeasurements = nullptr;
};

} // namespace ws::views
