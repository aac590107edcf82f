#include "views/compare/rangebarchart.h"

#include "views/charts/chartformat.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QFontMetricsF>
#include <QLineSeries>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ws::views {

QString measuredPointTip(const MeasuredPoint& p, double shownValue, const QString& unit)
{
    const QString origin = p.origin == MeasuredOrigin::Calibration ? RangeBarChart::tr("calibration row (fitted)")
                           : p.origin == MeasuredOrigin::User      ? RangeBarChart::tr("your measurements")
                                                                   : RangeBarChart::tr("reference row (not fitted)");
    const QString spec = p.speculative == Tristate::Yes  ? RangeBarChart::tr("yes")
                         : p.speculative == Tristate::No ? RangeBarChart::tr("no")
                                                         : RangeBarChart::tr("unknown");
    QString text =
        RangeBarChart::tr("Measured: %1 %2 — %3\nSource: %4\nDate: %5\nConfiguration: %6\n"
                          "Concurrency %7%8; speculative decoding: %9")
            .arg(formatSignificant(shownValue), unit, QString::fromStdString(p.label), QString::fromStdString(p.source),
                 p.date.empty() ? RangeBarChart::tr("not stated") : QString::fromStdString(p.date),
                 p.configuration.empty() ? RangeBarChart::tr("not stated") : QString::fromStdString(p.configuration))
            .arg(p.concurrency)
            .arg(p.batchKnown ? QString() : RangeBarChart::tr(" (the service's batch is not known)"), spec);
    text += QLatin1Char('\n') + origin;
    if (!p.note.empty())
        text += QLatin1Char('\n') + QString::fromStdString(p.note);
    if (!p.doubt.empty())
        text += QLatin1Char('\n') + RangeBarChart::tr("Doubtful: %1").arg(QString::fromStdString(p.doubt));
    return text;
}

RangeBarChart::RangeBarChart(QWidget* parent) : QWidget(parent)
{
    m_chart = new QChart;
    m_chart->legend()->hide();
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_series = new QStackedBarSeries;
    m_series->setBarWidth(0.6);
    m_chart->addSeries(m_series);
    m_axisX = new QBarCategoryAxis;
    m_axisY = new QValueAxis;
    m_axisY->setLabelFormat(QStringLiteral("%g"));
    QFont small = m_axisX->labelsFont();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    m_axisX->setLabelsFont(small);
    m_labelFont = small;
    m_chart->addAxis(m_axisX, Qt::AlignBottom);
    m_chart->addAxis(m_axisY, Qt::AlignLeft);
    m_series->attachAxis(m_axisX);
    m_series->attachAxis(m_axisY);
    connect(m_chart, &QChart::plotAreaChanged, this, &RangeBarChart::fitLabels);
    connect(m_series, &QStackedBarSeries::hovered, this,
            [this](bool status, int index, QBarSet*) { showTip(status, index); });

    // Owned by this widget until setBars puts it on the chart (the chart then owns it): a chart never filled (a
    // panel rebuilt for a new language while hidden) must not leak it.
    m_measured = new QScatterSeries(this);
    m_measured->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
    m_measured->setMarkerSize(12);
    m_measured->setColor(QColor(250, 250, 250));
    m_measured->setBorderColor(QColor(20, 20, 20));
    connect(m_measured, &QScatterSeries::hovered, this, [this](const QPointF& point, bool state) {
        if (state)
            QToolTip::showText(QCursor::pos(), measuredTipAt(point), m_view);
        else
            QToolTip::hideText();
    });

    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
}

QStringList RangeBarChart::categoryLines(int index) const
{
    const RangeBar& b = m_bars.at(static_cast<size_t>(index));
    const QString name = b.axisName.isEmpty() ? b.label : b.axisName;
    // Short lines (name, device count, value): the outer categories get little width at 1366 x 768, and Qt
    // Charts elides a label wider than its category ("Gro…", "unk…"), so a two-word name takes two lines and
    // an unknown value reads "n/a" (the table and tooltip say why).
    QStringList lines = name.split(QLatin1Char(' '));
    lines << b.axisNote << (b.known ? formatSignificant(b.value) : tr("n/a"));
    return lines;
}

QString RangeBarChart::categoryLabel(int index) const
{
    // Rich text: the value goes in bold on the last line under the system's name.
    QStringList lines = categoryLines(index);
    for (QString& line : lines)
        line = line.toHtmlEscaped();
    lines.back() = QStringLiteral("<b>") + lines.back() + QStringLiteral("</b>");
    return lines.join(QStringLiteral("<br>"));
}

void RangeBarChart::fitLabels()
{
    const int n = static_cast<int>(m_bars.size());
    const QRectF plotArea = m_chart->plotArea();
    if (n == 0 || !(plotArea.width() > 0))
        return;
    // Qt Charts gives each category label the plot's width over the count of grid lines (one more than the
    // categories) less 4 px of padding each side, measured as rich text with a 0.5 px margin all round (and 2 px
    // more here, as rich text measures a little wider than the lines' advances); and the axes at most 40 % of the
    // height below the title (its CartesianChartLayout's maxAxisPortion).
    const double room = plotArea.width() / (n + 1) - 8 - 3;
    const double tall = 0.4 * (m_chart->size().height() - plotArea.top() - m_chart->margins().bottom()) - 8 - 1;
    QFont font = m_labelFont;
    for (double scale = 1.0; scale > 0.69; scale -= 0.05) {
        font.setPointSizeF(m_labelFont.pointSizeF() * scale);
        QFont bold = font;
        bold.setBold(true);
        const QFontMetricsF fm(font), fmBold(bold);
        double widest = 0, tallest = 0;
        for (int i = 0; i < n; ++i) {
            const QStringList lines = categoryLines(i);
            for (int l = 0; l < lines.size(); ++l)
                widest = std::max(widest, (l + 1 == lines.size() ? fmBold : fm).horizontalAdvance(lines[l]));
            tallest = std::max(tallest, lines.size() * fmBold.lineSpacing());
        }
        if (widest <= room && tallest <= tall)
            break;
    }
    if (font != m_axisX->labelsFont())
        m_axisX->setLabelsFont(font);
}

void RangeBarChart::setBars(const QString& title, const QString& axisTitle, const QString& dataName,
                            const QString& valueColumn, const std::vector<RangeBar>& bars)
{
    m_bars = bars;
    m_dataName = dataName;
    m_valueColumn = valueColumn;
    m_chart->setTitle(title);
    m_axisY->setTitleText(axisTitle);

    // One stacked set per bar, non-zero only in its own category: each bar gets its own colour.
    m_series->clear();
    const int n = static_cast<int>(bars.size());
    QStringList categories;
    for (int i = 0; i < n; ++i) {
        auto* set = new QBarSet(bars[size_t(i)].label);
        set->setColor(bars[size_t(i)].color);
        set->setBorderColor(bars[size_t(i)].color.darker(130));
        QList<qreal> values(n, 0.0);
        if (bars[size_t(i)].known)
            values[i] = bars[size_t(i)].value;
        set->append(values);
        m_series->append(set);
        categories << categoryLabel(i);
    }
    m_axisX->setCategories(categories);
    fitLabels();

    for (QLineSeries* w : m_whiskers) {
        m_chart->removeSeries(w);
        delete w;
    }
    m_whiskers.clear();
    double top = 0;
    for (int i = 0; i < n; ++i) {
        const RangeBar& b = bars[size_t(i)];
        auto* w = new QLineSeries;
        if (b.known) {
            const double lo = std::min(b.low, b.value);
            const double hi = std::max(b.high, b.value);
            const double cap = 0.12;
            // One polyline draws the whole "I": low cap, stem, high cap.
            w->replace(QList<QPointF>{
                {i - cap, lo}, {i + cap, lo}, {double(i), lo}, {double(i), hi}, {i - cap, hi}, {i + cap, hi}});
            top = std::max(top, hi);
        }
        QPen pen(QColor(40, 40, 40));
        pen.setWidthF(1.6);
        w->setPen(pen);
        m_chart->addSeries(w);
        w->attachAxis(m_axisX);
        w->attachAxis(m_axisY);
        m_whiskers.push_back(w);
    }
    // Measured figures on top of the whiskers: removed and added again so they are drawn last.
    if (m_chart->series().contains(m_measured))
        m_chart->removeSeries(m_measured);
    QList<QPointF> marks;
    for (int i = 0; i < n; ++i)
        for (const MeasuredMark& m : bars[size_t(i)].measured) {
            marks.append({double(i), m.value});
            top = std::max(top, m.value);
        }
    m_measured->replace(marks);
    m_chart->addSeries(m_measured);
    m_measured->attachAxis(m_axisX);
    m_measured->attachAxis(m_axisY);
    if (!marks.isEmpty())
        m_chart->setTitle(title + QStringLiteral("<br><span style='font-size:small; color:#555'>") +
                          tr("◆ published or measured figures (hover for the source)") + QStringLiteral("</span>"));
    m_axisY->setRange(0, top > 0 ? top * 1.08 : 1.0);
    m_axisY->applyNiceNumbers();
}

QString RangeBarChart::measuredTipAt(const QPointF& value) const
{
    const double span = std::max(1e-12, m_axisY->max() - m_axisY->min());
    double best = std::numeric_limits<double>::max();
    QString text;
    for (size_t i = 0; i < m_bars.size(); ++i)
        for (const MeasuredMark& m : m_bars[i].measured) {
            const double d = std::hypot(double(i) - value.x(), (m.value - value.y()) / span * 4.0);
            if (d < best && d < 0.5) {
                best = d;
                text = m.tooltip;
            }
        }
    return text;
}

void RangeBarChart::showTip(bool status, int index)
{
    if (!status || index < 0 || index >= static_cast<int>(m_bars.size())) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(QCursor::pos(), m_bars[size_t(index)].tooltip, m_view);
}

ChartData RangeBarChart::chartData() const
{
    ChartData d;
    d.name = m_dataName;
    d.columns =
        QStringList{QStringLiteral("system")} + rangeColumns(m_valueColumn) + QStringList{QStringLiteral("measured")};
    for (const RangeBar& b : m_bars) {
        QStringList measured;
        for (const MeasuredMark& m : b.measured)
            measured << formatSignificant(m.value);
        const QVariant marks = measured.isEmpty() ? QVariant() : QVariant(measured.join(QLatin1Char(' ')));
        if (b.known)
            d.rows.append(QVariantList{b.label, b.value, b.low, b.high, marks});
        else
            d.rows.append(QVariantList{b.label, QVariant(), QVariant(), QVariant(), marks});
    }
    return d;
}

} // namespace ws::views
