#include "views/mesh/meshoverlay.h"

#include "views/mesh/colorscale.h"
#include "views/mesh/meshbands.h"
#include "views/mesh/meshimage.h"
#include "views/mesh/meshraster.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace ws::views {

namespace {

const std::vector<float>* layerValues(const MeshFrame& frame, int device, MeshLayer layer)
{
    const MeshSnapshot& s = *frame.base;
    const std::vector<std::vector<float>>* arrays = nullptr;
    switch (layer) {
    case MeshLayer::SramOccupancy:
        arrays = &s.sramFraction;
        break;
    case MeshLayer::KvCache:
        arrays = &s.kvFraction;
        break;
    case MeshLayer::Dataflow:
    case MeshLayer::Links:
    case MeshLayer::Values:
        arrays = &frame.activity;
        break;
    default:
        return nullptr;
    }
    if (device < 0 || static_cast<size_t>(device) >= arrays->size())
        return nullptr;
    const auto& a = (*arrays)[static_cast<size_t>(device)];
    return a.size() == static_cast<size_t>(s.meshCols) * static_cast<size_t>(s.meshRows) ? &a : nullptr;
}

} // namespace

bool MeshOverlay::showsDies(const MeshSnapshot& s, double scale)
{
    if (s.diesX <= 0 || s.diesY <= 0)
        return false;
    return std::min(s.meshCols * scale / s.diesX, s.meshRows * scale / s.diesY) >= minDiePx;
}

namespace {

// The visible mesh, in widget pixels (a little past the view: dashing a line far off screen costs time per dash).
QRectF visibleMesh(const MeshSnapshot& s, const ViewTransform& t)
{
    return t.widgetRect(QRectF(0, 0, s.meshCols, s.meshRows))
        .intersected(QRectF(QPointF(-2, -2), t.viewPx + QSizeF(4, 4)));
}

} // namespace

RasterDies MeshOverlay::dieLines() const
{
    RasterDies out;
    const QRectF mesh = visibleMesh(snapshot(), transform);
    if (!showsDies(snapshot(), transform.scale) || mesh.isEmpty())
        return out;
    // A die boundary runs from one mesh edge to the other: upright or across the screen (across when turned for
    // a boundary between columns).
    const auto boundary = [&](QPointF a, QPointF b) {
        const QLineF line(transform.coreToWidget(a), transform.coreToWidget(b));
        const bool upright = std::abs(line.dx()) < 0.5;
        const double at = upright ? line.x1() : line.y1();
        if (upright && at >= mesh.left() && at <= mesh.right())
            out.columns.push_back(static_cast<int>(std::lround(at)));
        else if (!upright && at >= mesh.top() && at <= mesh.bottom())
            out.rows.push_back(static_cast<int>(std::lround(at)));
    };
    const double cols = snapshot().meshCols, rows = snapshot().meshRows;
    for (int i = 1; i < snapshot().diesX; ++i)
        boundary(QPointF(cols * i / snapshot().diesX, 0), QPointF(cols * i / snapshot().diesX, rows));
    for (int j = 1; j < snapshot().diesY; ++j)
        boundary(QPointF(0, rows * j / snapshot().diesY), QPointF(cols, rows * j / snapshot().diesY));
    return out;
}

void MeshOverlay::paintDies(QPainter& p) const
{
    const RasterDies lines = dieLines();
    if (lines.columns.empty() && lines.rows.empty())
        return;
    const QRectF mesh = visibleMesh(snapshot(), transform);
    p.save();
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(QPen(QColor(255, 255, 255, kDieAlpha), 1, Qt::DashLine));
    for (const int x : lines.columns)
        drawUprightLineInBands(p, x, mesh.top(), mesh.bottom());
    for (const int y : lines.rows)
        p.drawLine(QPointF(mesh.left(), y), QPointF(mesh.right(), y));
    p.restore();
}

void MeshOverlay::paintRegions(QPainter& p) const
{
    p.save();
    QFont font = p.font();
    font.setBold(true);
    p.setFont(font);
    const QFontMetricsF fm(font);
    const QRectF view(QPointF(0, 0), transform.viewPx);
    for (const MeshRegion& region : snapshot().regions) {
        if (region.device != device || region.width <= 0 || region.height <= 0)
            continue;
        const QRectF r = transform.widgetRect(QRectF(region.x, region.y, region.width, region.height));
        if (!r.intersects(view) || r.width() < 3 || r.height() < 3)
            continue;
        outlineRectInBands(p, r.intersected(view.adjusted(-2, -2, 2, 2)).toRect(), QColor(255, 255, 255, 110));
        const QString label = QString::fromStdString(region.label);
        const double w = fm.horizontalAdvance(label) + 8;
        const double h = fm.height() + 2;
        if (label.isEmpty() || r.width() < w + 4 || r.height() < h + 2)
            continue;
        // Keep the label on screen while the region is partly scrolled out.
        const QRectF visible = r.intersected(view);
        if (visible.width() < w + 4 || visible.height() < h + 2)
            continue;
        const QRectF box(visible.left() + 3, visible.top() + 2, w, h);
        p.fillRect(box, QColor(10, 12, 18, 170));
        p.setPen(QColor(240, 242, 248));
        p.drawText(box, Qt::AlignCenter, label);
    }
    p.restore();
}

int MeshOverlay::gridAlpha(double scale)
{
    if (!showsGrid(scale))
        return 0;
    // Fade the grid in as cores grow.
    return static_cast<int>(std::clamp((scale - minGridPx) * 6 + 25, 25.0, 70.0));
}

void MeshOverlay::paintCoreText(QPainter& p) const
{
    if (!showsCoreText(transform.scale))
        return;
    const QRectF vis = transform.visibleCores();
    const int x0 = static_cast<int>(std::floor(vis.left()));
    const int x1 = static_cast<int>(std::ceil(vis.right()));
    const int y0 = static_cast<int>(std::floor(vis.top()));
    const int y1 = static_cast<int>(std::ceil(vis.bottom()));
    const auto* values = layerValues(frame, device, layer);
    const auto* owners = device >= 0 && static_cast<size_t>(device) < snapshot().owner.size()
                             ? &snapshot().owner[static_cast<size_t>(device)]
                             : nullptr;
    const size_t cores = static_cast<size_t>(snapshot().meshCols) * static_cast<size_t>(snapshot().meshRows);
    if (owners && owners->size() != cores)
        owners = nullptr;
    p.save();
    QFont font = p.font();
    font.setPixelSize(std::clamp(static_cast<int>(transform.scale / 4.5), 9, 14));
    p.setFont(font);
    p.setPen(QColor(255, 255, 255, 235));
    const QLocale locale;
    for (int y = y0; y < y1; ++y) {
        for (int x = x0; x < x1; ++x) {
            const size_t i = static_cast<size_t>(y) * snapshot().meshCols + x;
            QString text;
            if (values && (layer == MeshLayer::Links || layer == MeshLayer::Values)) {
                // Back to the unit: words through the router, or the signed sum (0.5 is zero).
                const double v = layer == MeshLayer::Links ? (*values)[i] * frame.overlayTop
                                                           : ((*values)[i] - 0.5) * 2 * frame.overlayTop;
                if (std::isfinite(v) && (layer == MeshLayer::Values || v > 0))
                    text = locale.toString(v, 'g', 3);
            } else if (values) {
                text = locale.toString(100.0 * (*values)[i], 'f', 1) + QLatin1Char('%');
            } else if (owners && (*owners)[i] < snapshot().owners.size() && (*owners)[i] != 0) {
                const MeshOwner& o = snapshot().owners[(*owners)[i]];
                text = o.layerIndex >= 0
                           ? QStringLiteral("L%1\n%2").arg(o.layerIndex).arg(QString::fromStdString(o.tensorKind))
                           : QString::fromStdString(o.tensorKind);
            }
            if (text.isEmpty())
                continue;
            const QRectF r = transform.widgetRect(QRectF(x, y, 1, 1)).adjusted(2, 2, -2, -2);
            p.drawText(r, Qt::AlignCenter, text);
        }
    }
    p.restore();
}

void MeshOverlay::paintCoreMark(QPainter& p, QPoint core, bool selected) const
{
    // At least a few pixels, so the mark shows when a core is smaller than a pixel.
    QRectF r = transform.widgetRect(QRectF(core.x(), core.y(), 1, 1));
    const double minSide = selected ? 10 : 6;
    if (r.width() < minSide)
        r = QRectF(r.center() - QPointF(minSide / 2, minSide / 2), QSizeF(minSide, minSide));
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setBrush(Qt::NoBrush);
    if (selected) {
        p.setPen(QPen(QColor(0, 0, 0, 200), 4));
        p.drawRect(r.adjusted(-1, -1, 1, 1));
        p.setPen(QPen(QColor(255, 255, 255), 2));
        p.drawRect(r.adjusted(-1, -1, 1, 1));
    } else {
        p.setPen(QPen(QColor(255, 255, 255, 170), 1));
        p.drawRect(r);
    }
    p.restore();
}

void MeshOverlay::paintHops(QPainter& p) const
{
    if (layer != MeshLayer::Dataflow || frame.hops.empty())
        return;
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    const QColor color(120, 200, 255, 230);
    for (const MeshHop& h : frame.hops) {
        if (h.fromDevice != device && h.toDevice != device)
            continue;
        QPointF from = transform.coreToWidget(QPointF(h.fromX, h.fromY));
        QPointF to = transform.coreToWidget(QPointF(h.toX, h.toY));
        QString label;
        if (h.fromDevice != h.toDevice) {
            // Wafer to wafer: the arrow leaves (or enters) through the mesh's right edge.
            const QPointF edge =
                transform.coreToWidget(QPointF(snapshot().meshCols, h.fromDevice == device ? h.fromY : h.toY));
            if (h.fromDevice == device) {
                to = edge;
                label = QCoreApplication::translate("ws::views::MeshOverlay", "to wafer %1").arg(h.toDevice + 1);
            } else {
                from = edge;
                label = QCoreApplication::translate("ws::views::MeshOverlay", "from wafer %1").arg(h.fromDevice + 1);
            }
        }
        const QLineF line(from, to);
        if (line.length() < 2)
            continue;
        p.setPen(QPen(QColor(color.red(), color.green(), color.blue(), 110), 7, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(line); // the band
        p.setPen(QPen(color, 2.5, Qt::SolidLine, Qt::RoundCap));
        const QPointF head = line.pointAt(std::clamp(h.progress, 0.05, 1.0));
        p.drawLine(QLineF(from, head));
        // Arrow head at the data's current position.
        const QLineF back(head, from);
        QLineF wing = back;
        wing.setLength(12);
        wing.setAngle(back.angle() + 28);
        p.drawLine(wing);
        wing.setAngle(back.angle() - 28);
        p.drawLine(wing);
        if (!label.isEmpty()) {
            p.setPen(QColor(220, 235, 255));
            p.drawText(head + QPointF(-p.fontMetrics().horizontalAdvance(label) - 6, -8), label);
        }
    }
    p.restore();
}

void MeshOverlay::paintLinks(QPainter& p) const
{
    const double s = transform.scale;
    if (layer != MeshLayer::Links || frame.links.empty() || s < minLinkPx || !(frame.overlayTop > 0))
        return;
    // The busiest link sets the top of the line scale (the per-core image's top is a router's four links).
    float top = 0;
    for (const MeshLinkLoad& l : frame.links)
        top = std::max(top, l.words);
    const QRectF visible = transform.visibleCores().adjusted(-1, -1, 1, 1);
    static const ColorScale scale = ColorScale::linkWords();
    p.save();
    // The cores dimmed so the lines carry the picture (the legend's scale still reads the dimmed cells' hue).
    fillRectInBands(p, transform.widgetRect(QRectF(0, 0, snapshot().meshCols, snapshot().meshRows)).toRect(),
                    QColor(8, 10, 14, 170));
    p.setRenderHint(QPainter::Antialiasing, s >= 2 * minLinkPx);
    static constexpr int kDx[4] = {1, -1, 0, 0};
    static constexpr int kDy[4] = {0, 0, 1, -1};
    for (const MeshLinkLoad& l : frame.links) {
        if (l.device != device || l.dir < 0 || l.dir > 3 || !visible.contains(QPointF(l.x + 0.5, l.y + 0.5)))
            continue;
        const float share = l.words / top;
        // The two directions of a link side by side: each shifted to its right of travel.
        const QPointF along(kDx[l.dir], kDy[l.dir]);
        const QPointF side(-along.y(), along.x());
        const QPointF a = QPointF(l.x + 0.5, l.y + 0.5) + along * 0.22 + side * 0.14;
        const QPointF b = a + along * 0.56;
        const QColor c = scale.colorAt(0.45 + 0.55 * share);
        p.setPen(QPen(c, std::max(1.0, s * (0.05 + 0.15 * std::sqrt(share))), Qt::SolidLine, Qt::FlatCap));
        p.drawLine(transform.coreToWidget(a), transform.coreToWidget(b));
    }
    p.restore();
}

void MeshOverlay::paintDisplacement(QPainter& p, const CoreDisplacement* d) const
{
    const double s = transform.scale;
    if (!d || layer != MeshLayer::Defects || d->device != device || s < 8 || d->cols != snapshot().meshCols ||
        d->rows != snapshot().meshRows)
        return;
    const QRectF visible = transform.visibleCores();
    const int x0 = std::max(0, int(std::floor(visible.left())) - 1);
    const int y0 = std::max(0, int(std::floor(visible.top())) - 1);
    const int x1 = std::min(d->cols - 1, int(std::ceil(visible.right())) + 1);
    const int y1 = std::min(d->rows - 1, int(std::ceil(visible.bottom())) + 1);
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    const QColor colour(20, 20, 24, 220);
    p.setPen(QPen(colour, std::clamp(s / 10.0, 1.0, 2.5)));
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
            const size_t i = size_t(y) * size_t(d->cols) + size_t(x);
            const int dx = d->dx[i];
            const int dy = d->dy[i];
            if (dx == 0 && dy == 0)
                continue;
            // From the cell the logical core came from towards this one, stopping short of the centres.
            const QPointF to = transform.coreToWidget(QPointF(x + 0.5, y + 0.5));
            const QPointF from = transform.coreToWidget(QPointF(x - dx + 0.5, y - dy + 0.5));
            const QPointF v = to - from;
            const double len = std::hypot(v.x(), v.y());
            if (len < 1)
                continue;
            const QPointF u = v / len;
            const QPointF a = from + u * (s * 0.3);
            const QPointF b = to - u * (s * 0.15);
            p.drawLine(a, b);
            const double head = std::min(s * 0.3, 10.0);
            const QPointF n(-u.y(), u.x());
            p.drawLine(b, b - u * head + n * head * 0.5);
            p.drawLine(b, b - u * head - n * head * 0.5);
        }
    p.restore();
}

} // namespace ws::views
