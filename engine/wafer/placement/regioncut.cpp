#include "engine/wafer/placement/regioncut.h"

#include <algorithm>
#include <cmath>

namespace ws {

namespace {
// Splits `total` cells into parts proportional to weights by cumulative rounding,
// every part at least one cell. Empty when total < parts.
std::vector<int> proportionalSplit(int total, const std::vector<double>& weights)
{
    const int parts = int(weights.size());
    if (parts == 0 || total < parts)
        return {};
    double sum = 0;
    for (double w : weights)
        sum += w;
    std::vector<int> edges(size_t(parts) + 1, 0);
    double acc = 0;
    for (int i = 0; i < parts; ++i) {
        acc += weights[size_t(i)];
        edges[size_t(i) + 1] = int(std::llround(acc / sum * total));
    }
    edges[size_t(parts)] = total;
    // Enforce at least one cell per part (forward, then backward from the end).
    for (int i = 1; i <= parts; ++i)
        edges[size_t(i)] = std::max(edges[size_t(i)], edges[size_t(i) - 1] + 1);
    for (int i = parts - 1; i >= 0; --i)
        edges[size_t(i)] = std::min(edges[size_t(i)], edges[size_t(i) + 1] - 1);
    std::vector<int> out(static_cast<size_t>(parts), 0);
    for (int i = 0; i < parts; ++i)
        out[size_t(i)] = edges[size_t(i) + 1] - edges[size_t(i)];
    return out;
}
} // namespace

std::vector<CoreRect> snakeRegions(int cols, int rows, const std::vector<double>& sizes, int bands)
{
    const int n = int(sizes.size());
    if (n == 0 || bands < 1 || bands > n || rows < bands)
        return {};
    // Items per band: as even as possible, the first n % bands bands one more.
    std::vector<int> counts(size_t(bands), n / bands);
    for (int b = 0; b < n % bands; ++b)
        ++counts[size_t(b)];
    std::vector<double> bandSizes(size_t(bands), 0.0);
    for (int b = 0, i = 0; b < bands; ++b)
        for (int k = 0; k < counts[size_t(b)]; ++k, ++i)
            bandSizes[size_t(b)] += sizes[size_t(i)];
    const std::vector<int> heights = proportionalSplit(rows, bandSizes);
    if (heights.empty())
        return {};
    std::vector<CoreRect> rects;
    rects.reserve(size_t(n));
    int y = 0;
    for (int b = 0, i = 0; b < bands; ++b) {
        const std::vector<double> bandItems(sizes.begin() + i, sizes.begin() + i + counts[size_t(b)]);
        const std::vector<int> widths = proportionalSplit(cols, bandItems);
        if (widths.empty())
            return {};
        const bool leftToRight = b % 2 == 0;
        int x = leftToRight ? 0 : cols;
        for (int k = 0; k < counts[size_t(b)]; ++k, ++i) {
            const int w = widths[size_t(k)];
            if (!leftToRight)
                x -= w;
            rects.push_back({x, y, w, heights[size_t(b)]});
            if (leftToRight)
                x += w;
        }
        y += heights[size_t(b)];
    }
    return rects;
}

const char* layerOrderId(LayerOrder order)
{
    switch (order) {
    case LayerOrder::RowMajor:
        return "row-major";
    case LayerOrder::ColumnMajor:
        return "column-major";
    case LayerOrder::Snake:
        break;
    }
    return "snake";
}

std::optional<LayerOrder> parseLayerOrder(std::string_view id)
{
    for (LayerOrder o : {LayerOrder::Snake, LayerOrder::RowMajor, LayerOrder::ColumnMajor})
        if (id == layerOrderId(o))
            return o;
    return std::nullopt;
}

std::vector<CoreRect> orderedRegions(LayerOrder order, int cols, int rows, const std::vector<double>& sizes, int bands)
{
    const bool transposed = order == LayerOrder::ColumnMajor;
    std::vector<CoreRect> rects =
        transposed ? snakeRegions(rows, cols, sizes, bands) : snakeRegions(cols, rows, sizes, bands);
    if (order == LayerOrder::Snake)
        return rects;
    // Bands are runs of equal y; every odd band runs right to left in the snake: mirror it back.
    const int width = transposed ? rows : cols;
    int band = -1;
    int bandY = -1;
    for (CoreRect& r : rects) {
        if (r.y != bandY) {
            ++band;
            bandY = r.y;
        }
        if (band % 2 == 1)
            r.x = width - r.x - r.width;
    }
    if (transposed)
        for (CoreRect& r : rects)
            r = CoreRect{r.y, r.x, r.height, r.width};
    return rects;
}

double worstAspect(const std::vector<CoreRect>& rects)
{
    double worst = 1.0;
    for (const auto& r : rects) {
        const double a = double(std::max(r.width, r.height)) / std::max(1, std::min(r.width, r.height));
        worst = std::max(worst, a);
    }
    return worst;
}

} // namespace ws
