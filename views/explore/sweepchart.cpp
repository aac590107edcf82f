#include "views/explore/sweepchart.h"

#include "views/mesh/colorscale.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QLineSeries>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QScatterSeries>
#include <QStackedLayout>
#include <QValueAxis>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>

namespace ws::views {

namespace {
QString parameterName(SweepParameter p)
{
    return QString::fromLatin1(sweepParameterId(p));
}

// The numeric value of every axis entry, or nothing when one is not a number (order, precision).
std::optional<std::vector<double>> numbers(const SweepAxis& axis)
{
    std::vector<double> out;
    for (const std::string& v : axis.values) {
        double d = 0;
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
        if (ec != std::errc() || end != v.data() + v.size())
            return std::nullopt;
        out.push_back(d);
    }
    return out;
}
} // namespace

// Two parameters: one cell per point, coloured by tokens/s per user.
class SweepHeatmap : public QWidget
{
public:
    explicit SweepHeatmap(SweepChart* chart) : QWidget(chart), m_chart(chart) { setMouseTracking(true); }
    void setResult(std::shared_ptr<const SweepResult> r)
    {
        m_result = std::move(r);
        update();
    }

protected:
    QRectF grid() const { return QRectF(90, 30, std::max(10, width() - 110), std::max(10, height() - 80)); }
    std::pair<size_t, size_t> shape() const
    {
        return {m_result->axes[0].values.size(), m_result->axes[1].values.size()};
    }
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        p.fillRect(rect(), palette().base());
        if (!m_result || m_result->axes.size() != 2)
            return;
        const auto [rows, cols] = shape();
        double top = 0, bottom = std::numeric_limits<double>::max();
        for (const SweepPoint& pt : m_result->points)
            if (pt.error.empty()) {
                top = std::max(top, pt.tokensPerSecondPerUser);
                bottom = std::min(bottom, pt.tokensPerSecondPerUser);
            }
        const double span = top > bottom ? top - bottom : 1.0;
        const QRectF g = grid();
        const double cw = g.width() / double(cols);
        const double ch = g.height() / double(rows);
        const ColorScale scale = ColorScale::sramOccupancy();
        for (const SweepPoint& pt : m_result->points) {
            const size_t r = size_t(pt.index) / cols;
            const size_t c = size_t(pt.index) % cols;
            const QRectF cell(g.left() + double(c) * cw, g.top() + double(r) * ch, cw + 0.5, ch + 0.5);
            p.fillRect(cell, pt.error.empty() && top > 0
                                 ? QColor(scale.map(float((pt.tokensPerSecondPerUser - bottom) / span)))
                                 : QColor(90, 90, 90));
        }
        p.setPen(palette().text().color());
        const QFontMetricsF fm(font());
        p.drawText(QRectF(0, 4, width(), fm.height()), Qt::AlignHCenter,
                   SweepChart::tr("Tokens/s per user over %1 (down) and %2 (across): %3 (darkest) to %4 (brightest)")
                       .arg(parameterName(m_result->axes[0].parameter), parameterName(m_result->axes[1].parameter),
                            QLocale().toString(top > 0 ? bottom : 0, 'g', 4), QLocale().toString(top, 'g', 4)));
        const size_t colStep = std::max<size_t>(1, size_t(std::ceil(double(cols) * 60.0 / g.width())));
        for (size_t c = 0; c < cols; c += colStep)
            p.drawText(QRectF(g.left() + double(c) * cw, g.bottom() + 4, std::max(cw, 60.0), fm.height()),
                       Qt::AlignLeft, QString::fromStdString(m_result->axes[1].values[c]));
        const size_t rowStep = std::max<size_t>(1, size_t(std::ceil(double(rows) * fm.height() / g.height())));
        for (size_t r = 0; r < rows; r += rowStep)
            p.drawText(QRectF(0, g.top() + double(r) * ch, g.left() - 6, std::max(ch, fm.height())),
                       Qt::AlignRight | Qt::AlignTop, QString::fromStdString(m_result->axes[0].values[r]));
    }
    void mouseReleaseEvent(QMouseEvent* e) override
    {
        if (!m_result || m_result->axes.size() != 2 || !grid().contains(e->position()))
            return;
        const auto [rows, cols] = shape();
        const QRectF g = grid();
        const auto c = size_t((e->position().x() - g.left()) / g.width() * double(cols));
        const auto r = size_t((e->position().y() - g.top()) / g.height() * double(rows));
        const int64_t index = int64_t(std::min(r, rows - 1) * cols + std::min(c, cols - 1));
        for (const SweepPoint& pt : m_result->points)
            if (pt.index == index && pt.error.empty())
                emit m_chart->pointClicked(index);
    }

private:
    SweepChart* m_chart;
    std::shared_ptr<const SweepResult> m_result;
};

SweepChart::SweepChart(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("sweepChart"));
    m_chart = new QChart;
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_heatmap = new SweepHeatmap(this);
    m_stack = new QStackedLayout(this);
    m_stack->setContentsMargins(0, 0, 0, 0);
    m_stack->addWidget(m_view);
    m_stack->addWidget(m_heatmap);
    setMinimumSize(240, 150);
}

void SweepChart::setResult(std::shared_ptr<const SweepResult> result)
{
    m_result = std::move(result);
    rebuild();
}

void SweepChart::setMode(Mode mode)
{
    m_mode = mode;
    rebuild();
}

void SweepChart::setParetoAgainstKv(bool kv)
{
    m_againstKv = kv;
    rebuild();
}

void SweepChart::rebuild()
{
    m_chart->removeAllSeries();
    for (QAbstractAxis* a : m_chart->axes()) {
        m_chart->removeAxis(a);
        delete a;
    }
    m_chart->setTitle(QString());
    m_heatmap->setResult(nullptr);
    m_stack->setCurrentWidget(m_view);
    if (!m_result || m_result->axes.empty())
        return;
    if (m_mode == Mode::Pareto)
        buildPareto();
    else if (m_result->axes.size() == 2) {
        m_heatmap->setResult(m_result);
        m_stack->setCurrentWidget(m_heatmap);
    } else
        buildLine();
}

void SweepChart::buildLine()
{
    const SweepAxis& axis = m_result->axes[0];
    const auto xs = numbers(axis);
    auto* line = new QLineSeries;
    line->setName(tr("tokens/s per user"));
    auto* dots = new QScatterSeries;
    dots->setMarkerSize(7);
    dots->setName(tr("points (click to open as B)"));
    double lo = std::numeric_limits<double>::max(), hi = 0;
    for (const SweepPoint& p : m_result->points) {
        if (!p.error.empty())
            continue;
        const double x = xs ? (*xs)[size_t(p.index)] : double(p.index);
        line->append(x, p.tokensPerSecondPerUser);
        dots->append(x, p.tokensPerSecondPerUser);
        lo = std::min(lo, p.tokensPerSecondPerUser);
        hi = std::max(hi, p.tokensPerSecondPerUser);
    }
    m_chart->setTitle(tr("Tokens/s per user over %1").arg(parameterName(axis.parameter)));
    m_chart->addSeries(line);
    m_chart->addSeries(dots);
    QAbstractAxis* xAxis = nullptr;
    if (xs) {
        auto* v = new QValueAxis;
        v->setRange(*std::min_element(xs->begin(), xs->end()), *std::max_element(xs->begin(), xs->end()));
        v->setLabelFormat(QStringLiteral("%g"));
        xAxis = v;
    } else {
        auto* c = new QCategoryAxis;
        c->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        for (size_t i = 0; i < axis.values.size(); ++i)
            c->append(QString::fromStdString(axis.values[i]) + QString(int(i), QChar(0x200B)), double(i));
        c->setRange(0, std::max<double>(1, double(axis.values.size() - 1)));
        xAxis = c;
    }
    xAxis->setTitleText(parameterName(axis.parameter));
    auto* yAxis = new QValueAxis;
    yAxis->setTitleText(tr("tokens/s per user"));
    if (hi > 0)
        yAxis->setRange(lo * 0.98, hi * 1.02);
    addAxes(xAxis, yAxis, line, dots);
}

void SweepChart::buildPareto()
{
    auto xOf = [this](const SweepPoint& p) { return m_againstKv ? double(p.kvCapacityTokens) : double(p.devices); };
    auto* all = new QScatterSeries;
    all->setName(tr("sweep points (click to open as B)"));
    all->setMarkerSize(8);
    all->setColor(QColor(90, 140, 220));
    double xLo = std::numeric_limits<double>::max(), xHi = 0, yHi = 0;
    for (const SweepPoint& p : m_result->points) {
        if (!p.error.empty())
            continue;
        all->append(xOf(p), p.tokensPerSecondPerUser);
        xLo = std::min(xLo, xOf(p));
        xHi = std::max(xHi, xOf(p));
        yHi = std::max(yHi, p.tokensPerSecondPerUser);
    }
    auto* front = new QLineSeries;
    front->setName(tr("Pareto front"));
    QPen pen(QColor(230, 120, 40));
    pen.setWidthF(2.5);
    front->setPen(pen);
    for (size_t i : paretoFront(*m_result, m_againstKv))
        front->append(xOf(m_result->points[i]), m_result->points[i].tokensPerSecondPerUser);
    m_chart->setTitle(m_againstKv ? tr("Pareto view: tokens/s per user against KV capacity")
                                  : tr("Pareto view: tokens/s per user against wafers"));
    m_chart->addSeries(all);
    m_chart->addSeries(front);
    auto* xAxis = new QValueAxis;
    xAxis->setTitleText(m_againstKv ? tr("KV capacity (tokens per layer region)") : tr("wafers"));
    xAxis->setLabelFormat(QStringLiteral("%g"));
    const double pad = std::max(0.5, 0.05 * (xHi - xLo));
    if (xHi > 0)
        xAxis->setRange(std::max(0.0, xLo - pad), xHi + pad);
    auto* yAxis = new QValueAxis;
    yAxis->setTitleText(tr("tokens/s per user"));
    yAxis->setRange(0, yHi > 0 ? yHi * 1.08 : 1);
    addAxes(xAxis, yAxis, front, all);
}

void SweepChart::addAxes(QAbstractAxis* x, QAbstractAxis* y, QLineSeries* line, QScatterSeries* dots)
{
    m_chart->addAxis(x, Qt::AlignBottom);
    m_chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* s : {static_cast<QAbstractSeries*>(line), static_cast<QAbstractSeries*>(dots)}) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
    // A click on a point opens it: the nearest point of the sweep to where the click landed.
    connect(dots, &QScatterSeries::clicked, this, [this](const QPointF& at) {
        if (const int64_t i = nearestPoint(at.x(), at.y()); i >= 0)
            emit pointClicked(i);
    });
}

int64_t SweepChart::nearestPoint(double x, double y) const
{
    if (!m_result)
        return -1;
    const auto xs = m_result->axes.size() == 1 ? numbers(m_result->axes[0]) : std::nullopt;
    int64_t best = -1;
    double bestDistance = std::numeric_limits<double>::max();
    for (const SweepPoint& p : m_result->points) {
        if (!p.error.empty())
            continue;
        double px = double(p.index);
        if (m_mode == Mode::Pareto)
            px = m_againstKv ? double(p.kvCapacityTokens) : double(p.devices);
        else if (xs)
            px = (*xs)[size_t(p.index)];
        const double d = std::hypot((px - x) / std::max(1.0, std::fabs(x)),
                                    (p.tokensPerSecondPerUser - y) / std::max(1.0, std::fabs(y)));
        if (d < bestDistance) {
            bestDistance = d;
            best = p.index;
        }
    }
    return best;
}

void SweepChart::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        rebuild();
    QWidget::changeEvent(event);
}

} // namespace ws::views
