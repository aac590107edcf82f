#include "views/charts/logchart.h"

#include <QChart>
#include <QChartView>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QVBoxLayout>

#include <cmath>

namespace ws::views {

LogChart makeLogChart(QWidget* host, bool fill, const QString& title, const QString& xTitle, const QString& yTitle,
                      const QString& markerName)
{
    LogChart c;
    c.chart = new QChart;
    c.chart->setTitle(title);
    c.chart->setAnimationOptions(QChart::NoAnimation);
    c.chart->setMargins(QMargins(4, 4, 4, 4));
    c.chart->legend()->setAlignment(Qt::AlignBottom);
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
