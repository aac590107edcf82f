#include "engine/wafer/placement/regioncut.h"

#include <algorithm>
#include <cmath>

namespace ws {

namespace {
// std::llround (halves away from zero) without its library call: x - trunc(x) is exact below 2^52, so the
// comparisons with one half decide as llround does; NaN and larger magnitudes go to llround itself.
long long roundHalfAway(double x)
{
    if (!(std::fabs(x) < 4503599627370496.0))
        return std::llround(x);
    const long long t = static_cast<long long>(x); // toward zero
    const double f = x - static_cast<double>(t);
    return t + (f >= 0.5 ? 1 : 0) - (f <= -0.5 ? 1 : 0);
}

// Splits `total` cells into parts proportional to weights[0, parts) by cumulative rounding, every part at least one
// cell: the parts' sizes into out[0, parts) (out holds parts + 1 ints, the cut's edges on the way). False when
// total < parts. The placer cuts every band of every band count it weighs, so no allocation here.
bool proportionalSplit(int total, const double* weights, int parts, int* out)
{
    if (parts == 0 || total < parts)
        return false;
    double sum = 0;
    for (int i = 0; i < parts; ++i)
        sum += weights[i];
    int* edges = out;
    edges[0] = 0;
    double acc = 0;
    for (int i = 0; i < parts; ++i) {
        acc += weights[i];
        edges[i + 1] = int(roundHalfAway(acc / sum * total));
    }
    edges[parts] = total;
    // Enforce at least one cell per part (forward, then backward from the end).
    for (int i = 1; i <= parts; ++i)
        edges[i] = std::max(edges[i], edges[i - 1] + 1);
    for (int i = parts - 1; i >= 0; --i)
        edges[i] = std::min(edges[i], edges[i + 1] - 1);
    for (int i = 0; i < parts; ++i) // in place: edges[i + 1] is still an edge when part i is taken
        out[i] = edges[i + 1] - edges[i];
    return true;
}
} // namespace

std::vector<CoreRect> snakeRegions(int cols, int rows, const std::vector<double>& sizes, int bands)
{
    const int n = int(sizes.size());
    if (n == 0 || bands < 1 || bands > n || rows < bands)
        return {};
    // Items per band: as even as possible, the first n % bands bands one more.
    const int perBand = n / bands;
    const int longer = n % bands;
    auto count = [&](int b) { return perBand + (b < longer ? 1 : 0); };
    std::vector<double> bandSizes(size_t(bands), 0.0);
    for (int b = 0, i = 0; b < bands; ++b)
        for (int k = 0; k < count(b); ++k, ++i)
            bandSizes[size_t(b)] += sizes[size_t(i)];
    // The bands' heights, then one band's widths at a time.
    std::vector<int> cuts(size_t(bands) + 1 + size_t(perBand + 1) + 1);
    int* heights = cuts.data();
    int* widths = heights + bands + 1;
    if (!proportionalSplit(rows, bandSizes.data(), bands, heights))
        return {};
    std::vector<CoreRect> rects;
    rects.reserve(size_t(n));
    int y = 0;
    for (int b = 0, i = 0; b < bands; ++b) {
        if (!proportionalSplit(cols, sizes.data() + i, count(b), widths))
            return {};
        const bool leftToRight = b % 2 == 0;
        int x = leftToRight ? 0 : cols;
        for (int k = 0; k < count(b); ++k, ++i) {
            const int w = widths[k];
            if (!leftToRight)
                x -= w;
            rects.push_back({x, y, w, heights[b]});
            if (leftToRight)
                x += w;
        }
        y += heights[b];
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
