#include "engine/session/kvoccupancy.h"

#include <algorithm>
#include <limits>

namespace ws {

namespace {

// Part i of n split into `parts` as evenly as the snapshot splits it.
int64_t share(int64_t n, int64_t parts, int64_t i)
{
    return n * (i + 1) / parts - n * i / parts;
}

// Tokens of row `ly` of a region that are in the cache with `held` tokens in it.
int64_t rowTokens(const PlacedRegion& r, int ly, int64_t held)
{
    const int64_t begin = r.kvTokens * ly / r.rect.height;
    return std::clamp(held - begin, int64_t(0), share(r.kvTokens, r.rect.height, ly));
}

} // namespace

std::shared_ptr<const MeshSnapshot> withKvOccupancy(std::shared_ptr<const MeshSnapshot> base,
                                                    const Placement& placement, int64_t tokens)
{
    if (!base || base->sramBytesPerCore <= 0)
        return base;
    auto out = std::make_shared<MeshSnapshot>(*base);
    const size_t cores = size_t(out->meshCols) * size_t(out->meshRows);
    const double sram = double(out->sramBytesPerCore);
    for (const PlacedRegion& r : placement.regions) {
        if (r.kvTokens <= 0 || r.rect.width <= 0 || r.rect.height <= 0 || r.device < 0 ||
            size_t(r.device) >= out->kvFraction.size() || out->kvFraction[size_t(r.device)].size() != cores)
            continue;
        std::vector<float>& kv = out->kvFraction[size_t(r.device)];
        const int64_t held = std::min(tokens, r.kvTokens);
        for (int ly = 0; ly < r.rect.height; ++ly) {
            const int64_t inRow = rowTokens(r, ly, held);
            const int fy = r.rect.y + ly + placement.originY;
            for (int lx = 0; lx < r.rect.width; ++lx) {
                const int fx = r.rect.x + lx + placement.originX;
                if (fx >= out->meshCols || fy >= out->meshRows)
                    continue;
                const int64_t bytes = inRow * share(r.kvColumns, r.rect.width, lx) * r.kvBytesPerValue;
                kv[size_t(fy) * size_t(out->meshCols) + size_t(fx)] = float(double(bytes) / sram);
            }
        }
    }
    return out;
}

int64_t kvOccupancyStep(const Placement& placement)
{
    int64_t fewest = std::numeric_limits<int64_t>::max();
    for (const PlacedRegion& r : placement.regions)
        if (r.kvTokens > 0 && r.rect.height > 0)
            fewest = std::min(fewest, r.kvTokens / r.rect.height);
    return fewest == std::numeric_limits<int64_t>::max() ? 1 : std::max<int64_t>(1, fewest / 4);
}

int64_t kvBytesHeld(const Placement& placement, int64_t tokens)
{
    int64_t bytes = 0;
    for (const PlacedRegion& r : placement.regions)
        if (r.kvTokens > 0)
            bytes += std::min(tokens, r.kvTokens) * r.kvColumns * r.kvBytesPerValue;
    return bytes;
}

} // namespace ws
