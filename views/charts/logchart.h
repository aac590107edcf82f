#pragma once
// The setup the charts over two log axes share (calibration, roofline,
// throughput vs latency, cost vs speed): a chart with its title, a small
// legend at the bottom, both log axes with plain number labels, the
// antialiased view that shows it and, where asked, a white series marking
// the chosen concurrency on each curve; and whole-decade axis ranges around
// the data. A chart widget holds one LogChart in place of its own chart,
// view and axes.

#include <QString>

class QChart;
class QChartView;
class QLabel;
class QLegendMarker;
class QLogValueAxis;
class QScatterSeries;
class QWidget;

namespace ws::views {

struct LogChart
{
    QChart* chart = nullptr;
    QChartView* view = nullptr; // owns the chart
    QLogValueAxis* x = nullptr;
    QLogValueAxis* y = nullptr;
    QScatterSeries* markers = nullptr; // attached to both axes; null when no marker name was given
    // The legend as wrapping text along the view's bottom, in a margin the chart leaves free for it, shown instead of
    // the chart's own legend where that would be cut.
    QLabel* legendText = nullptr;
};

// The view is a child of `host`; with `fill` it is also the host's whole layout (zero margins).
LogChart makeLogChart(QWidget* host, bool fill, const QString& title, const QString& xTitle, const QString& yTitle,
                      const QString& markerName = {});

// The legend at the bottom where its entries fit in one row; else at the right, one whole entry a line, where that
// leaves the plot at least 240 px; else as legendText, the entries wrapping over as many lines as they need. A title
// wider than the view takes two lines. The view calls it when resized; a chart calls it after changing its series.
void fitLegend(const LogChart& chart);

// Shows or hides one legend entry (a band or helper series that the tooltips explain); fitLegend and the legend as
// text leave a hidden entry out, whether or not the chart's legend is shown.
void showLegendEntry(QLegendMarker* marker, bool shown);

// [10^floor(log10 min), 10^ceil(log10 max)]; min and max must be > 0.
void setDecadeRange(QLogValueAxis* axis, double min, double max);

} // namespace ws::views
