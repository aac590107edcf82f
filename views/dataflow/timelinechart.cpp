#include "views/dataflow/timelinechart.h"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QCoreApplication>
#include <QEvent>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QMouseEvent>
#include <QTimer>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace ws::views {

namespace {

constexpr double kBarHalf = 0.38; // half a bar's height, in rows

const char* const kKindNames[] = {
    QT_TRANSLATE_NOOP("ws::views::TimelineChart", "embedding"),
    QT_TRANSLATE_NOOP("ws::views::TimelineChart", "attention RMSNorm"),
    QT_TRANSLATE_NOOP("ws::views::TimelineChart", "QKV projection"),
    QT_TRANSLATE_NOOP("ws::views::TimelineChart", "RoPE"),
    QT_TRANSLATE_NOOP("ws::views::TimelineChart", "attention scores"),
    QT_TRANSLATE_NOOP("ws::views::TimelineChart", "softmax"),
    QT_TRANSLATE_NOOP("ws::views::TimelineChart", "scores × V"),
    QT_TRANSLATE_NOOP("ws::views::TimelineChart", "output projection"),
    QT_TRANSLATE_NOOP("ws::views::TimelineChart", "FFN RMSNorm"),
    QT_TRANSLATE_NOOP("ws::views::TimelineChart", "MoE router"),
    QT_TRANSLATE_NOOP("ws::views::TimelineChart", "MoE dispatch"),
    QT_TRANSLATE_NOOP("ws::views::TimelineChart", "FFN gate/up"),
    QT_TRANSLATE_NOOP("ws::views::TimelineChart", "FFN down"),
    QT_TRANSLATE_NOOP("ws::views::TimelineChart", "MoE combine"),
    QT_TRANSLATE_NOOP("ws::views::TimelineChart", "residual"),
    QT_TRANSLATE_NOOP("ws::views::TimelineChart", "KV shift"),
    QT_TRANSLATE_NOOP("ws::views::TimelineChart", "hop to next layer"),
    QT_TRANSLATE_NOOP("ws::views::TimelineChart", "hop to next wafer"),
    QT_TRANSLATE_NOOP("ws::views::TimelineChart", "final RMSNorm"),
    QT_TRANSLATE_NOOP("ws::views::TimelineChart", "LM head"),
    QT_TRANSLATE_NOOP("ws::views::TimelineChart", "argmax"),
    QT_TRANSLATE_NOOP("ws::views::TimelineChart", "token feedback"),
};
static_assert(std::size(kKindNames) == size_t(PhaseKind::Count));

const QColor kBandColors[3] = {QColor(0xf0, 0x8a, 0x24), QColor(0xd8, 0x4a, 0x6a), QColor(0x3a, 0x8f, 0xe0)};

// One bar as 4 upper and 4 lower points; consecutive bars join at zero height.
void addBar(QList<QPointF>& upper, QList<QPointF>& lower, double x0, double x1, double row)
{
    upper << QPointF(x0, row) << QPointF(x0, row + kBarHalf) << QPointF(x1, row + kBarHalf) << QPointF(x1, row);
    lower << QPointF(x0, row) << QPointF(x0, row - kBarHalf) << QPointF(x1, row - kBarHalf) << QPointF(x1, row);
}

} // namespace

QString phaseKindName(PhaseKind kind)
{
    const size_t i = size_t(kind);
    return i < std::size(kKindNames) ? QCoreApplication::translate("ws::views::TimelineChart", kKindNames[i])
                                     : QString();
}

QString phaseLabel(const Phase& phase)
{
    if (phase.layer < 0)
        return phaseKindName(phase.kind);
    return QCoreApplication::translate("ws::views::TimelineChart", "L%1 · %2")
        .arg(phase.layer)
        .arg(phaseKindName(phase.kind));
}

TimelineChart::TimelineChart(QWidget* parent) : QChartView(parent)
{
    // A zero timer (QTimer::singleShot(0) is a queued call): it fires once the events pending now are done.
    m_barsTimer = new QTimer(this);
    m_barsTimer->setSingleShot(true);
    m_barsTimer->setInterval(0);
    connect(m_barsTimer, &QTimer::timeout, this, [this] {
        if (m_schedule && width() != m_barsWidth)
            m_barsStale = true;
        if (!isVisible())
            return;
        if (m_barsStale)
            layOutBars();
        if (applyBarsStep())
            m_barsTimer->start(); // the next step once the events pending then are done
    });
    auto* chart = new QChart;
    chart->setTheme(QChart::ChartThemeDark);
    chart->setBackgroundBrush(QColor(0x1b, 0x1e, 0x26));
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignRight);
    m_axisX = new QValueAxis(chart);
    // Rows are not layers (row 0 is the embedding, the last the LM head): the axis names the layers as the heatmap
    // does (L0 ...). Labels one digit wide left no room for a Chinese title: 层 came out as an ellipsis.
    m_axisY = new QCategoryAxis(chart);
    m_axisY->setReverse(true);
    m_axisY->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    chart->addAxis(m_axisX, Qt::AlignBottom);
    chart->addAxis(m_axisY, Qt::AlignLeft);
    m_prefillUpper = new QLineSeries(chart);
    m_prefillLower = new QLineSeries(chart);
    m_prefillBand = new QAreaSeries(m_prefillUpper, m_prefillLower);
    m_prefillBand->setBrush(QColor(0x5c, 0xc8, 0x8a, 46));
    m_prefillBand->setPen(QPen(QColor(0x5c, 0xc8, 0x8a), 1));
    chart->addSeries(m_prefillBand);
    m_prefillBand->attachAxis(m_axisX);
    m_prefillBand->attachAxis(m_axisY);
    for (int b = 0; b < 3; ++b) {
        m_upper[b] = new QLineSeries(chart);
        m_lower[b] = new QLineSeries(chart);
        m_bands[b] = new QAreaSeries(m_upper[b], m_lower[b]);
        m_bands[b]->setBrush(kBandColors[b]);
        m_bands[b]->setPen(Qt::NoPen);
        chart->addSeries(m_bands[b]);
        m_bands[b]->attachAxis(m_axisX);
        m_bands[b]->attachAxis(m_axisY);
    }
    m_cursor = new QLineSeries(chart);
    m_cursor->setPen(QPen(QColor(240, 240, 250), 1.5));
    chart->addSeries(m_cursor);
    m_cursor->attachAxis(m_axisX);
    m_cursor->attachAxis(m_axisY);
    chart->legend()->markers(m_cursor).value(0)->setVisible(false);
    // QChartView's constructor made a chart of its own; setChart() hands it back unowned.
    QChart* const builtIn = this->chart();
    setChart(chart);
    delete builtIn;
    setRenderHint(QPainter::Antialiasing, false);
    setMouseTracking(true);
    setMinimumHeight(160);
    retranslate();
    setSchedule(nullptr);
}

int TimelineChart::rowOf(const Phase& p) const
{
    if (p.layer >= 0)
        return std::min(p.layer, m_layers - 1) + 1;
    return p.kind == PhaseKind::Embedding ? 0 : m_layers + 1;
}

void TimelineChart::setSchedule(std::shared_ptr<const TokenSchedule> schedule)
{
    m_schedule = std::move(schedule);
    m_layers = 0;
    m_firstLayer = -1;
    if (m_schedule)
        for (const Phase& p : m_schedule->phases) {
            m_layers = std::max(m_layers, p.layer + 1);
            if (p.layer >= 0 && (m_firstLayer < 0 || p.layer < m_firstLayer))
                m_firstLayer = p.layer;
        }
    // Hidden (a closed dock, a presentation): the bars are laid out when shown or asked for, not for nothing.
    m_barsStale = true;
    if (isVisible())
        ensureBars();
}

void TimelineChart::ensureBars() const
{
    auto* self = const_cast<TimelineChart*>(this);
    if (m_barsStale)
        self->layOutBars();
    while (self->applyBarsStep()) {
    }
}

void TimelineChart::paintEvent(QPaintEvent* event)
{
    // The bars are laid out for the latest schedule and the width drawn at (their least width is in pixels). Shown
    // or resized, the view paints what it has and lays them out after the paint, not with it (a 64-layer schedule
    // took 38 ms when shown, laid out for the width before the dock's layout, then again for its own).
    if ((m_barsStale || (m_schedule && width() != m_barsWidth)) && !m_barsTimer->isActive())
        m_barsTimer->start();
    QChartView::paintEvent(event);
}

void TimelineChart::layOutBars()
{
    m_barsStale = false;
    m_barsWidth = width();
    PendingBars bars;
    auto& upper = bars.upper;
    auto& lower = bars.lower;
    const double usPerCycle = m_schedule && m_schedule->clockHz > 0 ? 1e6 / m_schedule->clockHz : 0.0;
    bars.totalUs = m_schedule ? m_schedule->totalCycles * usPerCycle : 0.0;
    // The narrowest allreduce or forwarding bar: kMinBarPixels of the plot (before its first layout, the view).
    const double plotPixels = chart()->plotArea().width() > 1 ? chart()->plotArea().width() : width() - 80.0;
    const double minUs = plotPixels > 0 ? kMinBarPixels * bars.totalUs / plotPixels : 0.0;
    const auto addShortBar = [&](int band, double x0, double x1, double row) {
        addBar(upper[band], lower[band], x0, std::max(x1, x0 + minUs), row);
    };
    if (m_schedule) {
        for (const Phase& p : m_schedule->phases) {
            const double row = rowOf(p);
            if (!p.computes) {
                addShortBar(2, p.startCycle * usPerCycle, p.endCycle * usPerCycle, row);
                continue;
            }
            const double split = std::clamp(p.computeEndCycle, p.startCycle, p.endCycle);
            if (split > p.startCycle)
                addBar(upper[0], lower[0], p.startCycle * usPerCycle, split * usPerCycle, row);
            if (p.endCycle > split)
                addShortBar(1, split * usPerCycle, p.endCycle * usPerCycle, row);
        }
        if (m_schedule->isPrefill())
            bars.promptUs = m_schedule->promptEndCycle * usPerCycle;
    }
    m_pending = std::move(bars);
}

bool TimelineChart::applyBarsStep()
{
    // In steps the event loop can run between (the timer's): 2-4 ms each for a 64-layer schedule's 5,668 points,
    // where all at once held it for 6-13 ms.
    if (!m_pending)
        return false;
    PendingBars& bars = *m_pending;
    const int step = bars.step++;
    if (step == 0) {
        // The axes between no points and the new ones: a range set with points in place lays every band's points
        // out again (33 ms for that schedule, against 7 ms for the points themselves).
        for (int b = 0; b < 3; ++b) {
            m_upper[b]->clear();
            m_lower[b]->clear();
        }
        m_axisX->setRange(0, bars.totalUs > 0 ? bars.totalUs : 1.0);
        m_axisY->setRange(-0.6, m_layers + 1.6);
        for (const QString& label : m_axisY->categoriesLabels())
            m_axisY->remove(label);
        m_axisY->setStartValue(-0.6);
        if (m_layers > 0) {
            m_axisY->append(QStringLiteral("L%1").arg(m_firstLayer), m_firstLayer + 1);
            if (m_layers - 1 > m_firstLayer)
                m_axisY->append(QStringLiteral("L%1").arg(m_layers - 1), m_layers);
        }
        m_axisY->setGridLineVisible(m_layers > 0); // its lines are at the labels: none without them
        return true;
    }
    if (step <= 3) {
        m_upper[step - 1]->replace(bars.upper[step - 1]);
        m_lower[step - 1]->replace(bars.lower[step - 1]);
        return true;
    }
    const bool prefill = bars.promptUs >= 0;
    m_prefillUpper->replace(prefill ? QList<QPointF>{{0, -0.6}, {bars.promptUs, -0.6}} : QList<QPointF>{});
    m_prefillLower->replace(prefill ? QList<QPointF>{{0, m_layers + 1.6}, {bars.promptUs, m_layers + 1.6}}
                                    : QList<QPointF>{});
    chart()->legend()->markers(m_prefillBand).value(0)->setVisible(prefill);
    m_pending.reset();
    retranslate();
    setCursorCycle(m_cursorCycle);
    return false;
}

void TimelineChart::setCursorCycle(double cycle)
{
    m_cursorCycle = cycle;
    // A playing token moves the cursor every frame, also while the Dataflow dock is hidden (Present mode plays on
    // the heatmap alone): QtCharts lays the line out again at each move (0.3-0.5 ms a frame). Hidden, it waits.
    m_cursorStale = !isVisible();
    if (!m_cursorStale)
        applyCursor();
}

void TimelineChart::showEvent(QShowEvent* event)
{
    if (m_cursorStale)
        applyCursor();
    QChartView::showEvent(event);
}

void TimelineChart::applyCursor()
{
    m_cursorStale = false;
    const double cycle = m_cursorCycle;
    if (!m_schedule || !(m_schedule->clockHz > 0)) {
        m_cursor->replace(QList<QPointF>{});
        return;
    }
    const double us = cycle / m_schedule->clockHz * 1e6;
    m_cursor->replace(QList<QPointF>{QPointF(us, -0.6), QPointF(us, m_layers + 1.6)});
}

int TimelineChart::phaseAt(double cycle, int row) const
{
    if (!m_schedule)
        return -1;
    const auto& phases = m_schedule->phases;
    for (size_t i = 0; i < phases.size(); ++i)
        if (phases[i].startCycle <= cycle && cycle < phases[i].endCycle && rowOf(phases[i]) == row)
            return int(i);
    return -1;
}

QPointF TimelineChart::valueAt(QPoint widgetPos) const
{
    ensureBars();
    const QPointF scenePos = mapToScene(widgetPos);
    const QPointF chartPos = chart()->mapFromScene(scenePos);
    const QPointF value = chart()->mapToValue(chartPos, m_cursor);
    const double clockHz = m_schedule ? m_schedule->clockHz : 0.0;
    return QPointF(value.x() * 1e-6 * clockHz, value.y());
}

QPoint TimelineChart::positionOf(double cycle, double row) const
{
    ensureBars();
    const double clockHz = m_schedule && m_schedule->clockHz > 0 ? m_schedule->clockHz : 1.0;
    const QPointF chartPos = chart()->mapToPosition(QPointF(cycle / clockHz * 1e6, row), m_cursor);
    return mapFromScene(chart()->mapToScene(chartPos));
}

int TimelineChart::bandPointCount(Band band) const
{
    ensureBars();
    return int(m_upper[int(band)]->count());
}

QList<QPointF> TimelineChart::bandPoints(Band band) const
{
    ensureBars();
    return m_upper[int(band)]->points();
}

void TimelineChart::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton && m_schedule &&
        chart()->plotArea().contains(chart()->mapFromScene(mapToScene(event->pos())))) {
        const double cycle = std::clamp(valueAt(event->pos()).x(), 0.0, m_schedule->totalCycles);
        emit seekRequested(cycle);
        event->accept();
        return;
    }
    QChartView::mousePressEvent(event);
}

void TimelineChart::mouseMoveEvent(QMouseEvent* event)
{
    const QString tip = toolTipAt(event->pos());
    if (tip.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), tip, this);
    if (event->buttons() & Qt::LeftButton && m_schedule)
        emit seekRequested(std::clamp(valueAt(event->pos()).x(), 0.0, m_schedule->totalCycles));
    QChartView::mouseMoveEvent(event);
}

QList<QPointF> TimelineChart::prefillBandPoints() const
{
    ensureBars();
    return m_prefillUpper->points();
}

QString TimelineChart::prefillBandName() const
{
    return m_prefillBand->name();
}

void TimelineChart::retranslate()
{
    m_prefillBand->setName(m_schedule && m_schedule->isPrefill()
                               ? tr("prefill, %1 tokens").arg(QLocale().toString(m_schedule->promptTokens))
                               : tr("prefill"));
    m_bands[0]->setName(tr("local compute"));
    m_bands[1]->setName(tr("allreduce"));
    m_bands[2]->setName(tr("forwarding (hops)"));
    m_axisX->setTitleText(tr("wafer time (µs)"));
    m_axisY->setTitleText(tr("layer"));
}

void TimelineChart::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QChartView::changeEvent(event);
}

} // namespace ws::views
