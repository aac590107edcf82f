#pragma once
// Predicted against measured decode speed for every calibration row: one
// scatter series per calibration profile, log-log, with the line where the
// prediction equals the measurement. Points on the line are reproduced
// exactly; the vertical distance is the relative residual. Rows left out of
// a fit (shown for comparison) are drawn hollow.

#include "engine/calibration/calibrationprofile.h"
#include "views/charts/charttable.h"
#include "views/charts/logchart.h"

#include <QWidget>

#include <span>
#include <vector>

class QLineSeries;
class QScatterSeries;

namespace ws::views {

class CalibrationChart : public QWidget
{
    Q_OBJECT

public:
    explicit CalibrationChart(QWidget* parent = nullptr);

    void setProfiles(const std::vector<CalibrationProfile>& profiles);

    // The measurements of `profiles` and their fit, one row each: the calibration tab shows a profile's,
    // the chart exports all of them (chartData).
    static ChartTable rows(std::span<const CalibrationProfile> profiles);
    ChartData chartData() const;
    QChart* chart() const { return m_log.chart; }
    QChartView* chartView() const { return m_log.view; }
    const std::vector<QScatterSeries*>& scatters() const { return m_scatters; }
    QLineSeries* identity() const { return m_identity; }

private:
    void showTip(size_t profile, const QPointF& point, bool state);

    std::vector<CalibrationProfile> m_profiles;
    ChartTable m_rows; // rows(m_profiles), what chartData() exports
    LogChart m_log;
    QLineSeries* m_identity = nullptr;
    std::vector<QScatterSeries*> m_scatters;
};

} // namespace ws::views
