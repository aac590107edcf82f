#pragma once
// Overlays MeshView draws over the heatmap, each only when the zoom gives it
// room (level of detail): die outlines, region outlines and labels, the
// per-core grid and per-core values, and the hover and selection marks.

#include "engine/wafer/placement/meshsnapshot.h"
#include "views/viewtransform.h"

#include <QPoint>

#include <optional>

class QPainter;

namespace ws::views {

struct MeshOverlay
{
    // Level-of-detail thresholds, in pixels.
    static constexpr double minDiePx = 24;        // die outlines when a die is at least this wide
    static constexpr double minGridPx = 6;        // grid lines when a core is at least this wide
    static constexpr double minCoreTextPx = 44;   // per-core values when a core is at least this wide

    const MeshSnapshot& snapshot;
    const ViewTransform& transform;
    int device = 0;
    MeshLayer layer = MeshLayer::SramOccupancy;

    static bool showsDies(const MeshSnapshot& s, double scale);
    static bool showsGrid(double scale) { return scale >= minGridPx; }
    static bool showsCoreText(double scale) { return scale >= minCoreTextPx; }
    // How dark the grid is (0: no grid); the grid itself is folded into the raster (meshraster.h).
    static int gridAlpha(double scale);

    void paintDies(QPainter& painter) const;
    void paintRegions(QPainter& painter) const;
    void paintCoreText(QPainter& painter) const;
    void paintHops(QPainter& painter) const; // dataflow layer: arrows for the hops of the moment
    void paintCoreMark(QPainter& painter, QPoint core, bool selected) const;
};

} // namespace ws::views
