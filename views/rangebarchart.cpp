#include "views/rangebarchart.h"

#include "views/chartformat.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QLineSeries>
#include <QStackedBarSeries>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace ws::views {

RangeBarChart::RangeBarChart(QWidget* parent)
    : QWidget(parent)
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
    m_chart->addAxis(m_axisX, Qt::AlignBottom);
    m_chart->addAxis(m_axisY, Qt::AlignLeft);
    m_series->attachAxis(m_axisX);
    m_series->attachAxis(m_axisY);
    connect(m_series, &QStackedBarSeries::hovered, this,
            [this](bool status, int index, QBarSet*) { showTip(status, index); });

    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
}

QString RangeBarChart::categoryLabel(int index) const
{
    const RangeBar& b = m_bars.at(static_cast<size_t>(index));
    // Axis labels are rich text: the value goes on a second line under the system's name.
    const QString name = b.axisName.isEmpty() ? b.label : b.axisName;
    // Three short lines (name, device count, value): the outer categories get little width.
    const QString note = b.axisNote.toHtmlEscaped() + QStringLiteral("<br>");
    return name.toHtmlEscaped() + QStringLiteral("<br>") + note + QStringLiteral("<b>") +
           (b.known ? formatSignificant(b.value) : tr("unknown")) + QStringLiteral("</b>");
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
            w->replace(QList<QPointF>{{i - cap, lo}, {i + cap, lo}, {double(i), lo}, {double(i), hi}, {i - cap, hi},
                                      {i + cap, hi}});
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
    m_axisY->setRange(0, top > 0 ? top * 1.08 : 1.0);
    m_axisY->applyNiceNumbers();
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
    d.columns = {QStringLiteral("system"), m_valueColumn, m_valueColumn + QStringLiteral("_low"),
                 m_valueColumn + QStringLiteral("_high")};
    for (const RangeBar& b : m_bars) {
        if (b.known)
            d.rows.append(QVariantList{b.label, b.value, b.low, b.high});
        else
            d.rows.append(QVariantList{b.label, QVariant(), QVariant(), QVariant()});
    }
    return d;
}

} // namespace ws::views
