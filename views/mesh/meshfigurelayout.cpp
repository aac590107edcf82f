#include "views/mesh/meshfigurelayout.h"

#include <QFontMetricsF>

#include <algorithm>
#include <cmath>

namespace ws::views {

namespace {

constexpr double kUnitsPerPoint = MeshFigureOptions::kUnitsPerInch / 72.0;

QFont fontOfPoints(double points, bool bold)
{
    QFont font;
    font.setPixelSize(std::max(1, int(std::lround(points * kUnitsPerPoint))));
    font.setBold(bold);
    return font;
}

double wrappedHeight(const QString& text, const QFont& font, double width)
{
    if (text.isEmpty())
        return 0;
    const QFontMetricsF fm(font);
    return fm.boundingRect(QRectF(0, 0, std::max(1.0, width), 1e6), Qt::AlignLeft | Qt::TextWordWrap, text).height();
}

struct Grid
{
    int columns = 1;
    int rows = 1;
    double unitsPerCore = 0;
};

// The grid of `count` wafers of cols x rows cores that draws them largest in `area`.
Grid bestGrid(int count, QSizeF area, double gap, double captionHeight, int cols, int rows)
{
    Grid best;
    for (int c = 1; c <= count; ++c) {
        const int r = (count + c - 1) / c;
        const double cellWidth = (area.width() - (c - 1) * gap) / c;
        const double cellHeight = (area.height() - (r - 1) * gap) / r - captionHeight;
        const double scale = std::min(cellWidth / cols, cellHeight / rows);
        if (scale > best.unitsPerCore)
            best = {c, r, scale};
    }
    return best;
}

} // namespace

QSizeF MeshFigureOptions::pageUnits() const
{
    return sizeMm / kMmPerInch * kUnitsPerInch;
}

QSize MeshFigureOptions::pixelSize() const
{
    const QSizeF px = sizeMm / kMmPerInch * dpi;
    return {std::max(1, int(std::lround(px.width()))), std::max(1, int(std::lround(px.height())))};
}

double MeshFigureOptions::bodyPoints() const
{
    return std::clamp(sizeMm.width() / 24.0, 7.0, 20.0);
}

QFont MeshFigureOptions::bodyFont() const
{
    return fontOfPoints(bodyPoints(), false);
}

QFont MeshFigureOptions::titleFont() const
{
    return fontOfPoints(bodyPoints() * 1.4, true);
}

QFont MeshFigureOptions::sourceFont() const
{
    return fontOfPoints(std::max(6.0, bodyPoints() * 0.8), false);
}

MeshFigureLayout layoutMeshFigure(const MeshSnapshot& s, const MeshFigureOptions& o, QSizeF legendSize,
                                  const QString& widestCaption)
{
    MeshFigureLayout l;
    l.page = o.pageUnits();
    const QFontMetricsF body(o.bodyFont());
    const double margin = std::max(8.0, body.height());
    const double gap = body.height() * 0.8;
    const QRectF content(margin, margin, l.page.width() - 2 * margin, l.page.height() - 2 * margin);

    const double titleHeight = wrappedHeight(o.title, o.titleFont(), content.width());
    l.title = QRectF(content.left(), content.top(), content.width(), titleHeight);
    const double sourceHeight = wrappedHeight(o.source, o.sourceFont(), content.width());
    l.source = QRectF(content.left(), content.bottom() - sourceHeight, content.width(), sourceHeight);
    const double top = titleHeight > 0 ? l.title.bottom() + gap : content.top();
    const double bottom = sourceHeight > 0 ? l.source.top() - gap : content.bottom();
    const QRectF area(content.left(), top, content.width(), std::max(1.0, bottom - top));

    if (o.device >= 0 && o.device < s.deviceCount)
        l.devices = {o.device};
    else
        for (int d = 0; d < s.deviceCount; ++d)
            l.devices.push_back(d);
    const int count = int(l.devices.size());
    const int cols = std::max(1, s.meshCols);
    const int rows = std::max(1, s.meshRows);
    // Legend beside the wafers, or under them: whichever draws the wafers larger. Captions take one line, or more
    // when the wafers come out narrower than the widest caption.
    const QSizeF besideArea(area.width() - legendSize.width() - gap, area.height());
    const QSizeF belowArea(area.width(), area.height() - legendSize.height() - gap);
    Grid grid;
    double captionHeight = 0;
    for (int lines = 1; lines <= 4; ++lines) {
        captionHeight = body.height() * (lines + 0.4);
        const Grid beside = bestGrid(count, besideArea, gap, captionHeight, cols, rows);
        const Grid below = bestGrid(count, belowArea, gap, captionHeight, cols, rows);
        l.legendBelow = below.unitsPerCore > beside.unitsPerCore * 1.05;
        grid = l.legendBelow ? below : beside;
        if (wrappedHeight(widestCaption, o.bodyFont(), grid.unitsPerCore * cols) <= body.height() * lines + 0.5)
            break;
    }
    l.unitsPerCore = std::max(grid.unitsPerCore, 1e-3);

    const QSizeF wafer(cols * l.unitsPerCore, rows * l.unitsPerCore);
    const QSizeF block(grid.columns * wafer.width() + (grid.columns - 1) * gap,
                       grid.rows * (wafer.height() + captionHeight) + (grid.rows - 1) * gap);
    // The wafers and the legend as one group, centred in the area.
    const QSizeF group =
        l.legendBelow ? QSizeF(std::max(block.width(), legendSize.width()), block.height() + gap + legendSize.height())
                      : QSizeF(block.width() + gap + legendSize.width(), std::max(block.height(), legendSize.height()));
    const QPointF origin(area.left() + std::max(0.0, (area.width() - group.width()) / 2),
                         area.top() + std::max(0.0, (area.height() - group.height()) / 2));
    const QPointF blockOrigin = l.legendBelow ? origin + QPointF((group.width() - block.width()) / 2, 0) : origin;
    for (int i = 0; i < count; ++i) {
        const int c = i % grid.columns;
        const int r = i / grid.columns;
        const QPointF corner =
            blockOrigin + QPointF(c * (wafer.width() + gap), r * (wafer.height() + captionHeight + gap));
        l.wafers.emplace_back(corner, wafer);
        l.captions.emplace_back(corner.x(), corner.y() + wafer.height(), wafer.width(), captionHeight);
    }
    l.legend =
        l.legendBelow
            ? QRectF(QPointF(origin.x() + (group.width() - legendSize.width()) / 2, origin.y() + block.height() + gap),
                     legendSize)
            : QRectF(QPointF(origin.x() + block.width() + gap, origin.y()), legendSize);
    return l;
}

} // namespace ws::views
