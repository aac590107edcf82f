#pragma once
// ViewTransform maps between widget pixels and mesh cores for the heatmap.
// A core (x, y) covers the widget rectangle [offset + (x, y) * scale,
// offset + (x + 1, y + 1) * scale), so `scale` is pixels per core and
// `offset` is where the top-left corner of core (0, 0) lands. Zooming keeps
// the point under the cursor fixed; clamping keeps the mesh centred when it
// is smaller than the view and keeps the view covered when it is larger.
// A turned transform shows the mesh a quarter turn clockwise (a portrait
// wafer on a landscape screen): core (x, y) is drawn at column rows - 1 - y,
// row x of the shown grid, and every function here maps through the turn,
// so callers speak in cores and widget pixels alone.
// Plain value type without widgets, so the maths has its own tests.

#include <QPoint>
#include <QPointF>
#include <QRectF>
#include <QSizeF>

#include <optional>

namespace ws::views {

struct ViewTransform
{
    QSizeF viewPx;       // widget size, in pixels
    QSizeF meshCores;    // mesh size, in cores (columns, rows)
    double marginPx = 0; // free border kept around the mesh by fit()
    // Room kept free right of a mesh narrower than the view (MeshView's legend, beside the wafer rather than over
    // it): the mesh is centred in the rest when it leaves that much, else in the whole view. A turned mesh is fitted
    // to leave it (fitScale).
    double sideBandPx = 0;
    // The least of that room the legend can do with (wrapped narrower): where the mesh leaves less than
    // sideBandPx but this much, it is centred in the view less this.
    double narrowBandPx = 0;
    bool turned = false; // the mesh shown a quarter turn clockwise (see above)
    double scale = 1;    // pixels per core
    QPointF offsetPx;    // widget position of the top-left corner of the shown grid (core (0, 0) unless turned)

    static constexpr double maxScale = 96.0; // a core never grows past this many pixels
    static constexpr double zoomStep = 1.25; // one wheel notch or key press

    bool isValid() const;

    QPointF coreToWidget(QPointF core) const;
    QPointF widgetToCore(QPointF px) const;
    // The core under a widget pixel, or nothing when the pixel is off the mesh.
    std::optional<QPoint> coreAt(QPointF px) const;
    // Widget rectangle covered by core rectangle `cores` (in cores).
    QRectF widgetRect(const QRectF& cores) const;
    // The part of the mesh that is visible, in cores, clipped to the mesh.
    QRectF visibleCores() const;
    // The mesh's size as drawn, in cores: meshCores, transposed when turned.
    QSizeF shownCores() const;
    // The scale at which `cores` (a size in cores, as the mesh has them) fills the view.
    double scaleToShow(QSizeF cores) const;

    // Scale at which the whole mesh fits the view inside the margin.
    double fitScale() const;
    // The smallest zoom allowed: half the fitting scale (there is no point in a smaller mesh).
    double minScale() const;
    bool isFitted() const;

    void fit();
    // Multiplies the scale by `factor` keeping the mesh point under `px` where it is, then clamps.
    void zoomAround(QPointF px, double factor);
    void panBy(QPointF deltaPx);
    // Puts the mesh point `core` at the view's centre, then clamps.
    void centreOn(QPointF core);
    // Sets a new view size keeping the mesh point at the view centre where it was (or refitting if fitted).
    void resize(QSizeF newViewPx);
    void clamp();
};

} // namespace ws::views
