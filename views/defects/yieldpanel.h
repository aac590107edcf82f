#pragma once
// Yield against defect density D0 (log axis): the Poisson, Murphy, Seeds and
// negative-binomial models for a die of the curves' area, the redundant wafer's
// segment formula, and Monte Carlo points from the real remap. A function of one
// engine value (setCurves); the app computes the curves off the GUI thread and
// writes exports: chartData() hands it the numbers (the picture is the widget).

#include "views/charts/chartdata.h"

#include "engine/wafer/redundancy/yieldcurves.h"

#include <QImage>
#include <QString>
#include <QWidget>

#include <memory>

class QChart;
class QChartView;
class QLineSeries;
class QScatterSeries;
class QLogValueAxis;
class QValueAxis;

namespace ws::views {

class YieldPanel : public QWidget
{
    Q_OBJECT

public:
    explicit YieldPanel(QWidget* parent = nullptr);

    void setCurves(std::shared_ptr<const YieldCurves> curves);
    std::shared_ptr<const YieldCurves> curves() const { return m_curves; }

    // The data shown, one table: a row per curve sample (the Monte Carlo columns empty), then a row per
    // Monte Carlo point (the model columns empty). No rows without curves.
    ChartData chartData() const;
    // The chart as drawn now, scaled to size when one is given.
    QImage renderImage(QSize size = {}) const;

    QChart* chart() const { return m_chart; }

private:
    void updateTitles();

    std::shared_ptr<const YieldCurves> m_curves;
    QChartView* m_view = nullptr;
    QChart* m_chart = nullptr;
    QLineSeries* m_poisson = nullptr;
    QLineSeries* m_murphy = nullptr;
    QLineSeries* m_seeds = nullptr;
    QLineSeries* m_negativeBinomial = nullptr;
    QLineSeries* m_redundant = nullptr;
    QScatterSeries* m_monteCarlo = nullptr;
    QLogValueAxis* m_axisX = nullptr;
    QValueAxis* m_axisY = nullptr;
};

} // namespace ws::views
