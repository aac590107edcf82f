#pragma once
// Overlays MeshView draws over the heatmap, each only when the zoom gives it
// room (level of detail): die outlines, region outlines and labels, the
// per-core grid and per-core values, the hops of a dataflow frame, the
// defects layer's displacement arrows, the Links layer's lines, and the
// hover and selection marks.
// The overlay draws a frame: its base snapshot plus the moment's activity
// and hops.

#include "engine/wafer/placement/meshsnapshot.h"
#include "views/mesh/meshraster.h"
#include "views/mesh/viewtransform.h"

#include <QPoint>

#include <cstdint>
#include <optional>
#include <vector>

class QPainter;

namespace ws::views {

// Defects layer arrows: for each cell of one device's mesh, how far (in cores) the logical core the
// cell's physical core now hosts was moved from its nominal cell (0, 0 where nothing moved).
struct CoreDisplacement
{
    int device = 0;
    int cols = 0;
    int rows = 0;
    std::vector<int8_t> dx; // (rows, cols)
    std::vector<int8_t> dy;
};

struct MeshOverlay
{
    // Level-of-detail thresholds, in pixels.
    static constexpr double minDiePx = 24;      // die outlines when a die is at least this wide
    static constexpr double minGridPx = 6;      // grid lines when a core is at least this wide
    static constexpr double minCoreTextPx = 44; // per-core values when a core is at least this wide
    static constexpr double minLinkPx = 12;     // the Links layer's per-link lines

    const MeshFrame& frame; // base never null
    const ViewTransform& transform;
    int device = 0;
    MeshLayer layer = MeshLayer::SramOccupancy;

    static bool showsDies(const MeshSnapshot& s, double scale);
    static bool showsGrid(double scale) { return scale >= minGridPx; }
    static bool showsCoreText(double scale) { return scale >= minCoreTextPx; }
    // How dark the grid is (0: no grid); the grid itself is folded into the raster (meshraster.h).
    static int gridAlpha(double scale);

    // The die boundaries at this zoom (none where showsDies says no), in widget pixels: a column per upright
    // line and a row per line across, those within the visible mesh. paintDies draws them; MeshView folds them
    // into its raster at a pixel per core or more.
    RasterDies dieLines() const;
    void paintDies(QPainter& painter) const;
    void paintRegions(QPainter& painter) const;
    void paintCoreText(QPainter& painter) const;
    void paintHops(QPainter& painter) const; // dataflow layer: arrows for the hops of the moment
    // Links layer, from minLinkPx per core: each visible link as a line from its core towards its neighbour,
    // its width and colour by the words it carried (two directions side by side).
    void paintLinks(QPainter& painter) const;
    void paintFlows(QPainter& painter) const // the hops, then the links
    {
        paintHops(painter);
        paintLinks(painter);
    }
    // Defects layer, from 8 px per core: an arrow per moved core (null or another device's: none).
    void paintDisplacement(QPainter& painter, const CoreDisplacement* displacement) const;
    void paintCoreMark(QPainter& painter, QPoint core, bool selected) const;

    const MeshSnapshot& snapshot() const { return *frame.base; }
};

} // namespace ws::views
