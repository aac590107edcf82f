#pragma once
// Nearest-neighbour scaling of the per-core image into a widget-sized image,
// with the per-core grid folded in (a darkened first pixel row and column of
// every core). One pass over the target pixels: at 1600 x 1000 this is far
// cheaper than stroking hundreds of grid lines with QPainter.

#include "views/mesh/viewtransform.h"

#include <QImage>

namespace ws::views {

// Renders `cores` (one pixel per core) as seen through `transform` into `target`
// (resized to the view, Format_RGB32); `cores` keeps the mesh's orientation, a turned transform turns it.
// Pixels off the mesh get `background`.
// gridAlpha 0 draws no grid; otherwise grid pixels are darkened by gridAlpha/255.
void rasterizeMesh(const QImage& cores, const ViewTransform& transform, QRgb background, int gridAlpha, QImage& target);

} // namespace ws::views
