#include "views/charts/logchart.h"

#include <QAbstractSeries>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QFontMetricsF>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLogValueAxis>
#include <QPalette>
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

// A title's first line wider than `width` breaks at the space nearest its middle (the chart shows rich text)
// instead of ending in "..."; the break is written "<br/>", so that lines the chart's own title has ("<br>") stay.
void fitTitle(QChart* chart, double width)
{
    const QString whole = chart->title().replace(QStringLiteral("<br/>"), QStringLiteral(" "));
    const qsizetype end = whole.indexOf(QStringLiteral("<br>"));
    const QString first = whole.left(end < 0 ? whole.size() : end);
    QString shown = whole;
    if (!first.contains(QLatin1Char('<')) && QFontMetricsF(chart->titleFont()).horizontalAdvance(first) > width - 24) {
        const qsizetype middle = first.size() / 2;
        const qsizetype before = first.lastIndexOf(QLatin1Char(' '), middle);
        const qsizetype after = first.indexOf(QLatin1Char(' '), middle);
        const qsizetype at = before < 0 ? after : after < 0 || middle - before <= after - middle ? before : after;
        if (at > 0) // at a space, which goes
            shown = first.left(at) + QStringLiteral("<br/>") + whole.mid(at + 1);
        else // no space (Chinese): at the middle
            shown = first.left(middle) + QStringLiteral("<br/>") + whole.mid(middle);
    }
    if (shown != chart->title())
        chart->setTitle(shown);
}

constexpr char kHiddenEntry[] = "wsLegendEntryHidden";
constexpr int kMarginPx = 4; // the chart's margins (the bottom one grows by the legend as text)

// Whether an entry is meant to be shown: its series is, and showLegendEntry did not hide it (the marker's own
// visibility follows the legend's, which the legend as text hides).
bool entryShown(QLegendMarker* m)
{
    return m->series() && m->series()->isVisible() && !m->property(kHiddenEntry).toBool();
}

// The entries shown as rich text: each one's colour swatch and whole name, kept together on a line.
QString legendHtml(const QLegend* legend)
{
    QStringList entries;
    for (QLegendMarker* m : legend->markers())
        if (entryShown(m)) {
            const QColor fill = m->brush().color();
            entries << QStringLiteral(
                           "<span style=\"white-space:nowrap\"><span style=\"color:%1\">&#9632;</span>&nbsp;%2</span>")
                           .arg(fill.name(), m->label().toHtmlEscaped());
        }
    return entries.join(QStringLiteral(" &nbsp; "));
}
} // namespace

void showLegendEntry(QLegendMarker* marker, bool shown)
{
    marker->setVisible(shown);
    marker->setProperty(kHiddenEntry, !shown);
}

void fitLegend(const LogChart& c)
{
    if (!c.chart || !c.view)
        return;
    const double width = c.view->width();
    fitTitle(c.chart, width);
    QLegend* legend = c.chart->legend();
    const QFontMetricsF fm(legend->font());
    constexpr double kMarkerPx = 28; // a marker's square and the gaps around it
    double row = 0, widest = 0;
    for (QLegendMarker* m : legend->markers())
        if (entryShown(m)) {
            const double w = fm.horizontalAdvance(m->label()) + kMarkerPx;
            row += w;
            widest = std::max(widest, w);
        }
    const bool bottom = row <= width - 16;
    const bool right = !bottom && width - widest - 24 >= 240;
    const bool text = !bottom && !right && c.legendText;
    const Qt::Alignment want = right ? Qt::AlignRight : Qt::AlignBottom;
    if (legend->alignment() != want)
        legend->setAlignment(want);
    if (legend->isVisible() == text)
        legend->setVisible(!text);
    if (!c.legendText)
        return;
    int textHeight = 0;
    if (text) {
        c.legendText->setText(legendHtml(legend));
        QPalette palette = c.legendText->palette(); // the legend's text colour on the chart's background
        palette.setColor(QPalette::WindowText, legend->labelColor());
        c.legendText->setPalette(palette);
        textHeight = c.legendText->heightForWidth(c.view->width());
        // Inside the chart's background, whose rounded edge stands a little in from the view's.
        c.legendText->setGeometry(0, c.view->height() - textHeight - 3 * kMarginPx, c.view->width(), textHeight);
        textHeight += 2 * kMarginPx;
    }
    c.legendText->setVisible(text);
    QMargins margins = c.chart->margins();
    if (margins.bottom() != kMarginPx + textHeight) {
        margins.setBottom(kMarginPx + textHeight);
        c.chart->setMargins(margins);
    }
}

LogChart makeLogChart(QWidget* host, bool fill, const QString& title, const QString& xTitle, const QString& yTitle,
                      const QString& markerName)
{
    LogChart c;
    c.chart = new QChart;
    c.chart->setTitle(title);
    c.chart->setAnimationOptions(QChart::NoAnimation);
    c.chart->setMargins(QMargins(kMarginPx, kMarginPx, kMarginPx, kMarginPx));
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
    c.legendText = new QLabel(c.view);
    c.legendText->setWordWrap(true);
    c.legendText->setTextFormat(Qt::RichText);
    c.legendText->setFont(small);
    c.legendText->setContentsMargins(8, 0, 8, 4);
    c.legendText->hide();
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
