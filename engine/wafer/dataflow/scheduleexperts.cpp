// A mixture-of-experts layer in the token schedule (engine/wafer/dataflow/schedule.h): its experts' tiles where the
// placement gives none, and the experts a token activates.
#include "engine/wafer/dataflow/schedule.h"

#include <algorithm>
#include <cmath>

namespace ws {

ExpertGrid expertGrid(const CoreRect& region, int count)
{
    ExpertGrid g;
    g.region = region;
    if (count <= 0 || region.width <= 0 || region.height <= 0)
        return g; // no tiles (expertTiles gives none)
    const double aspect = double(region.width) / region.height;
    g.cols = std::clamp(int(std::ceil(std::sqrt(count * aspect))), 1, std::max(1, region.width));
    g.rows = (count + g.cols - 1) / g.cols;
    g.rows = std::clamp(g.rows, 1, std::max(1, region.height));
    g.width = std::max(1, region.width / g.cols);
    g.height = std::max(1, region.height / g.rows);
    return g;
}

std::vector<CoreRect> expertTiles(const CoreRect& region, int count)
{
    std::vector<CoreRect> tiles;
    if (count <= 0 || region.width <= 0 || region.height <= 0)
        return tiles;
    const ExpertGrid grid = expertGrid(region, count);
    tiles.reserve(size_t(count));
    for (int i = 0; i < count; ++i)
        tiles.push_back(grid.tile(i));
    return tiles;
}

std::vector<int> activeExperts(uint64_t tokenIndex, int layer, int expertCount, int perToken)
{
    std::vector<int> picked;
    if (expertCount <= 0)
        return picked;
    perToken = std::min(perToken, expertCount);
    uint64_t state = tokenIndex * 0x9E3779B97F4A7C15ull + uint64_t(layer + 1) * 0xBF58476D1CE4E5B9ull;
    while (int(picked.size()) < perToken) {
        state ^= state >> 31;
        state *= 0x94D049BB133111EBull;
        state ^= state >> 29;
        const int e = int(state % uint64_t(expertCount));
        if (std::find(picked.begin(), picked.end(), e) == picked.end())
            picked.push_back(e);
        state += 0x9E3779B97F4A7C15ull;
    }
    return picked;
}

} // namespace ws
