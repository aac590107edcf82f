#pragma once
// The cores of a heatmap image as few rectangles of one colour each, for a
// vector drawing (the SVG of a mesh figure): each row is cut into runs of
// equal colour, and a run that repeats the rectangle above it (same columns,
// same colour) grows that rectangle down instead of starting a new one.
// Placement regions and tiles are rectangles of one colour, so the placement
// layer of a full WSE-3 (896,112 cores) takes a few dozen rectangles; the
// SRAM layer, whose tiles leave neighbouring cores a few per cent apart,
// about 520,000. Exact: every core is covered by exactly one rectangle of its
// own colour.

#include <QImage>
#include <QRect>

#include <vector>

namespace ws::views {

struct ColorRect
{
    QRect cores; // in cores (pixels of the image)
    QRgb color = 0;
};

// The rectangles of `cores` (one pixel per core), grouped by colour (all rectangles of a colour are adjacent in
// the result, so a painter changes its brush once per colour).
std::vector<ColorRect> mergeCoreRects(const QImage& cores);

} // namespace ws::views
