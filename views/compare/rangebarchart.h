#pragma once
// A bar chart with an uncertainty range on every bar: one bar per system in
// the system's colour, a whisker from the range's low to its high end, and a
// tooltip that says where the number comes from. A bar whose value is unknown
// (e.g. no published power figure) is left empty and labelled so.

#include "engine/calibration/measuredpoints.h"
#include "views/charts/chartdata.h"

#include <QColor>
#include <QFont>
#include <QString>
#include <QWidget>

#include <vector>

class QBarCategoryAxis;
class QChart;
class QChartView;
class QLineSeries;
class QScatterSeries;
class QStackedBarSeries;
class QValueAxis;

namespace ws::views {

// A published or measured figure drawn over a bar (or a curve): its value and a tooltip naming its source.
struct MeasuredMark
{
    double value = 0;
    QString tooltip;
};

// The tooltip of a measured point: label, value, source, date, configuration, speculative decoding, batch.
QString measuredPointTip(const MeasuredPoint& point, double shownValue, const QString& unit);

struct RangeBar
{
    QString label;    // full label, e.g. "8 × H100" (export, tooltips)
    QString axisName; // under the bar, above the value, e.g. "H100"; empty: label
    QString axisNote; // before the value on the second line, e.g. "×8"
    QColor color;
    bool known = true;
    double value = 0;
    double low = 0;
    double high = 0;
    QString tooltip;
    std::vector<MeasuredMark> measured; // drawn as diamonds on the bar
};

class RangeBarChart : public QWidget
{
    Q_OBJECT

public:
    explicit RangeBarChart(QWidget* parent = nullptr);

    // dataName names the export ("ttft_ms"); valueColumn the value's unit ("ttft_ms").
    void setBars(const QString& title, const QString& axisTitle, const QString& dataName, const QString& valueColumn,
                 const std::vector<RangeBar>& bars);

    const std::vector<RangeBar>& bars() const { return m_bars; }
    ChartData chartData() const;
    QChart* chart() const { return m_chart; }
    // A fixed preference, not the chart view's (its scene's current size, which a layout that asks for heights for
    // widths would feed back into, growing the chart at every pass).
    QSize sizeHint() const override { return {320, 190}; }
    QChartView* chartView() const { return m_view; }
    QStackedBarSeries* barSeries() const { return m_series; }
    // One whisker per bar (empty for unknown bars), in bar order.
    const std::vector<QLineSeries*>& whiskers() const { return m_whiskers; }
    QString categoryLabel(int index) const;
    // The category labels' font: the axis font, shrunk (to 70 % at the least) where a label's widest line would
    // be wider than its category, which Qt Charts would cut ("WSE-3" to "WS…" at 1366 x 768).
    void fitLabels();
    // The measured figures over the bars (one point per mark, x = the bar's index); null before setBars.
    QScatterSeries* measuredSeries() const { return m_measured; }
    // The tooltip of the measured mark nearest to a point in chart values; empty when none is near.
    QString measuredTipAt(const QPointF& value) const;

private:
    void showTip(bool status, int index);
    // A category label's lines: the name (a word a line), the device count, the value (bold).
    QStringList categoryLines(int index) const;

    std::vector<RangeBar> m_bars;
    QString m_dataName;
    QString m_valueColumn;
    QChart* m_chart = nullptr;
    QChartView* m_view = nullptr;
    QStackedBarSeries* m_series = nullptr;
    QBarCategoryAxis* m_axisX = nullptr;
    QValueAxis* m_axisY = nullptr;
    QFont m_labelFont; // the category labels' font before fitLabels shrinks it
    std::vector<QLineSeries*> m_whiskers;
    QScatterSeries* m_measured = nullptr;
};

} // namespace ws::views
