#pragma once
// Nearest-neighbour scaling of the per-core image into a widget-sized image,
// with the per-core grid folded in (a darkened first pixel row and column of
// every core). One pass over the target pixels: at 1600 x 1000 this is far
// cheaper than stroking hundreds of grid lines with QPainter.

#include "views/mesh/viewtransform.h"

#include <QImage>

#include <vector>

class QColor;
class QPainter;
class QRect;

namespace ws::views {

// Die boundaries folded into the raster (MeshOverlay::dieLines), as MeshOverlay::paintDies draws them with a
// painter: 1 px lines of white at alpha kDieAlpha, dashed kDieDashOn on, kDieDashOff off from the mesh's edge, a
// column (upright line) or a row (across) of target pixels each, over the mesh's pixels only. Drawn by QPainter
// over a full-screen view they cost 2-3.5 ms of the GUI thread's paint (a dash is a span of its own).
struct RasterDies
{
    std::vector<int> columns;
    std::vector<int> rows;
};
constexpr int kDieAlpha = 70;
constexpr int kDieDashOn = 4; // Qt::DashLine at 1 px
constexpr int kDieDashOff = 2;

// Renders `cores` (one pixel per core) as seen through `transform` into `target`
// (resized to the view, Format_RGB32); `cores` keeps the mesh's orientation, a turned transform turns it.
// Pixels off the mesh get `background`.
// gridAlpha 0 draws no grid; otherwise grid pixels are darkened by gridAlpha/255. Then the die lines, if any.
// `turned`, when given for a turned transform, is `cores` a quarter turn clockwise (turnMesh): read row by row, the
// same pixels come out in about half the time of gathering each shown row down a column of `cores` (whose cache
// lines are each fetched for one pixel).
void rasterizeMesh(const QImage& cores, const ViewTransform& transform, QRgb background, int gridAlpha, QImage& target,
                   const RasterDies& dies = {}, const QImage& turned = {});
// `cores` a quarter turn clockwise, as a turned ViewTransform shows the mesh (core (x, y) at column rows - 1 - y, row
// x), into `target` (Format_RGB32, written in place when it has that size and nobody else holds it); in tiles, so
// both sides stay in cache.
void turnMesh(const QImage& cores, QImage& target);
// `cores` (one pixel per core, Format_RGB32) area-averaged down to `size` (no larger than it on either axis) into
// `target`: every output pixel is the mean of the cores it covers, partly covered ones weighted by their share, so no
// core is dropped (Qt's smooth scaling does the same sums). `target` is written in place when it already has that
// size and format and nobody else holds its pixels: a frame's reduced copy then maps and faults in no new pages.
void reduceMesh(const QImage& cores, QSize size, QImage& target);
// True when rasterizeMesh draws the same pixels through `a` as through `b` (same view size, mesh, turn, scale and
// offset).
bool sameRaster(const ViewTransform& a, const ViewTransform& b);

} // namespace ws::views
