#include "views/compare/calibrationchart.h"

#include "views/charts/chartformat.h"

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

namespace {
const QColor kProfileColours[] = {QColor(0xe6, 0x7e, 0x22), QColor(0x76, 0xb9, 0x00), QColor(0x1f, 0x6f, 0x8b),
                                  QColor(0x8e, 0x44, 0xad), QColor(0xc0, 0x39, 0x2b), QColor(0x16, 0xa0, 0x85),
                                  QColor(0x7f, 0x8c, 0x8d)};
}

CalibrationChart::CalibrationChart(QWidget* parent) : QWidget(parent)
{
    m_log = makeLogChart(this, true, tr("Predicted vs measured decode speed (calibration rows)"),
                         tr("measured tokens/s (log)"), tr("predicted tokens/s (log)"));
    m_identity = new QLineSeries;
    m_identity->setName(tr("predicted = measured"));
    QPen pen(QColor(120, 120, 120));
    pen.setStyle(Qt::DashLine);
    m_identity->setPen(pen);
    m_log.chart->addSeries(m_identity);
    m_identity->attachAxis(m_log.x);
    m_identity->attachAxis(m_log.y);

    m_rows = rows({});
}

void CalibrationChart::setProfiles(const std::vector<CalibrationProfile>& profiles)
{
    m_profiles = profiles;
    m_rows = rows(profiles);
    for (QScatterSeries* s : m_scatters) {
        m_log.chart->removeSeries(s);
        delete s;
    }
    m_scatters.clear();
    double lo = std::numeric_limits<double>::max(), hi = 0;
    for (size_t i = 0; i < profiles.size(); ++i) {
        auto* s = new QScatterSeries;
        s->setName(QString::fromStdString(profiles[i].id));
        const QColor c = kProfileColours[i % std::size(kProfileColours)];
        s->setColor(c);
        s->setBorderColor(c.darker(140));
        s->setMarkerSize(10);
        QList<QPointF> pts;
        for (const CalibrationRow& r : profiles[i].rows) {
            if (!(r.observed > 0) || !(r.predicted > 0))
                continue;
            pts.append({r.observed, r.predicted});
            lo = std::min({lo, r.observed, r.predicted});
            hi = std::max({hi, r.observed, r.predicted});
        }
        s->replace(pts);
        m_log.chart->addSeries(s);
        s->attachAxis(m_log.x);
        s->attachAxis(m_log.y);
        connect(s, &QScatterSeries::hovered, this, [this, i](const QPointF& p, bool st) { showTip(i, p, st); });
        m_scatters.push_back(s);
    }
    if (hi > 0) {
        const double a = std::pow(10.0, std::floor(std::log10(lo)));
        const double b = std::pow(10.0, std::ceil(std::log10(hi)));
        m_log.x->setRange(a, b);
        m_log.y->setRange(a, b);
        m_identity->replace(QList<QPointF>{{a, a}, {b, b}});
    } else {
        m_identity->clear();
    }
}

void CalibrationChart::showTip(size_t profile, const QPointF& point, bool state)
{
    if (!state || profile >= m_profiles.size()) {
        QToolTip::hideText();
        return;
    }
    const CalibrationProfile& p = m_profiles[profile];
    const CalibrationRow* best = nullptr;
    double bestD = std::numeric_limits<double>::max();
    for (const CalibrationRow& r : p.rows) {
        if (!(r.observed > 0) || !(r.predicted > 0))
            continue;
        const double d = std::hypot(std::log(r.observed / point.x()), std::log(r.predicted / point.y()));
        if (d < bestD) {
            bestD = d;
            best = &r;
        }
    }
    if (!best)
        return;
    QString text = tr("%1\nmeasured %2, predicted %3 (%4 %)\nprofile %5\nsource: %6")
                       .arg(QString::fromStdString(best->label), formatSignificant(best->observed),
                            formatSignificant(best->predicted), formatResidualPercent(best->relativeResidual),
                            QString::fromStdString(p.id), QString::fromStdString(p.source));
    if (!best->fitted)
        text += QLatin1Char('\n') + tr("not fitted: %1").arg(QString::fromStdString(best->note));
    QToolTip::showText(QCursor::pos(), text, m_log.view);
}

ChartTable CalibrationChart::rows(std::span<const CalibrationProfile> profiles)
{
    ChartTable t{QStringLiteral("calibration_rows"),
                 {{{}, {QStringLiteral("profile")}},
                  {tr("Measurement"), {QStringLiteral("row")}},
                  {{}, {QStringLiteral("metric")}},
                  {tr("Measured tok/s"), {QStringLiteral("measured")}},
                  {tr("Predicted tok/s"), {QStringLiteral("predicted")}},
                  {tr("Residual"), {QStringLiteral("relative_residual")}},
                  {tr("Fitted"), {QStringLiteral("fitted")}},
                  {tr("Note"), {QStringLiteral("note")}},
                  {{}, {QStringLiteral("source")}}},
                 {}};
    for (const CalibrationProfile& p : profiles) {
        const QString source = QString::fromStdString(p.source);
        for (const CalibrationRow& r : p.rows) {
            const QString metric = r.metric == "aggregate_tokens_per_second" ? tr("aggregate") : tr("per user");
            ChartCell residual{QStringLiteral("%1 %").arg(formatResidualPercent(r.relativeResidual)),
                               {r.relativeResidual},
                               tr("(predicted − measured) / measured")};
            residual.color = std::abs(r.relativeResidual) > 0.25 ? QColor(0xc0, 0x39, 0x2b) : QColor(0x1e, 0x84, 0x49);
            t.rows.append({{{{}, {QString::fromStdString(p.id)}},
                            textCell(QString::fromStdString(r.label), source),
                            {{}, {QString::fromStdString(r.metric)}},
                            {formatSignificant(r.observed) + QLatin1Char(' ') + metric, {r.observed}, source},
                            numberCell(r.predicted, tr("The engine's predictor with this profile")),
                            residual,
                            {r.fitted ? tr("yes") : tr("no"), {r.fitted}},
                            textCell(QString::fromStdString(r.note)),
                            {{}, {source}}}});
        }
    }
    return t;
}

ChartData CalibrationChart::chartData() const
{
    return m_rows.exported();
}

} // namespace ws::views
