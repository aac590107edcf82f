#pragma once
// Throughput against latency as concurrency grows: for each system, the
// engine's concurrency curve drawn as aggregate tokens/s (y) against tokens/s
// per user (x), both on log axes, with the requested concurrency marked. Up
// and to the right is better; a curve bending left shows users paying for
// throughput.

#include "engine/predict/prediction.h"
#include "views/charts/chartdata.h"
#include "views/charts/logchart.h"

#include <QColor>
#include <QString>
#include <QWidget>

#include <vector>

class QLineSeries;
class QScatterSeries;

namespace ws::views {

// A published or measured figure at one concurrency, drawn in its system's colour.
struct MeasuredCurvePoint
{
    int concurrency = 1;
    double tokensPerSecondPerUser = 0;
    QString tooltip; // names the source
};

struct ConcurrencyCurve
{
    QString label;
    QColor color;
    std::vector<ConcurrencyPoint> points;
    int concurrency = 1;    // the requested concurrency, marked on the curve
    int maxConcurrency = 0; // requests that fit (KV memory); points beyond it repeat the capped value and are
                            // not drawn. 0: no cap
    std::vector<MeasuredCurvePoint> measured;
};

// The points of a curve that are real: concurrency within what fits.
std::vector<ConcurrencyPoint> drawnPoints(const ConcurrencyCurve& curve);

class ConcurrencyChart : public QWidget
{
    Q_OBJECT

public:
    explicit ConcurrencyChart(QWidget* parent = nullptr);

    void setCurves(const std::vector<ConcurrencyCurve>& curves);

    ChartData chartData() const;
    QChart* chart() const { return m_log.chart; }
    // A fixed preference, not the chart view's (its scene's current size; see RangeBarChart::sizeHint).
    QSize sizeHint() const override { return {320, 300}; }
    QChartView* chartView() const { return m_log.view; }
    const std::vector<QLineSeries*>& lines() const { return m_lines; }
    QScatterSeries* markers() const { return m_log.markers; }
    // One series of measured figures per curve that has any, in its colour.
    const std::vector<QScatterSeries*>& measuredSeries() const { return m_measured; }

private:
    void showTip(const QPointF& point, bool state);

    std::vector<ConcurrencyCurve> m_curves;
    LogChart m_log;
    std::vector<QLineSeries*> m_lines;
    std::vector<QScatterSeries*> m_measured;
};

} // namespace ws::views
