#include "views/mesh/viewtransform.h"

#include <algorithm>
#include <cmath>

namespace ws::views {

bool ViewTransform::isValid() const
{
    return viewPx.width() > 0 && viewPx.height() > 0 && meshCores.width() > 0 && meshCores.height() > 0 && scale > 0 &&
           std::isfinite(scale);
}

// A mesh point in the shown grid's coordinates and back (the quarter turn clockwise when turned).
static QPointF shownOf(const ViewTransform& t, QPointF core)
{
    return t.turned ? QPointF(t.meshCores.height() - core.y(), core.x()) : core;
}

static QPointF coreOfShown(const ViewTransform& t, QPointF shown)
{
    return t.turned ? QPointF(shown.y(), t.meshCores.height() - shown.x()) : shown;
}

QPointF ViewTransform::coreToWidget(QPointF core) const
{
    return offsetPx + shownOf(*this, core) * scale;
}

QPointF ViewTransform::widgetToCore(QPointF px) const
{
    return coreOfShown(*this, (px - offsetPx) / scale);
}

QSizeF ViewTransform::shownCores() const
{
    return turned ? meshCores.transposed() : meshCores;
}

double ViewTransform::scaleToShow(QSizeF cores) const
{
    const QSizeF shown = turned ? cores.transposed() : cores;
    return std::min(viewPx.width() / shown.width(), viewPx.height() / shown.height());
}

std::optional<QPoint> ViewTransform::coreAt(QPointF px) const
{
    if (!isValid())
        return std::nullopt;
    // The shown cell under the pixel, then its core (whole cells, so a cell's edges belong to one core).
    const QPointF s = (px - offsetPx) / scale;
    const double x = std::floor(s.x());
    const double y = std::floor(s.y());
    const QSizeF shown = shownCores();
    if (x < 0 || y < 0 || x >= shown.width() || y >= shown.height())
        return std::nullopt;
    if (turned)
        return QPoint(static_cast<int>(y), static_cast<int>(meshCores.height() - 1 - x));
    return QPoint(static_cast<int>(x), static_cast<int>(y));
}

QRectF ViewTransform::widgetRect(const QRectF& cores) const
{
    if (!turned)
        return QRectF(coreToWidget(cores.topLeft()), cores.size() * scale);
    return QRectF(coreToWidget(cores.topLeft()), coreToWidget(cores.bottomRight())).normalized();
}

QRectF ViewTransform::visibleCores() const
{
    if (!isValid())
        return {};
    const QRectF view =
        turned
            ? QRectF(widgetToCore(QPointF(0, 0)), widgetToCore(QPointF(viewPx.width(), viewPx.height()))).normalized()
            : QRectF(widgetToCore(QPointF(0, 0)), viewPx / scale);
    return view.intersected(QRectF(QPointF(0, 0), meshCores));
}

double ViewTransform::fitScale() const
{
    if (meshCores.isEmpty() || viewPx.isEmpty())
        return 1;
    // A turned mesh is turned to fill a landscape view, so its width binds: it leaves the legend's band (the
    // narrowest, if one is given) rather than having the legend over it.
    const double band = turned ? (narrowBandPx > 0 ? narrowBandPx : sideBandPx) : 0;
    const double w = std::max(1.0, viewPx.width() - 2 * marginPx - band);
    const double h = std::max(1.0, viewPx.height() - 2 * marginPx);
    const QSizeF shown = shownCores();
    return std::min(w / shown.width(), h / shown.height());
}

double ViewTransform::minScale() const
{
    return std::min(fitScale() * 0.5, maxScale);
}

bool ViewTransform::isFitted() const
{
    return std::abs(scale - fitScale()) <= 1e-9 * fitScale();
}

void ViewTransform::fit()
{
    scale = fitScale();
    offsetPx = QPointF(0, 0);
    clamp();
}

void ViewTransform::zoomAround(QPointF px, double factor)
{
    if (!isValid() || !(factor > 0) || !std::isfinite(factor))
        return;
    const QPointF shown = (px - offsetPx) / scale;
    scale = std::clamp(scale * factor, minScale(), maxScale);
    offsetPx = px - shown * scale;
    clamp();
}

void ViewTransform::panBy(QPointF deltaPx)
{
    offsetPx += deltaPx;
    clamp();
}

void ViewTransform::centreOn(QPointF core)
{
    offsetPx = QPointF(viewPx.width() / 2, viewPx.height() / 2) - shownOf(*this, core) * scale;
    clamp();
}

void ViewTransform::resize(QSizeF newViewPx)
{
    const bool fitted = isFitted();
    const QPointF centreCore = widgetToCore(QPointF(viewPx.width() / 2, viewPx.height() / 2));
    viewPx = newViewPx;
    if (fitted || !isValid()) {
        fit();
        return;
    }
    centreOn(centreCore);
}

// One axis: centre the mesh when it is smaller than the view (less the margin; in the view less `bandPx` at its
// far end when the mesh leaves that too), otherwise keep the view covered (the margin may show at the mesh edges).
static double clampAxis(double offset, double meshPx, double viewPx, double marginPx, double bandPx = 0,
                        double narrowBandPx = 0)
{
    for (const double band : {bandPx, narrowBandPx})
        if (band > 0 && meshPx <= viewPx - band - 2 * marginPx + 1e-6) // (a fitted turned mesh: equal)
            return (viewPx - band - meshPx) / 2;
    if (meshPx <= viewPx - 2 * marginPx)
        return (viewPx - meshPx) / 2;
    const double lo = viewPx - marginPx - meshPx; // right/bottom edge at the margin
    const double hi = marginPx;                   // left/top edge at the margin
    return std::clamp(offset, std::min(lo, hi), std::max(lo, hi));
}

void ViewTransform::clamp()
{
    if (meshCores.isEmpty() || viewPx.isEmpty())
        return;
    if (!(scale > 0) || !std::isfinite(scale))
        scale = fitScale();
    scale = std::clamp(scale, minScale(), maxScale);
    const QSizeF shown = shownCores();
    offsetPx.setX(clampAxis(offsetPx.x(), shown.width() * scale, viewPx.width(), marginPx, sideBandPx, narrowBandPx));
    offsetPx.setY(clampAxis(offsetPx.y(), shown.height() * scale, viewPx.height(), marginPx));
}

} // namespace ws::views
