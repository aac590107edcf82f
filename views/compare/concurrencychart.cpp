#include "views/compare/concurrencychart.h"

#include "views/charts/chartformat.h"
#include "views/charts/logchart.h"

#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ws::views {

std::vector<ConcurrencyPoint> drawnPoints(const ConcurrencyCurve& curve)
{
    std::vector<ConcurrencyPoint> out;
    for (const ConcurrencyPoint& p : curve.points) {
        if (curve.maxConcurrency > 0 && p.concurrency > std::max(1, curve.maxConcurrency))
            continue;
        if (p.tokensPerSecondPerUser > 0 && p.aggregateTokensPerSecond > 0)
            out.push_back(p);
    }
    return out;
}

ConcurrencyChart::ConcurrencyChart(QWidget* parent) : QWidget(parent)
{
    m_log = makeLogChart(this, true, tr("Throughput vs speed per user, as concurrency grows"),
                         tr("tokens/s per user (log)"), tr("aggregate tokens/s (log)"), tr("chosen users"));
    connect(m_log.markers, &QScatterSeries::hovered, this, &ConcurrencyChart::showTip);
    m_log.view->setToolTip(tr("Each point is one concurrency (1, 2, 4, …) from the engine's predictor for that system. "
                              "Hover a point for its concurrency."));
}

void ConcurrencyChart::setCurves(const std::vector<ConcurrencyCurve>& curves)
{
    m_curves = curves;
    for (QLineSeries* s : m_lines) {
        m_log.chart->removeSeries(s);
        delete s;
    }
    m_lines.clear();
    for (QScatterSeries* s : m_measured) {
        m_log.chart->removeSeries(s);
        delete s;
    }
    m_measured.clear();
    double xMin = std::numeric_limits<double>::max(), xMax = 0, yMin = xMin, yMax = 0;
    QList<QPointF> marks;
    QStringList cappedNotes;
    for (const ConcurrencyCurve& c : curves) {
        auto* s = new QLineSeries;
        const std::vector<ConcurrencyPoint> drawn = drawnPoints(c);
        const bool capped = drawn.size() < c.points.size();
        s->setName(c.label);
        if (capped)
            cappedNotes << tr("%1: ≤ %2").arg(c.label).arg(std::max(1, c.maxConcurrency));
        QPen pen(c.color);
        pen.setWidthF(2.4);
        s->setPen(pen);
        s->setPointsVisible(true);
        QList<QPointF> pts;
        for (const ConcurrencyPoint& p : drawn) {
            pts.append({p.tokensPerSecondPerUser, p.aggregateTokensPerSecond});
            xMin = std::min(xMin, p.tokensPerSecondPerUser);
            xMax = std::max(xMax, p.tokensPerSecondPerUser);
            yMin = std::min(yMin, p.aggregateTokensPerSecond);
            yMax = std::max(yMax, p.aggregateTokensPerSecond);
            if (p.concurrency == c.concurrency)
                marks.append(pts.back());
        }
        s->replace(pts);
        m_log.chart->addSeries(s);
        s->attachAxis(m_log.x);
        s->attachAxis(m_log.y);
        connect(s, &QLineSeries::hovered, this, &ConcurrencyChart::showTip);
        m_lines.push_back(s);
    }
    for (const ConcurrencyCurve& c : curves) {
        if (c.measured.empty())
            continue;
        auto* m = new QScatterSeries;
        m->setName(tr("%1, measured").arg(c.label));
        m->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
        m->setMarkerSize(12);
        m->setColor(c.color.lighter(150));
        m->setBorderColor(QColor(20, 20, 20));
        QList<QPointF> pts;
        for (const MeasuredCurvePoint& p : c.measured) {
            const double aggregate = p.tokensPerSecondPerUser * p.concurrency;
            pts.append({p.tokensPerSecondPerUser, aggregate});
            xMin = std::min(xMin, p.tokensPerSecondPerUser);
            xMax = std::max(xMax, p.tokensPerSecondPerUser);
            yMin = std::min(yMin, aggregate);
            yMax = std::max(yMax, aggregate);
        }
        m->replace(pts);
        m_log.chart->addSeries(m);
        m->attachAxis(m_log.x);
        m->attachAxis(m_log.y);
        connect(m, &QScatterSeries::hovered, this, &ConcurrencyChart::showTip);
        m_measured.push_back(m);
    }
    m_log.markers->replace(marks);
    const QString title = tr("Throughput vs speed per user, as concurrency grows");
    m_log.chart->setTitle(cappedNotes.isEmpty()
                              ? title
                              : title + QStringLiteral("<br><span style='font-size:small; color:#666'>") +
                                    tr("requests that fit in memory: %1").arg(cappedNotes.join(QStringLiteral(", "))) +
                                    QStringLiteral("</span>"));
    if (xMax > 0) {
        setDecadeRange(m_log.x, xMin, xMax);
        setDecadeRange(m_log.y, yMin, yMax);
    }
    fitLegend(m_log);
}

void ConcurrencyChart::showTip(const QPointF& point, bool state)
{
    if (!state) {
        QToolTip::hideText();
        return;
    }
    // The nearest curve point (log distance) names the system and concurrency.
    double best = std::numeric_limits<double>::max();
    QString text;
    for (const ConcurrencyCurve& c : m_curves)
        for (const ConcurrencyPoint& p : drawnPoints(c)) {
            const double dx = std::log(p.tokensPerSecondPerUser / point.x());
            const double dy = std::log(p.aggregateTokensPerSecond / point.y());
            if (dx * dx + dy * dy < best) {
                best = dx * dx + dy * dy;
                text = tr("%1, concurrency %2: %3 tokens/s per user, %4 tokens/s in all (engine prediction)")
                           .arg(c.label)
                           .arg(p.concurrency)
                           .arg(formatSignificant(p.tokensPerSecondPerUser),
                                formatSignificant(p.aggregateTokensPerSecond));
            }
        }
    for (const ConcurrencyCurve& c : m_curves)
        for (const MeasuredCurvePoint& p : c.measured) {
            const double dx = std::log(p.tokensPerSecondPerUser / point.x());
            const double dy = std::log(p.tokensPerSecondPerUser * p.concurrency / point.y());
            if (dx * dx + dy * dy < best) {
                best = dx * dx + dy * dy;
                text = p.tooltip;
            }
        }
    QToolTip::showText(QCursor::pos(), text, m_log.view);
}

ChartData ConcurrencyChart::chartData() const
{
    ChartData d;
    d.name = QStringLiteral("concurrency_curves");
    d.columns = {QStringLiteral("system"), QStringLiteral("concurrency"), QStringLiteral("tokens_per_second_per_user"),
                 QStringLiteral("aggregate_tokens_per_second")};
    d.columns << QStringLiteral("kind");
    for (const ConcurrencyCurve& c : m_curves) {
        for (const ConcurrencyPoint& p : drawnPoints(c))
            d.rows.append(QVariantList{c.label, p.concurrency, p.tokensPerSecondPerUser, p.aggregateTokensPerSecond,
                                       QStringLiteral("predicted")});
        for (const MeasuredCurvePoint& p : c.measured)
            d.rows.append(QVariantList{c.label, p.concurrency, p.tokensPerSecondPerUser,
                                       p.tokensPerSecondPerUser * p.concurrency, QStringLiteral("measured")});
    }
    return d;
}

} // namespace ws::views
