#pragma once
// The setup the charts over two log axes share (throughput vs latency, cost
// vs speed): a chart with its title, a small legend at the bottom, both log
// axes with plain number labels, and a white series marking the chosen
// concurrency on each curve; and whole-decade axis ranges around the data.

#include <QString>

class QChart;
class QLogValueAxis;
class QScatterSeries;

namespace ws::views {

struct LogChart
{
    QChart* chart = nullptr;
    QLogValueAxis* x = nullptr;
    QLogValueAxis* y = nullptr;
    QScatterSeries* markers = nullptr; // attached to both axes
};

LogChart makeLogChart(const QString& title, const QString& xTitle, const QString& yTitle, const QString& markerName);

// [10^floor(log10 min), 10^ceil(log10 max)]; min and max must be > 0.
void setDecadeRange(QLogValueAxis* axis, double min, double max);

} // namespace ws::views
