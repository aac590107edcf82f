#pragma once
// Cutting a device's usable mesh into one rectangle per layer. The mesh is
// split into horizontal bands; each band holds consecutive layers side by
// side, and bands alternate direction (boustrophedon), so layer l and l+1
// are always neighbours: across a shared vertical edge inside a band, or
// across the band boundary at the band's end. Heights follow the bytes of the
// layers in a band and widths the bytes of each layer, so a layer with twice
// the weights gets twice the cores.

#include <vector>

namespace ws {

struct CoreRect
{
    int x = 0; // first column (usable-mesh coordinates)
    int y = 0; // first row
    int width = 0;
    int height = 0;
    long long cores() const { return static_cast<long long>(width) * height; }
    bool contains(int cx, int cy) const { return cx >= x && cx < x + width && cy >= y && cy < y + height; }
};

// Rectangles in snake order for items with the given sizes (> 0), in `bands`
// bands of consecutive items. Empty when the mesh is too small for the cut.
std::vector<CoreRect> snakeRegions(int cols, int rows, const std::vector<double>& sizes, int bands);

// Largest width / height ratio of the rectangles (1 = all square).
double worstAspect(const std::vector<CoreRect>& rects);

} // namespace ws
