#include "views/mesh/meshbands.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace ws::views {

void fillRectInBands(QPainter& p, const QRect& rect, const QColor& color)
{
    for (int y = rect.top(); y <= rect.bottom(); y += kBandRows)
        p.fillRect(QRect(rect.left(), y, rect.width(), std::min(kBandRows, rect.bottom() + 1 - y)), color);
}

void outlineRectInBands(QPainter& p, const QRect& r, const QColor& color)
{
    if (r.width() <= 0 || r.height() <= 0)
        return;
    p.fillRect(QRect(r.left(), r.top(), r.width(), 1), color);
    if (r.height() > 1)
        p.fillRect(QRect(r.left(), r.bottom(), r.width(), 1), color);
    fillRectInBands(p, QRect(r.left(), r.top() + 1, 1, r.height() - 2), color);
    if (r.width() > 1)
        fillRectInBands(p, QRect(r.right(), r.top() + 1, 1, r.height() - 2), color);
}

QRect strokedRectPixels(const QRectF& rect)
{
    return QRect(QPoint(int(std::floor(rect.left())), int(std::floor(rect.top()))),
                 QPoint(int(std::floor(rect.right())), int(std::floor(rect.bottom()))));
}

void drawUprightLineInBands(QPainter& p, double x, double top, double bottom)
{
    // Each band stops a pixel short of the next one's start, so no pixel is drawn twice (the stroke is
    // translucent), and starts a whole number of dash periods after the line's start: the pixels of one line.
    for (double y = top; y < bottom; y += kBandRows)
        p.drawLine(QPointF(x, y), QPointF(x, y + kBandRows >= bottom ? bottom : y + kBandRows - 1));
}

} // namespace ws::views
