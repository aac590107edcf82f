#include "views/compare/costchart.h"

#include "views/charts/chartformat.h"
#include "views/charts/logchart.h"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCursor>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ws::views {

namespace {
QString priceTip(const CostCurve& c, const ApiPrice& p)
{
    return CostChart::tr("Published API price: $%1 per million output tokens%2 — %3 (%4)\nSource: %5\nDate: %6\n"
                         "Configuration: %7; speculative decoding: %8\nA price, not a cost: the provider's margin "
                         "and batching are in it.")
        .arg(formatSignificant(p.usdPerMillionOutputTokens),
             p.usdPerMillionInputTokens > 0
                 ? CostChart::tr(", $%1 per million input tokens").arg(formatSignificant(p.usdPerMillionInputTokens))
                 : QString(),
             QString::fromStdString(p.label), c.label, QString::fromStdString(p.source), QString::fromStdString(p.date),
             QString::fromStdString(p.configuration), QString::fromStdString(p.speculative));
}

} // namespace

QString CostChart::meetText(const std::vector<CostPoint>& curve, const ApiPrice& price, bool brief)
{
    const PriceMeet m = meetPrice(curve, price.usdPerMillionOutputTokens);
    if (m.cheapestConcurrency == 0)
        return {};
    int cheapestDevices = 0;
    for (const CostPoint& q : curve)
        if (q.concurrency == m.cheapestConcurrency)
            cheapestDevices = q.devices;
    const QString on = cheapestDevices > 0 ? tr(" on %1 devices").arg(cheapestDevices) : QString();
    const QString busy = formatSignificant(100.0 * m.utilisation, 2);
    if (brief)
        return m.meets ? tr("cost = price at %1 users, or %2 % busy at %3")
                             .arg(formatSignificant(m.concurrency, 2), busy)
                             .arg(m.cheapestConcurrency)
                       : tr("cost %1× the price even at %2 users")
                             .arg(formatSignificant(m.utilisation, 2))
                             .arg(m.cheapestConcurrency);
    if (!m.meets)
        return tr("Even at %1 users decoding at once%2 (the cheapest this prediction finds) with the devices busy "
                  "every hour, the predicted cost ($%3 per million) is %4× the price: the provider runs more users "
                  "per device, shorter contexts, cheaper hours or a faster stack than this prediction.")
            .arg(m.cheapestConcurrency)
            .arg(on, formatSignificant(m.cheapestUsdPerMillionTokens), formatSignificant(m.utilisation, 2));
    return tr("The predicted cost equals the price at about %1 users decoding at once (%2 tokens/s each) with the "
              "devices busy every hour; at %3 users%4 (the cheapest, $%5 per million) the devices need be busy only "
              "%6 % of the hours.")
        .arg(formatSignificant(m.concurrency, 2), formatSignificant(m.tokensPerSecondPerUser))
        .arg(m.cheapestConcurrency)
        .arg(on, formatSignificant(m.cheapestUsdPerMillionTokens), busy);
}

namespace {
QString pointTip(const CostCurve& c, const CostPoint& p)
{
    return CostChart::tr("%1, concurrency %2: $%3 per million output tokens (range %4 – %5) at %6 tokens/s per user\n"
                         "= $%7 an hour for %8 devices / (%9 tokens/s in all × 3,600) × 10⁶ (engine prediction)\n"
                         "Hourly cost: %10")
        .arg(c.label)
        .arg(p.concurrency)
        .arg(formatSignificant(p.usdPerMillionTokens), formatSignificant(p.usdPerMillionTokensRange.low),
             formatSignificant(p.usdPerMillionTokensRange.high), formatSignificant(p.tokensPerSecondPerUser),
             formatSignificant(c.hourlyUsd))
        .arg(c.devices)
        .arg(formatSignificant(p.aggregateTokensPerSecond), c.hourlySource);
}
} // namespace

CostChart::CostChart(QWidget* parent) : QWidget(parent)
{
    m_log = makeLogChart(this, false, tr("Cost per million output tokens vs speed per user, as concurrency grows"),
                         tr("tokens/s per user (log)"), tr("$ per million output tokens (log)"), tr("chosen users"));
    connect(m_log.markers, &QScatterSeries::hovered, this, &CostChart::showTip);
    m_log.view->setToolTip(tr("Each point is one concurrency (1, 2, 4, …): the devices' hourly cost over the tokens "
                              "they produce in an hour. Bands: the speed range and the hourly cost range. Dashed: a "
                              "provider's published API price. Hover a point for its source."));

    m_system = new QComboBox;
    m_system->setToolTip(tr("The system whose hourly cost you set"));
    m_hourly = new QDoubleSpinBox;
    m_hourly->setRange(0.01, 1e7);
    m_hourly->setDecimals(2);
    m_hourly->setPrefix(QStringLiteral("$"));
    m_hourly->setSuffix(tr(" per device-hour"));
    m_hourly->setKeyboardTracking(false);
    m_hourly->setToolTip(tr("Hourly cost of one device (GPU, wafer system or chip); the cost of all devices is "
                            "this times their count"));
    m_reset = new QToolButton;
    m_reset->setText(tr("Reset to preset"));
    m_reset->setToolTip(tr("Back to the hardware preset's hourly cost and its source"));
    m_hourlySource = new QLabel;
    m_hourlySource->setStyleSheet(QStringLiteral("color: #555;"));
    m_hourlySource->setMinimumWidth(40);
    auto* editor = new QHBoxLayout;
    editor->setContentsMargins(4, 2, 80, 0); // the card's Export button sits top right
    editor->addWidget(new QLabel(tr("Hourly cost:")));
    editor->addWidget(m_system);
    editor->addWidget(m_hourly);
    editor->addWidget(m_reset);
    editor->addWidget(m_hourlySource, 1);
    connect(m_system, &QComboBox::currentIndexChanged, this, [this] { showEditor(); });
    connect(m_hourly, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        const int i = m_system->currentIndex();
        if (m_filling || i < 0 || size_t(i) >= m_curves.size())
            return;
        emit hourlyCostChanged(m_curves[size_t(i)].hardwareId, v);
    });
    connect(m_reset, &QToolButton::clicked, this, [this] {
        const int i = m_system->currentIndex();
        if (i >= 0 && size_t(i) < m_curves.size())
            emit hourlyCostChanged(m_curves[size_t(i)].hardwareId, 0);
    });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(editor); // above the chart: visible when the dock is short
    layout->addWidget(m_log.view, 1);
}

void CostChart::clearSeries()
{
    auto drop = [this](QAbstractSeries* s) {
        m_log.chart->removeSeries(s);
        delete s; // a band takes its upper and lower lines with it (their parent)
    };
    std::for_each(m_lines.begin(), m_lines.end(), drop);
    std::for_each(m_prices.begin(), m_prices.end(), drop);
    std::for_each(m_bands.begin(), m_bands.end(), drop);
    m_lines.clear();
    m_prices.clear();
    m_bands.clear();
}

void CostChart::setCurves(const std::vector<CostCurve>& curves)
{
    const QString chosen = m_system->currentIndex() >= 0 ? m_system->currentData().toString() : QString();
    m_curves.clear();
    for (const CostCurve& c : curves)
        if (!c.points.empty())
            m_curves.push_back(c);
    clearSeries();
    double xMin = std::numeric_limits<double>::max(), xMax = 0, yMin = xMin, yMax = 0;
    auto extend = [&](double x, double y) {
        xMin = std::min(xMin, x);
        xMax = std::max(xMax, x);
        yMin = std::min(yMin, y);
        yMax = std::max(yMax, y);
    };
    QList<QPointF> marks;
    for (const CostCurve& c : m_curves) {
        auto* line = new QLineSeries;
        auto* upper = new QLineSeries;
        auto* lower = new QLineSeries;
        line->setName(c.label);
        QPen pen(c.color);
        pen.setWidthF(2.4);
        line->setPen(pen);
        line->setPointsVisible(true);
        for (const CostPoint& p : c.points) {
            line->append(p.tokensPerSecondPerUser, p.usdPerMillionTokens);
            upper->append(p.tokensPerSecondPerUser, p.usdPerMillionTokensRange.high);
            lower->append(p.tokensPerSecondPerUser, p.usdPerMillionTokensRange.low);
            extend(p.tokensPerSecondPerUser, p.usdPerMillionTokensRange.low);
            extend(p.tokensPerSecondPerUser, p.usdPerMillionTokensRange.high);
            if (p.concurrency == c.concurrency)
                marks.append({p.tokensPerSecondPerUser, p.usdPerMillionTokens});
        }
        auto* band = new QAreaSeries(upper, lower);
        upper->setParent(band); // a QAreaSeries does not own its lines: as its children they go with it
        lower->setParent(band);
        QColor fill = c.color;
        fill.setAlpha(45);
        band->setBrush(fill);
        band->setPen(Qt::NoPen);
        m_log.chart->addSeries(band);
        band->attachAxis(m_log.x);
        band->attachAxis(m_log.y);
        m_bands.push_back(band);
        m_log.chart->addSeries(line);
        line->attachAxis(m_log.x);
        line->attachAxis(m_log.y);
        connect(line, &QLineSeries::hovered, this, &CostChart::showTip);
        m_lines.push_back(line);
        for (QLegendMarker* lm : m_log.chart->legend()->markers(band))
            showLegendEntry(lm, false); // the band is explained in the tooltip; the legend names the systems
    }
    for (const CostCurve& c : m_curves)
        for (const ApiPrice& p : c.apiPrices)
            extend(xMax > 0 ? xMin : 1, p.usdPerMillionOutputTokens);
    for (const CostCurve& c : m_curves) {
        for (const ApiPrice& p : c.apiPrices) {
            auto* s = new QLineSeries;
            s->setName(tr("%1 API price").arg(QString::fromStdString(p.provider)));
            QPen pen(c.color.darker(130));
            pen.setStyle(Qt::DashLine);
            pen.setWidthF(1.8);
            s->setPen(pen);
            s->append(xMin, p.usdPerMillionOutputTokens);
            s->append(xMax, p.usdPerMillionOutputTokens);
            m_log.chart->addSeries(s);
            s->attachAxis(m_log.x);
            s->attachAxis(m_log.y);
            connect(s, &QLineSeries::hovered, this, &CostChart::showTip);
            m_prices.push_back(s);
        }
    }
    m_log.markers->replace(marks);
    if (xMax > 0) {
        setDecadeRange(m_log.x, xMin, xMax);
        setDecadeRange(m_log.y, yMin, yMax);
    }
    fitLegend(m_log);

    m_filling = true;
    m_system->clear();
    for (const CostCurve& c : m_curves)
        m_system->addItem(c.label, c.hardwareId);
    const int keep = m_system->findData(chosen);
    m_system->setCurrentIndex(keep >= 0 ? keep : (m_curves.empty() ? -1 : 0));
    m_filling = false;
    showEditor();
}

void CostChart::showEditor()
{
    const int i = m_system->currentIndex();
    const bool ok = i >= 0 && size_t(i) < m_curves.size();
    m_hourly->setEnabled(ok);
    m_reset->setEnabled(ok && m_curves[size_t(i)].userHourly);
    if (!ok) {
        m_hourlySource->clear();
        return;
    }
    const CostCurve& c = m_curves[size_t(i)];
    m_filling = true;
    m_hourly->setValue(c.hourlyUsdPerDevice);
    m_filling = false;
    m_hourlySource->setText(c.userHourly
                                ? tr("your figure (preset: $%1)").arg(formatSignificant(c.presetHourlyUsdPerDevice))
                                : tr("preset: %1").arg(c.hourlySource));
    m_hourlySource->setToolTip(c.hourlySource);
}

void CostChart::showTip(const QPointF& point, bool state)
{
    if (!state) {
        QToolTip::hideText();
        return;
    }
    double best = std::numeric_limits<double>::max();
    QString text;
    for (const CostCurve& c : m_curves) {
        for (const CostPoint& p : c.points) {
            const double dx = std::log(p.tokensPerSecondPerUser / point.x());
            const double dy = std::log(p.usdPerMillionTokens / point.y());
            if (dx * dx + dy * dy < best) {
                best = dx * dx + dy * dy;
                text = pointTip(c, p);
            }
        }
        for (const ApiPrice& p : c.apiPrices) {
            const double dy = std::log(p.usdPerMillionOutputTokens / point.y());
            if (dy * dy < best) {
                best = dy * dy;
                text =
                    priceTip(c, p) + QLatin1Char('\n') + meetText(c.atScale.empty() ? c.points : c.atScale, p, false);
            }
        }
    }
    QToolTip::showText(QCursor::pos(), text, m_log.view);
}

ChartData CostChart::chartData() const
{
    ChartData d;
    d.name = QStringLiteral("cost_per_million_tokens");
    d.columns = QStringList{QStringLiteral("system"), QStringLiteral("concurrency"),
                            QStringLiteral("tokens_per_second_per_user")} +
                rangeColumns(QStringLiteral("usd_per_million_tokens")) +
                QStringList{QStringLiteral("hourly_usd"), QStringLiteral("kind"), QStringLiteral("source")};
    for (const CostCurve& c : m_curves) {
        for (const CostPoint& p : c.points)
            d.rows.append(QVariantList{c.label, p.concurrency, p.tokensPerSecondPerUser, p.usdPerMillionTokens,
                                       p.usdPerMillionTokensRange.low, p.usdPerMillionTokensRange.high, c.hourlyUsd,
                                       QStringLiteral("predicted"), c.hourlySource});
        for (const ApiPrice& p : c.apiPrices)
            d.rows.append(QVariantList{c.label, QVariant(), QVariant(), p.usdPerMillionOutputTokens, QVariant(),
                                       QVariant(), QVariant(), QStringLiteral("api_price"),
                                       QString::fromStdString(p.source)});
    }
    return d;
}

} // namespace ws::views
