#pragma once
// Every compared system on one roofline (as LLM-Viewer draws it for GPUs):
// each system's memory roof (bandwidth x arithmetic intensity) rising to its
// compute roof, in the system's colour, and decode at the chosen batch placed
// by its arithmetic intensity (FLOPs per byte moved) at the FLOP/s it
// achieves. Roofs are those one token's layers run on (the prediction's
// Ceiling), so a point left of its ridge is memory-bound. Log axes.

#include "views/charts/chartdata.h"
#include "views/charts/logchart.h"
#include "views/compare/comparisonsnapshot.h"

#include <QWidget>

#include <vector>

class QScatterSeries;

namespace ws::views {

class RooflineChart : public QWidget
{
    Q_OBJECT

public:
    explicit RooflineChart(QWidget* parent = nullptr);

    void setSystems(const std::vector<ComparisonSystem>& systems);

    QChart* chart() const { return m_log.chart; }
    // One decode point per system with a ceiling, in system order.
    const std::vector<QScatterSeries*>& points() const { return m_points; }
    QString pointTip(size_t index) const;
    ChartData chartData() const;

private:
    std::vector<ComparisonSystem> m_systems; // those with roofs
    LogChart m_log;
    std::vector<QScatterSeries*> m_points;
};

// FLOP/s a prediction's decode achieves: its step's FLOPs at its steps per second.
double achievedFlopsPerS(const Prediction& p);

} // namespace ws::views
