#pragma once
// Cost against speed per user as concurrency grows: for each system, the
// engine's cost curve (engine/predict/tokencost.h) drawn as dollars per million
// output tokens (y) against tokens/s per user (x), both on log axes, with its
// range as a band, the requested concurrency marked, and the providers'
// published API prices for the same model and hardware as dashed lines.
// Down and to the right is better; moving left along a curve (more users)
// makes each token cheaper and each user slower. Above the chart a user sets
// a system's hourly cost per device (or resets it to the preset's); the panel
// sends that on as a settings change, the view computes nothing.

#include "engine/predict/tokencost.h"
#include "views/charts/chartdata.h"
#include "views/charts/logchart.h"

#include <QColor>
#include <QString>
#include <QWidget>

#include <vector>

class QAreaSeries;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QToolButton;

namespace ws::views {

struct CostCurve
{
    QString label;
    QString hardwareId;
    QColor color;
    std::vector<CostPoint> points; // the engine's, at every concurrency that fits
    int concurrency = 1;           // the requested one, marked
    int devices = 1;
    double hourlyUsd = 0; // all devices
    QString hourlySource;
    double hourlyUsdPerDevice = 0;       // what the editor shows
    double presetHourlyUsdPerDevice = 0; // the hardware preset's, for "reset"
    bool userHourly = false;             // the hourly cost is a user's figure
    std::vector<ApiPrice> apiPrices;
    std::vector<CostPoint> atScale; // each concurrency on its own fewest devices (ComparisonSystem::costAtScale)
};

class CostChart : public QWidget
{
    Q_OBJECT

public:
    explicit CostChart(QWidget* parent = nullptr);

    void setCurves(const std::vector<CostCurve>& curves);
    const std::vector<CostCurve>& curves() const { return m_curves; }

    ChartData chartData() const;
    // Where a curve meets a published price (engine meetPrice): the users decoding at once and the share of hours
    // busy at which the devices' cost equals the price; `brief` for a table cell.
    static QString meetText(const std::vector<CostPoint>& curve, const ApiPrice& price, bool brief);
    QChart* chart() const { return m_log.chart; }
    QChartView* chartView() const { return m_log.view; }
    const std::vector<QLineSeries*>& lines() const { return m_lines; }
    const std::vector<QLineSeries*>& priceLines() const { return m_prices; }
    QScatterSeries* markers() const { return m_log.markers; }
    QComboBox* systemBox() const { return m_system; }
    QDoubleSpinBox* hourlyBox() const { return m_hourly; }
    QToolButton* resetButton() const { return m_reset; }

signals:
    // A user's hourly cost per device for a system; usd <= 0: back to the preset's.
    void hourlyCostChanged(const QString& hardwareId, double usdPerDeviceHour);

private:
    void showTip(const QPointF& point, bool state);
    void showEditor();
    void clearSeries();

    std::vector<CostCurve> m_curves;
    LogChart m_log;
    std::vector<QLineSeries*> m_lines;
    std::vector<QAreaSeries*> m_bands;
    std::vector<QLineSeries*> m_prices;
    QComboBox* m_system = nullptr;
    QDoubleSpinBox* m_hourly = nullptr;
    QToolButton* m_reset = nullptr;
    QLabel* m_hourlySource = nullptr;
    bool m_filling = false;
};

} // namespace ws::views
