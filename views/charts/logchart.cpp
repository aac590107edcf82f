#include "views/charts/logchart.h"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QFontMetricsF>
#include <QLegend>
#include <QLegendMarker>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ws::views {

namespace {
// Fits the legend again whenever the view is resized.
class LegendFitter : public QObject
{
public:
    LegendFitter(const LogChart& chart) : QObject(chart.view), m_chart(chart) {}

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Resize)
            fitLegend(m_chart);
        return QObject::eventFilter(watched, event);
    }

private:
    LogChart m_chart;
};
} // namespace

void fitLegend(const LogChart& c)
{
    if (!c.chart || !c.view)
        return;
    QLegend* legend = c.chart->legend();
    const QFontMetricsF fm(legend->font());
    constexpr double kMarkerPx = 28; // a marker's square and the gaps around it
    double row = 0, widest = 0;
    for (const QLegendMarker* m : legend->markers())
        if (m->isVisible()) {
            const double w = fm.horizontalAdvance(m->label()) + kMarkerPx;
            row += w;
            widest = std::max(widest, w);
        }
    const double width = c.view->width();
    const bool right = row > width - 16 && width - widest - 24 >= 240;
    const Qt::Alignment want = right ? Qt::AlignRight : Qt::AlignBottom;
    if (legend->alignment() != want)
        legend->setAlignment(want);
}

LogChart makeLogChart(QWidget* host, bool fill, const QString& title, const QString& xTitle, const QString& yTitle,
                      const QString& markerName)
{
    LogChart c;
    c.chart = new QChart;
    c.chart->setTitle(title);
    c.chart->setAnimationOptions(QChart::NoAnimation);
    c.chart->setMargins(QMargins(4, 4, 4, 4));
    c.chart->legend()->setAlignment(Qt::AlignBottom);
    c.chart->legend()->setShowToolTips(true); // an entry cut short names itself whole
    QFont small = c.chart->legend()->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    c.chart->legend()->setFont(small);
    c.x = new QLogValueAxis;
    c.x->setTitleText(xTitle);
    c.x->setLabelFormat(QStringLiteral("%g"));
    c.x->setMinorTickCount(-1);
    c.y = new QLogValueAxis;
    c.y->setTitleText(yTitle);
    c.y->setLabelFormat(QStringLiteral("%g"));
    c.chart->addAxis(c.x, Qt::AlignBottom);
    c.chart->addAxis(c.y, Qt::AlignLeft);
    c.view = new QChartView(c.chart, host);
    c.view->setRenderHint(QPainter::Antialiasing);
    c.view->installEventFilter(new LegendFitter(c));
    if (fill) {
        auto* layout = new QVBoxLayout(host);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(c.view);
    }
    if (markerName.isEmpty())
        return c;
    c.markers = new QScatterSeries;
    c.markers->setName(markerName);
    c.markers->setMarkerSize(13);
    c.markers->setColor(Qt::white);
    c.markers->setBorderColor(QColor(30, 30, 30));
    c.chart->addSeries(c.markers);
    c.markers->attachAxis(c.x);
    c.markers->attachAxis(c.y);
    return c;
}

void setDecadeRange(QLogValueAxis* axis, double min, double max)
{
    axis->setRange(std::pow(10.0, std::floor(std::log10(min))), std::pow(10.0, std::ceil(std::log10(max))));
}

} // namespace ws::views
