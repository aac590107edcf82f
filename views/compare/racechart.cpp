#include "views/compare/racechart.h"

#include "views/chat/chatstats.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace ws::views {

namespace {
constexpr int kRowHeight = 22;
constexpr int kNameWidth = 220;
constexpr int kTimeWidth = 80;
} // namespace

RaceChart::RaceChart(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Minimum);
}

void RaceChart::setRows(std::vector<RaceRow> rows, int tokens)
{
    std::erase_if(rows, [](const RaceRow& r) { return !(r.seconds > 0) || !std::isfinite(r.seconds); });
    std::stable_sort(rows.begin(), rows.end(),
                     [](const RaceRow& a, const RaceRow& b) { return a.seconds < b.seconds; });
    m_rows = std::move(rows);
    m_tokens = tokens;
    m_minSeconds = m_rows.empty() ? 0 : m_rows.front().seconds;
    m_maxSeconds = m_rows.empty() ? 0 : m_rows.back().seconds;
    updateGeometry();
    update();
}

double RaceChart::barFraction(double seconds) const
{
    if (!(seconds > 0) || !(m_maxSeconds > 0))
        return 0;
    // The shortest bar gets a tenth of the width; one decade below it is the axis start.
    const double lo = std::log10(m_minSeconds) - 1.0;
    const double hi = std::log10(m_maxSeconds);
    if (hi <= lo)
        return 1;
    return std::clamp((std::log10(seconds) - lo) / (hi - lo), 0.0, 1.0);
}

QSize RaceChart::sizeHint() const
{
    return QSize(520, kRowHeight * int(std::max<size_t>(m_rows.size(), 1)) + 8);
}

QSize RaceChart::minimumSizeHint() const
{
    return QSize(kNameWidth + kTimeWidth + 60, kRowHeight + 8);
}

void RaceChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    if (m_rows.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("Send a prompt: every system races to the same answer."));
        return;
    }
    const int barLeft = kNameWidth;
    const int barWidth = std::max(20, width() - kNameWidth - kTimeWidth - 8);
    int y = 4;
    for (const RaceRow& row : m_rows) {
        const QRect nameRect(4, y, kNameWidth - 8, kRowHeight);
        p.setPen(palette().color(QPalette::WindowText));
        QString name = row.measured ? tr("%1 (measured)").arg(row.name) : row.name;
        p.drawText(nameRect, Qt::AlignVCenter | Qt::AlignLeft,
                   p.fontMetrics().elidedText(name, Qt::ElideRight, nameRect.width()));
        const int length = std::max(2, int(std::lround(barFraction(row.seconds) * barWidth)));
        const QRect bar(barLeft, y + 4, length, kRowHeight - 8);
        p.fillRect(bar, row.measured ? QColor(230, 140, 40) : QColor(40, 130, 200));
        p.drawText(QRect(barLeft + length + 6, y, kTimeWidth + barWidth - length, kRowHeight),
                   Qt::AlignVCenter | Qt::AlignLeft, ChatStats::formatSeconds(row.seconds));
        y += kRowHeight;
    }
}

} // namespace ws::views
