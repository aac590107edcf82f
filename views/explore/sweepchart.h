#pragma once
// The sweep dock's charts of one sweep (engine/explore/layoutsweep.h): a line of
// tokens/s per user over the values of a one-parameter sweep, a heatmap of it
// over the values of a two-parameter sweep, and the Pareto view: every point's
// tokens/s per user against its wafers (or its KV capacity) with the engine's
// Pareto front (paretoFront) drawn as a line. Clicking a point emits
// pointClicked with its index in the sweep, so the app can open that layout.

#include "engine/explore/layoutsweep.h"

#include <QWidget>

#include <memory>

class QAbstractAxis;
class QChart;
class QChartView;
class QLineSeries;
class QScatterSeries;
class QStackedLayout;

namespace ws::views {

class SweepHeatmap;

class SweepChart : public QWidget
{
    Q_OBJECT

public:
    enum class Mode
    {
        Values,
        Pareto
    }; // Values: line (one parameter) or heatmap (two)
    explicit SweepChart(QWidget* parent = nullptr);

    void setResult(std::shared_ptr<const SweepResult> result);
    void setMode(Mode mode);
    Mode mode() const { return m_mode; }
    void setParetoAgainstKv(bool kv);
    bool paretoAgainstKv() const { return m_againstKv; }
    // The index (into result->points) of the point nearest to chart value (x, y) of the shown series, or -1.
    int64_t nearestPoint(double x, double y) const;

signals:
    void pointClicked(int64_t index);

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void buildLine();
    void buildPareto();
    // Adds the axes, attaches both series to them and opens the clicked point of `dots`.
    void addAxes(QAbstractAxis* x, QAbstractAxis* y, QLineSeries* line, QScatterSeries* dots);

    std::shared_ptr<const SweepResult> m_result;
    Mode m_mode = Mode::Values;
    bool m_againstKv = false;
    QChart* m_chart = nullptr;
    QChartView* m_view = nullptr;
    SweepHeatmap* m_heatmap = nullptr;
    QStackedLayout* m_stack = nullptr;
};

} // namespace ws::views
