#pragma once
// Cutting a device's usable mesh into one rectangle per layer. The mesh is
// split into horizontal bands; each band holds consecutive layers side by
// side, and bands alternate direction (boustrophedon), so layer l and l+1
// are always neighbours: across a shared vertical edge inside a band, or
// across the band boundary at the band's end. Heights follow the bytes of the
// layers in a band and widths the bytes of each layer, so a layer with twice
// the weights gets twice the cores.

#include <optional>
#include <string_view>
#include <vector>

namespace ws {

// How consecutive layers follow each other on a device's mesh.
enum class LayerOrder
{
    Snake,       // horizontal bands, alternating direction (neighbours across every band end)
    RowMajor,    // horizontal bands, each left to right
    ColumnMajor, // vertical bands, each top to bottom
};
const char* layerOrderId(LayerOrder order); // "snake", "row-major", "column-major"
std::optional<LayerOrder> parseLayerOrder(std::string_view id);

struct CoreRect
{
    int x = 0; // first column (usable-mesh coordinates)
    int y = 0; // first row
    int width = 0;
    int height = 0;
    long long cores() const { return static_cast<long long>(width) * height; }
    bool contains(int cx, int cy) const { return cx >= x && cx < x + width && cy >= y && cy < y + height; }
    bool intersects(const CoreRect& o) const
    {
        return x < o.x + o.width && o.x < x + width && y < o.y + o.height && o.y < y + height;
    }
    bool operator==(const CoreRect&) const = default;
};

// Rectangles in snake order for items with the given sizes (> 0), in `bands`
// bands of consecutive items. Empty when the mesh is too small for the cut.
std::vector<CoreRect> snakeRegions(int cols, int rows, const std::vector<double>& sizes, int bands);

// snakeRegions in the given order: RowMajor mirrors every second band back, ColumnMajor cuts the transposed
// mesh row-major and transposes the rectangles.
std::vector<CoreRect> orderedRegions(LayerOrder order, int cols, int rows, const std::vector<double>& sizes, int bands);

// Largest width / height ratio of the rectangles (1 = all square).
double worstAspect(const std::vector<CoreRect>& rects);

} // namespace ws
