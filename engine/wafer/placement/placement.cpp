#include "engine/wafer/placement/placement.h"

#include "engine/core/sumof.h"

#include <algorithm>

namespace ws {

namespace {

struct Span
{
    int64_t begin = 0;
    int64_t end = 0;
    int64_t size() const { return end - begin; }
};

// Balanced split of n items into parts: part i holds [i*n/parts, (i+1)*n/parts).
Span split(int64_t n, int64_t parts, int64_t i)
{
    return {n * i / parts, n * (i + 1) / parts};
}

int64_t ceilDiv(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

// f summed over the sizes of a balanced split of n items into parts: the parts hold n / parts items, and
// n % parts of them one more (split's sizes), so the sum is two terms, not one per part.
template <typename F> int64_t sumOverSplit(int64_t n, int64_t parts, F f)
{
    const int64_t q = n / parts;
    const int64_t r = n % parts;
    return (parts - r) * f(q) + (r > 0 ? r * f(q + 1) : 0);
}

// Sum over all tiles of a tensor's buffer values (exact, O(1)).
int64_t totalBufferValues(const RegionTensor& t, const TileGrid& a)
{
    const int64_t in = sumOverSplit(t.inBlocks, a.inParts, [&](int64_t blocks) { return t.inputBufferValues(blocks); });
    const int64_t out = sumOverSplit(t.rows, a.outParts, [&](int64_t rows) { return t.outputBufferValues(rows); });
    return in * a.outParts + out * a.inParts;
}
} // namespace

TileGrid tileGrid(const RegionTensor& t, const CoreRect& r)
{
    const int64_t inLines = t.inputAlongY ? r.height : r.width;
    const int64_t outLines = t.inputAlongY ? r.width : r.height;
    TileGrid g;
    g.fold = std::max<int64_t>(1, t.fold);
    g.inParts = t.inGroups > 0 ? std::min(t.inGroups, inLines / g.fold) : inLines / g.fold;
    g.inParts = std::max<int64_t>(1, g.inParts);
    g.outParts = outLines * g.fold;
    return g;
}

bool tileIndex(const RegionTensor& t, const TileGrid& g, int lx, int ly, int64_t& inIndex, int64_t& outIndex)
{
    const int64_t a = t.inputAlongY ? ly : lx; // position along the input axis
    const int64_t b = t.inputAlongY ? lx : ly;
    if (a >= g.inParts * g.fold)
        return false;
    inIndex = a / g.fold;
    outIndex = b * g.fold + a % g.fold;
    return true;
}

const char* placementStrategyId(PlacementStrategy s)
{
    return s == PlacementStrategy::TensorParallel ? "tensor-parallel" : "pipelined";
}

std::optional<PlacementStrategy> parsePlacementStrategy(std::string_view id)
{
    for (PlacementStrategy s : {PlacementStrategy::Pipelined, PlacementStrategy::TensorParallel})
        if (id == placementStrategyId(s))
            return s;
    return std::nullopt;
}

const char* expertLayoutId(ExpertLayout e)
{
    return e == ExpertLayout::Blocks ? "blocks" : "sliced";
}

std::optional<ExpertLayout> parseExpertLayout(std::string_view id)
{
    for (ExpertLayout e : {ExpertLayout::Blocks, ExpertLayout::Sliced})
        if (id == expertLayoutId(e))
            return e;
    return std::nullopt;
}

Precision GroupPrecisions::of(TensorKind kind, int layer) const
{
    switch (kind) {
    case TensorKind::TokenEmbedding:
    case TensorKind::Output:
        return tables;
    case TensorKind::AttnQ:
    case TensorKind::AttnK:
    case TensorKind::AttnV:
    case TensorKind::AttnO:
        return attention;
    case TensorKind::Norm:
    case TensorKind::Bias:
        return layer < 0 ? tables : attention;
    default:
        return ffn;
    }
}

int64_t PlacedRegion::weightBytes() const
{
    return sumOf(tensors, &RegionTensor::bytes);
}

int64_t CoreBytes::weightBytes() const
{
    int64_t n = 0;
    for (int64_t w : weights)
        n += w;
    return n;
}

int64_t regionMaxCoreWeightBytes(const PlacedRegion& r)
{
    const int64_t cores = r.rect.cores();
    int64_t n = 0;
    for (const auto& t : r.tensors) {
        if (t.vector) {
            n += ceilDiv(t.inValues, cores) * t.blockBytes;
            continue;
        }
        const TileGrid a = tileGrid(t, r.rect);
        n += ceilDiv(t.rows, a.outParts) * ceilDiv(t.inBlocks, a.inParts) * t.blockBytes;
    }
    return n;
}

int64_t regionMaxCoreBytes(const PlacedRegion& r, int64_t programBytes)
{
    int64_t n = regionMaxCoreWeightBytes(r) + programBytes;
    for (const auto& t : r.tensors) {
        if (t.vector)
            continue;
        const TileGrid a = tileGrid(t, r.rect);
        n += kActivationBytes *
             (t.inputBufferValues(ceilDiv(t.inBlocks, a.inParts)) + t.outputBufferValues(ceilDiv(t.rows, a.outParts)));
    }
    if (r.kvTokens > 0) {
        const int64_t tokens = ceilDiv(r.kvTokens, r.rect.height);
        n += tokens * ceilDiv(r.kvColumns, r.rect.width) * r.kvBytesPerValue + kActivationBytes * tokens;
    }
    return n;
}

CoreBytes regionTotalBytes(const PlacedRegion& r, int64_t programBytes)
{
    CoreBytes b;
    for (const auto& t : r.tensors) {
        b.weights[size_t(t.kind)] += t.bytes();
        if (t.vector)
            continue;
        const TileGrid a = tileGrid(t, r.rect);
        b.activations += kActivationBytes * totalBufferValues(t, a);
    }
    b.kv = r.kvBytes();
    if (r.kvTokens > 0)
        b.activations += kActivationBytes * r.kvTokens * r.rect.width;
    b.program = programBytes * r.rect.cores();
    return b;
}

std::pair<size_t, size_t> Placement::deviceRange(int device) const
{
    // The placer emits regions grouped by device in ascending order.
    const auto lo = std::lower_bound(regions.begin(), regions.end(), device,
                                     [](const PlacedRegion& r, int d) { return r.device < d; });
    const auto hi =
        std::upper_bound(lo, regions.end(), device, [](int d, const PlacedRegion& r) { return d < r.device; });
    return {size_t(lo - regions.begin()), size_t(hi - regions.begin())};
}

std::vector<int> Placement::deviceRegions(int device) const
{
    std::vector<int> out;
    const auto [lo, hi] = deviceRange(device);
    for (size_t i = lo; i < hi; ++i)
        out.push_back(int(i));
    return out;
}

std::vector<int> Placement::regionsAt(int device, int x, int y) const
{
    std::vector<int> out;
    const auto [lo, hi] = deviceRange(device);
    for (size_t i = lo; i < hi; ++i)
        if (regions[i].rect.contains(x, y))
            out.push_back(int(i));
    return out;
}

void Placement::addCore(const PlacedRegion& r, int x, int y, CoreBytes& out, std::vector<CoreTile>* tiles,
                        CoreDetail* detail) const
{
    const int lx = x - r.rect.x;
    const int ly = y - r.rect.y;
    const int64_t cores = r.rect.cores();
    for (const auto& t : r.tensors) {
        if (t.vector) {
            const Span s = split(t.inValues, cores, int64_t(ly) * r.rect.width + lx);
            const int64_t bytes = s.size() * t.blockBytes;
            out.weights[size_t(t.kind)] += bytes;
            if (tiles && bytes > 0)
                tiles->push_back({t.kind, t.layer, 0, 1, s.begin, s.end, bytes});
            continue;
        }
        const TileGrid g = tileGrid(t, r.rect);
        int64_t inIndex = 0;
        int64_t outIndex = 0;
        if (!tileIndex(t, g, lx, ly, inIndex, outIndex))
            continue;
        const Span blocks = split(t.inBlocks, g.inParts, inIndex);
        const Span rows = split(t.rows, g.outParts, outIndex);
        const int64_t bytes = rows.size() * blocks.size() * t.blockBytes;
        out.weights[size_t(t.kind)] += bytes;
        out.activations += kActivationBytes * (t.inputBufferValues(blocks.size()) + t.outputBufferValues(rows.size()));
        if (tiles && bytes > 0)
            tiles->push_back({t.kind, t.layer, t.rowOffset + rows.begin, t.rowOffset + rows.end,
                              blocks.begin * t.blockValues, std::min(blocks.end * t.blockValues, t.inValues), bytes});
    }
    if (r.kvTokens > 0) {
        const Span tokens = split(r.kvTokens, r.rect.height, ly);
        const Span columns = split(r.kvColumns, r.rect.width, lx);
        out.kv += tokens.size() * columns.size() * r.kvBytesPerValue;
        out.activations += kActivationBytes * tokens.size();
        if (detail && detail->kvTokenEnd == 0) {
            detail->kvTokenBegin = tokens.begin;
            detail->kvTokenEnd = tokens.end;
            detail->kvColumnBegin = columns.begin;
            detail->kvColumnEnd = columns.end;
        }
    }
}

CoreBytes Placement::coreBytes(int device, int x, int y) const
{
    CoreBytes b;
    bool covered = false;
    const auto [lo, hi] = deviceRange(device);
    for (size_t i = lo; i < hi; ++i) {
        const PlacedRegion& r = regions[i];
        if (!r.rect.contains(x, y))
            continue;
        addCore(r, x, y, b, nullptr, nullptr);
        covered = true;
    }
    if (covered)
        b.program = programBytesPerCore;
    return b;
}

std::optional<CoreDetail> Placement::coreDetail(int device, int fx, int fy) const
{
    if (device < 0 || device >= deviceCount || fx < 0 || fy < 0 || fx >= fabricCols || fy >= fabricRows)
        return std::nullopt;
    CoreDetail d;
    d.device = device;
    d.fabricX = fx;
    d.fabricY = fy;
    const int x = fx - originX;
    const int y = fy - originY;
    if (x < 0 || y < 0 || x >= usableCols || y >= usableRows)
        return d; // reserved border: nothing placed
    d.usableX = x;
    d.usableY = y;
    d.regions = regionsAt(device, x, y);
    for (int i : d.regions) {
        const PlacedRegion& r = regions[size_t(i)];
        if (d.layer < 0)
            d.layer = r.layer;
        addCore(r, x, y, d.bytes, &d.tiles, &d);
    }
    if (!d.regions.empty())
        d.bytes.program = programBytesPerCore;
    return d;
}

CoreBytes Placement::totalBytes() const
{
    CoreBytes total;
    for (const auto& r : regions) {
        CoreBytes b = regionTotalBytes(r, 0);
        total += b;
    }
    // Program bytes once per covered core: regions are disjoint when pipelined;
    // in the tensor-parallel layout they all share one rectangle per device.
    int64_t coveredCores = 0;
    if (strategy == PlacementStrategy::TensorParallel) {
        for (int dev = 0; dev < deviceCount; ++dev) {
            const auto ids = deviceRegions(dev);
            if (!ids.empty())
                coveredCores += regions[size_t(ids.front())].rect.cores();
        }
    } else {
        for (const auto& r : regions)
            coveredCores += r.rect.cores();
    }
    total.program = coveredCores * programBytesPerCore;
    return total;
}

int64_t Placement::maxCoreBytes() const
{
    int64_t worst = 0;
    if (strategy == PlacementStrategy::TensorParallel) {
        for (int dev = 0; dev < deviceCount; ++dev) {
            int64_t sum = programBytesPerCore;
            for (int i : deviceRegions(dev))
                sum += regionMaxCoreBytes(regions[size_t(i)], 0);
            worst = std::max(worst, sum);
        }
        return worst;
    }
    for (const auto& r : regions)
        worst = std::max(worst, regionMaxCoreBytes(r, programBytesPerCore));
    return worst;
}

} // namespace ws
