#include "views/compare/rooflinechart.h"

#include "views/charts/chartformat.h"

#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>

#include <algorithm>

namespace ws::views {

double achievedFlopsPerS(const Prediction& p)
{
    const Ceiling& c = p.ceiling;
    return c.tokensPerStep > 0 ? c.flopsPerStep * p.tokensPerSecondPerUser / c.tokensPerStep : 0;
}

RooflineChart::RooflineChart(QWidget* parent) : QWidget(parent)
{
    m_log = makeLogChart(this, true, tr("Roofline: decode at the chosen batch"),
                         tr("arithmetic intensity (FLOPs per byte moved)"), tr("FLOP/s"));
    m_log.y->setLabelFormat(QStringLiteral("%.0e"));
}

QString RooflineChart::pointTip(size_t index) const
{
    const ComparisonSystem& s = m_systems.at(index);
    const Ceiling& c = s.prediction.ceiling;
    return tr("%1: %2 FLOPs per byte at batch %3, %4 FLOP/s achieved\n"
              "roofs: %5 FLOP/s compute, %6 B/s memory (ridge at %7 FLOPs per byte); %8-bound ceiling %9 tokens/s")
        .arg(s.label, formatSignificant(c.arithmeticIntensity()))
        .arg(s.prediction.concurrency)
        .arg(formatSignificant(achievedFlopsPerS(s.prediction)), formatSignificant(c.peakFlopsPerS),
             formatSignificant(c.peakBytesPerS), formatSignificant(c.peakFlopsPerS / c.peakBytesPerS),
             QString::fromStdString(c.bound), formatSignificant(c.tokensPerSecondPerUser));
}

void RooflineChart::setSystems(const std::vector<ComparisonSystem>& systems)
{
    m_log.chart->removeAllSeries();
    m_points.clear();
    m_systems.clear();
    for (const ComparisonSystem& s : systems)
        if (s.ok && s.prediction.ceiling.peakBytesPerS > 0 && s.prediction.ceiling.peakFlopsPerS > 0)
            m_systems.push_back(s);
    constexpr double kMinI = 0.01;
    constexpr double kMaxI = 1e4;
    double lo = 0;
    double hi = 0;
    for (size_t i = 0; i < m_systems.size(); ++i) {
        const ComparisonSystem& s = m_systems[i];
        const Ceiling& c = s.prediction.ceiling;
        const double ridge = c.peakFlopsPerS / c.peakBytesPerS;
        auto* roof = new QLineSeries;
        roof->setName(s.name.isEmpty() ? s.label : s.name);
        roof->setColor(s.color);
        roof->append(kMinI, c.peakBytesPerS * kMinI);
        roof->append(std::clamp(ridge, kMinI, kMaxI), std::min(c.peakFlopsPerS, c.peakBytesPerS * kMaxI));
        roof->append(kMaxI, c.peakFlopsPerS);
        auto* point = new QScatterSeries;
        point->setColor(s.color.darker(130));
        point->setMarkerSize(11);
        const double x = std::clamp(c.arithmeticIntensity(), kMinI, kMaxI);
        const double y = std::max(1.0, achievedFlopsPerS(s.prediction));
        point->append(x, y);
        for (QXYSeries* series : {static_cast<QXYSeries*>(roof), static_cast<QXYSeries*>(point)}) {
            m_log.chart->addSeries(series);
            series->attachAxis(m_log.x);
            series->attachAxis(m_log.y);
        }
        connect(point, &QScatterSeries::hovered, this, [this, i](const QPointF&, bool state) {
            if (state)
                QToolTip::showText(QCursor::pos(), pointTip(i), m_log.view);
            else
                QToolTip::hideText();
        });
        m_points.push_back(point);
        lo = lo == 0 ? std::min(y, c.peakBytesPerS * kMinI) : std::min({lo, y, c.peakBytesPerS * kMinI});
        hi = std::max(hi, c.peakFlopsPerS);
    }
    for (QLegendMarker* marker : m_log.chart->legend()->markers())
        showLegendEntry(marker, dynamic_cast<QScatterSeries*>(marker->series()) == nullptr);
    m_log.x->setRange(kMinI, kMaxI);
    m_log.y->setRange(lo > 0 ? lo / 3 : 1, hi > 0 ? hi * 3 : 10);
}

ChartData RooflineChart::chartData() const
{
    ChartData d;
    d.name = QStringLiteral("roofline");
    d.columns = {QStringLiteral("system"),
                 QStringLiteral("arithmetic_intensity_flops_per_byte"),
                 QStringLiteral("achieved_flops_per_s"),
                 QStringLiteral("compute_roof_flops_per_s"),
                 QStringLiteral("memory_roof_bytes_per_s"),
                 QStringLiteral("bound")};
    for (const ComparisonSystem& s : m_systems) {
        const Ceiling& c = s.prediction.ceiling;
        d.rows.append(QVariantList{s.label, c.arithmeticIntensity(), achievedFlopsPerS(s.prediction), c.peakFlopsPerS,
                                   c.peakBytesPerS, QString::fromStdString(c.bound)});
    }
    return d;
}

} // namespace ws::views
