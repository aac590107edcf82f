#include "engine/wafer/placement/meshsnapshotbuilder.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace ws {

namespace {
std::vector<int64_t> splitLengths(int64_t n, int64_t parts)
{
    std::vector<int64_t> out(static_cast<size_t>(parts), 0);
    for (int64_t i = 0; i < parts; ++i)
        out[size_t(i)] = n * (i + 1) / parts - n * i / parts;
    return out;
}

// Per-core sums over a window: a rectangle of one device's usable mesh.
struct Window
{
    CoreRect rect;
    std::vector<int64_t> used; // bytes per core (program bytes excluded)
    std::vector<int64_t> kv;
    std::vector<uint8_t> covered;
    explicit Window(CoreRect r)
        : rect(r), used(size_t(r.cores()), 0), kv(size_t(r.cores()), 0), covered(size_t(r.cores()), 0)
    {
    }
    size_t at(int x, int y) const { return size_t(y - rect.y) * size_t(rect.width) + size_t(x - rect.x); }
};

// Adds one region's bytes to the cores of the window it covers (program bytes excluded).
void accumulate(const PlacedRegion& r, Window& w)
{
    const CoreRect& rect = r.rect;
    const int lx0 = std::max(0, w.rect.x - rect.x);
    const int lx1 = std::min(rect.width, w.rect.x + w.rect.width - rect.x);
    const int ly0 = std::max(0, w.rect.y - rect.y);
    const int ly1 = std::min(rect.height, w.rect.y + w.rect.height - rect.y);
    if (lx0 >= lx1 || ly0 >= ly1)
        return;
    auto at = [&](int lx, int ly) { return w.at(rect.x + lx, rect.y + ly); };
    for (int ly = ly0; ly < ly1; ++ly)
        for (int lx = lx0; lx < lx1; ++lx)
            w.covered[at(lx, ly)] = 1;
    for (const RegionTensor& t : r.tensors) {
        if (t.vector) {
            const int64_t cores = rect.cores();
            for (int ly = ly0; ly < ly1; ++ly)
                for (int lx = lx0; lx < lx1; ++lx) {
                    const int64_t k = int64_t(ly) * rect.width + lx;
                    w.used[at(lx, ly)] += (t.inValues * (k + 1) / cores - t.inValues * k / cores) * t.blockBytes;
                }
            continue;
        }
        // A tile's weights plus its fp32 buffers (RegionTensor::tileBytesOnCore), as Placement::coreBytes.
        const TileGrid g = tileGrid(t, rect);
        const std::vector<int64_t> rowsLen = splitLengths(t.rows, g.outParts);
        const std::vector<int64_t> blocksLen = splitLengths(t.inBlocks, g.inParts);
        for (int ly = ly0; ly < ly1; ++ly) {
            for (int lx = lx0; lx < lx1; ++lx) {
                int64_t inIndex = 0;
                int64_t outIndex = 0;
                if (!tileIndex(t, g, lx, ly, inIndex, outIndex))
                    continue;
                w.used[at(lx, ly)] += t.tileBytesOnCore(rowsLen[size_t(outIndex)], blocksLen[size_t(inIndex)]);
            }
        }
    }
    if (r.kvTokens > 0) {
        const std::vector<int64_t> tokens = splitLengths(r.kvTokens, rect.height);
        const std::vector<int64_t> columns = splitLengths(r.kvColumns, rect.width);
        for (int ly = ly0; ly < ly1; ++ly)
            for (int lx = lx0; lx < lx1; ++lx) {
                const int64_t kv = tokens[size_t(ly)] * columns[size_t(lx)] * r.kvBytesPerValue;
                w.kv[at(lx, ly)] += kv;
                w.used[at(lx, ly)] += kv + kActivationBytes * tokens[size_t(ly)];
            }
    }
}

std::string regionLabel(const Placement& p, const PlacedRegion& r)
{
    std::string label;
    if (p.strategy == PlacementStrategy::TensorParallel) {
        label = "L0-L";
        label += std::to_string(p.layersPerDevice.front() - 1);
    } else {
        label = "L";
        label += std::to_string(r.layer);
    }
    return label;
}

std::string dominantKind(const PlacedRegion& r)
{
    std::map<TensorKind, int64_t> bytes;
    for (const auto& t : r.tensors)
        bytes[t.kind] += t.bytes();
    TensorKind best = TensorKind::Norm;
    int64_t most = -1;
    for (const auto& [kind, n] : bytes)
        if (n > most) {
            most = n;
            best = kind;
        }
    return most < 0 ? std::string("none") : std::string(tensorKindId(best));
}

// Region indices ordered by layer (stable: equal layers keep their region order).
std::vector<size_t> regionsByLayer(const Placement& p)
{
    std::vector<size_t> order(p.regions.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t x, size_t y) { return p.regions[x].layer < p.regions[y].layer; });
    return order;
}

// One owner per region (pipelined: numbered in layer order, so a region keeps its owner when the regions are
// reordered by device) or one for the whole mesh (tensor-parallel). Fills s.owners; returns each region's owner.
std::vector<uint16_t> assignOwners(const Placement& p, MeshSnapshot& s)
{
    s.owners.assign(1, {-1, "none"});
    std::vector<uint16_t> regionOwner(p.regions.size(), 0);
    if (p.strategy == PlacementStrategy::TensorParallel) {
        s.owners.push_back({-1, "all_layers"});
        std::fill(regionOwner.begin(), regionOwner.end(), uint16_t(1));
        return regionOwner;
    }
    for (size_t i : regionsByLayer(p))
        if (s.owners.size() < 65535) {
            regionOwner[i] = uint16_t(s.owners.size());
            s.owners.push_back({p.regions[i].layer, dominantKind(p.regions[i])});
        }
    return regionOwner;
}

// The region rectangles of devices [first, first + s.deviceCount), in region order.
void listRegions(const Placement& p, int first, MeshSnapshot& s)
{
    const bool tensorParallel = p.strategy == PlacementStrategy::TensorParallel;
    s.regions.clear();
    for (int d = first; d < first + s.deviceCount; ++d)
        for (const PlacedRegion& r : p.regions)
            if (r.device == d && (!tensorParallel || r.layer == 0))
                s.regions.push_back({d - first, r.rect.x + p.originX, r.rect.y + p.originY, r.rect.width, r.rect.height,
                                     tensorParallel ? -1 : r.layer, regionLabel(p, r)});
}

// Recomputes every value of the cores in `rect` (usable coordinates) of device d, stored at index k.
void fillWindow(const Placement& p, const std::vector<uint16_t>& regionOwner, int d, size_t k, CoreRect rect,
                MeshSnapshot& s)
{
    Window w(rect);
    for (size_t i = 0; i < p.regions.size(); ++i) {
        const PlacedRegion& r = p.regions[i];
        if (r.device != d || !r.rect.intersects(rect))
            continue;
        accumulate(r, w);
        const int x0 = std::max(r.rect.x, rect.x), x1 = std::min(r.rect.x + r.rect.width, rect.x + rect.width);
        const int y0 = std::max(r.rect.y, rect.y), y1 = std::min(r.rect.y + r.rect.height, rect.y + rect.height);
        for (int y = y0; y < y1; ++y)
            for (int x = x0; x < x1; ++x)
                s.owner[k][size_t(y + p.originY) * size_t(s.meshCols) + size_t(x + p.originX)] = regionOwner[i];
    }
    const double sram = double(std::max<int64_t>(1, p.sramBytesPerCore));
    const size_t fabricCores = size_t(s.meshCols) * size_t(s.meshRows);
    for (int y = rect.y; y < rect.y + rect.height; ++y)
        for (int x = rect.x; x < rect.x + rect.width; ++x) {
            const size_t u = w.at(x, y);
            const size_t f = size_t(y + p.originY) * size_t(s.meshCols) + size_t(x + p.originX);
            if (!w.covered[u])
                s.owner[k][f] = 0;
            const int64_t used = w.used[u] + (w.covered[u] ? p.programBytesPerCore : 0);
            s.sramFraction[k][f] = float(std::min(1.0, double(used) / sram));
            s.kvFraction[k][f] = float(double(w.kv[u]) / sram);
            s.coreState[k][f] = CoreState::Healthy;
            const int64_t over = std::min<int64_t>(used - p.sramBytesPerCore, UINT32_MAX);
            if (over > 0 && s.overflowBytes[k].empty())
                s.overflowBytes[k].assign(fabricCores, 0);
            if (!s.overflowBytes[k].empty())
                s.overflowBytes[k][f] = uint32_t(std::max<int64_t>(0, over));
        }
}

// A device's overflow vector is empty when every core fits.
void dropEmptyOverflow(std::vector<uint32_t>& overflow)
{
    if (std::all_of(overflow.begin(), overflow.end(), [](uint32_t v) { return v == 0; }))
        overflow.clear();
}

// The same mesh, devices and layers: a snapshot of `before` can be patched into one of `next`.
bool sameFrame(const Placement& a, const Placement& b)
{
    auto layers = [](const Placement& p) {
        std::vector<int> out;
        for (size_t i : regionsByLayer(p))
            out.push_back(p.regions[i].layer);
        return out;
    };
    return a.strategy == b.strategy && a.deviceCount == b.deviceCount && a.usableCols == b.usableCols &&
           a.usableRows == b.usableRows && a.fabricCols == b.fabricCols && a.fabricRows == b.fabricRows &&
           a.originX == b.originX && a.originY == b.originY && a.diesX == b.diesX && a.diesY == b.diesY &&
           a.sramBytesPerCore == b.sramBytesPerCore && a.programBytesPerCore == b.programBytesPerCore &&
           a.regions.size() == b.regions.size() && layers(a) == layers(b);
}
} // namespace

MeshSnapshot buildMeshSnapshot(const Placement& p, int firstDevice, int deviceCount)
{
    MeshSnapshot s;
    firstDevice = std::clamp(firstDevice, 0, p.deviceCount);
    const int count =
        deviceCount < 0 ? p.deviceCount - firstDevice : std::min(deviceCount, p.deviceCount - firstDevice);
    s.meshCols = p.fabricCols;
    s.meshRows = p.fabricRows;
    s.deviceCount = std::max(0, count);
    s.diesX = p.diesX;
    s.diesY = p.diesY;
    s.sramBytesPerCore = p.sramBytesPerCore;
    const std::vector<uint16_t> regionOwner = assignOwners(p, s);
    listRegions(p, firstDevice, s);
    const size_t fabricCores = size_t(s.meshCols) * size_t(s.meshRows);
    const size_t n = size_t(s.deviceCount);
    s.sramFraction.assign(n, std::vector<float>(fabricCores, 0.0f));
    s.kvFraction.assign(n, std::vector<float>(fabricCores, 0.0f));
    s.owner.assign(n, std::vector<uint16_t>(fabricCores, 0));
    s.coreState.assign(n, std::vector<CoreState>(fabricCores, CoreState::Reserved));
    s.overflowBytes.assign(n, {});
    for (size_t k = 0; k < n; ++k)
        fillWindow(p, regionOwner, firstDevice + int(k), k, CoreRect{0, 0, p.usableCols, p.usableRows}, s);
    return s;
}

MeshSnapshot updateMeshSnapshot(const MeshSnapshot& previous, const Placement& before, const Placement& next,
                                int firstDevice, int deviceCount)
{
    MeshSnapshot out;
    updateMeshSnapshotInto(out, previous, before, next, firstDevice, deviceCount);
    return out;
}

void updateMeshSnapshotInto(MeshSnapshot& s, const MeshSnapshot& previous, const Placement& before,
                            const Placement& next, int firstDevice, int deviceCount)
{
    firstDevice = std::clamp(firstDevice, 0, next.deviceCount);
    const int count =
        deviceCount < 0 ? next.deviceCount - firstDevice : std::min(deviceCount, next.deviceCount - firstDevice);
    const size_t fabricCores = size_t(next.fabricCols) * size_t(next.fabricRows);
    const auto sized = [&](const auto& perDevice) {
        return perDevice.size() == size_t(count) &&
               std::all_of(perDevice.begin(), perDevice.end(), [&](const auto& v) { return v.size() == fabricCores; });
    };
    if (!sameFrame(before, next) || previous.deviceCount != count || previous.meshCols != next.fabricCols ||
        previous.meshRows != next.fabricRows || !sized(previous.sramFraction) || !sized(previous.kvFraction) ||
        !sized(previous.owner) || !sized(previous.coreState) || previous.overflowBytes.size() != size_t(count)) {
        s = buildMeshSnapshot(next, firstDevice, deviceCount);
        return;
    }
    s = previous; // into s's own buffers when it has them: no fresh pages to fault in
    const std::vector<uint16_t> regionOwner = assignOwners(next, s);
    listRegions(next, firstDevice, s);
    // Regions paired in layer order (as the owners are numbered); a changed pair dirties both rectangles.
    const std::vector<size_t> a = regionsByLayer(before);
    const std::vector<size_t> b = regionsByLayer(next);
    std::vector<std::pair<int, CoreRect>> dirty; // (device, rectangle), each once (a swap dirties two twice)
    for (size_t i = 0; i < a.size(); ++i) {
        const PlacedRegion& was = before.regions[a[i]];
        const PlacedRegion& now = next.regions[b[i]];
        if (was == now)
            continue;
        for (const PlacedRegion* r : {&was, &now}) {
            const std::pair<int, CoreRect> window{r->device, r->rect};
            if (r->device >= firstDevice && r->device < firstDevice + count &&
                std::find(dirty.begin(), dirty.end(), window) == dirty.end())
                dirty.push_back(window);
        }
    }
    std::vector<bool> touched(size_t(count), false);
    for (const auto& [device, rect] : dirty) {
        fillWindow(next, regionOwner, device, size_t(device - firstDevice), rect, s);
        touched[size_t(device - firstDevice)] = true;
    }
    for (int k = 0; k < count; ++k)
        if (touched[size_t(k)])
            dropEmptyOverflow(s.overflowBytes[size_t(k)]);
}

} // namespace ws
