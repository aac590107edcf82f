#include "engine/wafer/mesh/meshregion.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace ws {

MeshRegionCores MeshRegionCores::read(const Placement& placement, const RegionRef& region, int layer,
                                      MeshFabric& fabric, bool tiles)
{
    MeshRegionCores r;
    r.device = region.device;
    r.rect = region.rect;
    r.layer = layer;
    for (const PlacedRegion& placed : placement.regions)
        if (placed.layer == layer && layer >= 0 && placed.device == region.device)
            r.kvBytesPerValue = placed.kvBytesPerValue;
    const size_t n = size_t(std::max<long long>(0, region.rect.cores()));
    r.cores.reserve(n);
    fabric.reserveCores(n);
    r.tileBegin.reserve(n + 1);
    r.tileData.reserve(n * 8);
    r.kvColumns.assign(n, 0);
    size_t i = 0;
    for (int y = region.rect.y; y < region.rect.y + region.rect.height; ++y) {
        for (int x = region.rect.x; x < region.rect.x + region.rect.width; ++x, ++i) {
            r.cores.push_back(fabric.coreIndex(region.device, x, y));
            r.tileBegin.push_back(uint32_t(r.tileData.size()));
            if (!tiles)
                continue;
            const auto detail = placement.coreDetail(region.device, x, y);
            if (!detail)
                continue;
            r.maxCoreBytes = std::max(r.maxCoreBytes, detail->bytes.used());
            r.kvColumns[i] = detail->kvColumnEnd - detail->kvColumnBegin;
            for (const CoreTile& t : detail->tiles) {
                const bool table = t.kind == TensorKind::TokenEmbedding || t.kind == TensorKind::Output;
                if (t.kind == TensorKind::Norm || t.kind == TensorKind::Bias)
                    continue;
                if (layer >= 0 ? t.layer == layer : table)
                    r.tileData.push_back(t);
            }
        }
    }
    r.tileBegin.push_back(uint32_t(r.tileData.size()));
    r.hasTiles = tiles;
    return r;
}

void MeshRegionCores::work(int position, std::initializer_list<TensorKind> kinds, double& macs, double& bytes) const
{
    macs = 0;
    bytes = 0;
    for (const CoreTile& t : tiles(position))
        if (std::find(kinds.begin(), kinds.end(), t.kind) != kinds.end()) {
            macs += double(t.rowEnd - t.rowBegin) * double(t.colEnd - t.colBegin);
            bytes += double(t.bytes);
        }
}

int64_t MeshRegionCores::rows(int position, TensorKind kind) const
{
    for (const CoreTile& t : tiles(position))
        if (t.kind == kind)
            return t.rowEnd - t.rowBegin;
    return 0;
}

int64_t MeshRegionCores::cols(int position, TensorKind kind) const
{
    for (const CoreTile& t : tiles(position))
        if (t.kind == kind)
            return t.colEnd - t.colBegin;
    return 0;
}

bool MeshRegionCores::holds(TensorKind kind) const
{
    return std::any_of(tileData.begin(), tileData.end(), [&](const CoreTile& t) { return t.kind == kind; });
}

std::vector<MeshLine> MeshRegionCores::matrixLines(std::initializer_list<TensorKind> kinds) const
{
    // Cores sharing the output rows of one matrix, in row-major order (which is line order along x or y).
    std::map<std::tuple<int, int64_t, int64_t>, std::vector<int>> groups;
    for (size_t i = 0; i < cores.size(); ++i)
        for (const CoreTile& t : tiles(int(i)))
            if (std::find(kinds.begin(), kinds.end(), t.kind) != kinds.end())
                groups[{int(t.kind), t.rowBegin, t.rowEnd}].push_back(int(i));
    std::map<std::vector<int>, double> fused;
    std::vector<const std::vector<int>*> order;
    for (const auto& [key, members] : groups) {
        auto [it, inserted] = fused.try_emplace(members, 0.0);
        it->second += double(std::get<2>(key) - std::get<1>(key));
        if (inserted)
            order.push_back(&it->first);
    }
    // Lines on the same column (or row) of cores are one reduction along it: folded tiles (TileGrid::fold) put
    // several lines, each holding some of the column's output rows, on every fold-th core of one column; the
    // schedule reduces the column's rows together, each core adding its own rows into the passing stream.
    std::map<std::pair<int, int>, MeshLine> merged; // (axis, column or row) -> line
    std::vector<MeshLine> lines;
    const int w = rect.width;
    for (const std::vector<int>* m : order) {
        const bool column = std::all_of(m->begin(), m->end(), [&](int i) { return i % w == m->front() % w; });
        const bool row = std::all_of(m->begin(), m->end(), [&](int i) { return i / w == m->front() / w; });
        if (!column && !row) {
            lines.push_back({*m, fused.at(*m)});
            continue;
        }
        MeshLine& line = merged[{column ? 0 : 1, column ? m->front() % w : m->front() / w}];
        line.members.insert(line.members.end(), m->begin(), m->end());
        line.payloadValues += fused.at(*m);
    }
    for (auto& [key, line] : merged) {
        std::sort(line.members.begin(), line.members.end());
        line.members.erase(std::unique(line.members.begin(), line.members.end()), line.members.end());
        lines.push_back(std::move(line));
    }
    // Deterministic order: by first core.
    std::sort(lines.begin(), lines.end(), [](const MeshLine& a, const MeshLine& b) { return a.members < b.members; });
    return lines;
}

std::vector<MeshLine> MeshRegionCores::gridLines(bool alongX) const
{
    const int w = rect.width, h = rect.height;
    std::vector<MeshLine> lines(size_t(alongX ? h : w));
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            if (kvColumns[size_t(y * w + x)] > 0)
                lines[size_t(alongX ? y : x)].members.push_back(y * w + x);
    std::erase_if(lines, [](const MeshLine& l) { return l.members.empty(); });
    return lines;
}

} // namespace ws
