#include "engine/wafer/placement/meshsnapshotbuilder.h"

#include <algorithm>
#include <map>

namespace ws {

namespace {
std::vector<int64_t> splitLengths(int64_t n, int64_t parts)
{
    std::vector<int64_t> out(static_cast<size_t>(parts), 0);
    for (int64_t i = 0; i < parts; ++i)
        out[size_t(i)] = n * (i + 1) / parts - n * i / parts;
    return out;
}

struct DeviceBuffers
{
    std::vector<int64_t> used; // bytes per usable core
    std::vector<int64_t> kv;
};

// Adds one region's bytes to every core it covers (program bytes excluded).
void accumulate(const PlacedRegion& r, int usableCols, DeviceBuffers& buf)
{
    const CoreRect& rect = r.rect;
    auto at = [&](int lx, int ly) { return size_t(rect.y + ly) * size_t(usableCols) + size_t(rect.x + lx); };
    for (const RegionTensor& t : r.tensors) {
        if (t.vector) {
            const int64_t cores = rect.cores();
            for (int ly = 0; ly < rect.height; ++ly)
                for (int lx = 0; lx < rect.width; ++lx) {
                    const int64_t k = int64_t(ly) * rect.width + lx;
                    buf.used[at(lx, ly)] += (t.inValues * (k + 1) / cores - t.inValues * k / cores) * t.blockBytes;
                }
            continue;
        }
        // Bytes = rows(x or y) * blocks(y or x) * blockBytes, plus fp32 buffers
        // for the same slices (stacked experts: routed fraction), as Placement::coreBytes.
        const TileGrid g = tileGrid(t, rect);
        const std::vector<int64_t> rowsLen = splitLengths(t.rows, g.outParts);
        const std::vector<int64_t> blocksLen = splitLengths(t.inBlocks, g.inParts);
        for (int ly = 0; ly < rect.height; ++ly) {
            for (int lx = 0; lx < rect.width; ++lx) {
                int64_t inIndex = 0;
                int64_t outIndex = 0;
                if (!tileIndex(t, g, lx, ly, inIndex, outIndex))
                    continue;
                const int64_t rows = rowsLen[size_t(outIndex)];
                const int64_t blocks = blocksLen[size_t(inIndex)];
                int64_t inBuf = blocks * t.blockValues;
                int64_t outBuf = rows;
                if (t.stackedAlongInput)
                    inBuf = inBuf * t.activeExperts / t.stackedExperts;
                else if (t.stackedExperts > 1)
                    outBuf = outBuf * t.activeExperts / t.stackedExperts;
                buf.used[at(lx, ly)] += rows * blocks * t.blockBytes + 4 * (inBuf + outBuf);
            }
        }
    }
    if (r.kvTokens > 0) {
        const std::vector<int64_t> tokens = splitLengths(r.kvTokens, rect.height);
        const std::vector<int64_t> columns = splitLengths(r.kvColumns, rect.width);
        for (int ly = 0; ly < rect.height; ++ly)
            for (int lx = 0; lx < rect.width; ++lx) {
                const int64_t kv = tokens[size_t(ly)] * columns[size_t(lx)] * r.kvBytesPerValue;
                buf.kv[at(lx, ly)] += kv;
                buf.used[at(lx, ly)] += kv + 4 * tokens[size_t(ly)];
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
} // namespace

MeshSnapshot buildMeshSnapshot(const Placement& p, int firstDevice, int deviceCount)
{
    MeshSnapshot s;
    firstDevice = std::clamp(firstDevice, 0, p.deviceCount);
    const int count = deviceCount < 0 ? p.deviceCount - firstDevice : std::min(deviceCount, p.deviceCount - firstDevice);
    s.meshCols = p.fabricCols;
    s.meshRows = p.fabricRows;
    s.deviceCount = std::max(0, count);
    s.diesX = p.diesX;
    s.diesY = p.diesY;
    s.sramBytesPerCore = p.sramBytesPerCore;
    s.owners.push_back({-1, "none"});

    const bool tensorParallel = p.strategy == PlacementStrategy::TensorParallel;
    // One owner per region (pipelined) or one for the whole mesh (tensor-parallel).
    std::vector<uint16_t> regionOwner(p.regions.size(), 0);
    if (tensorParallel) {
        s.owners.push_back({-1, "all_layers"});
        std::fill(regionOwner.begin(), regionOwner.end(), uint16_t(1));
    } else {
        for (size_t i = 0; i < p.regions.size() && s.owners.size() < 65535; ++i) {
            regionOwner[i] = uint16_t(s.owners.size());
            s.owners.push_back({p.regions[i].layer, dominantKind(p.regions[i])});
        }
    }

    const size_t fabricCores = size_t(s.meshCols) * size_t(s.meshRows);
    const size_t usableCores = size_t(p.usableCols) * size_t(p.usableRows);
    const double sram = double(std::max<int64_t>(1, p.sramBytesPerCore));
    for (int d = firstDevice; d < firstDevice + s.deviceCount; ++d) {
        DeviceBuffers buf{std::vector<int64_t>(usableCores, 0), std::vector<int64_t>(usableCores, 0)};
        std::vector<uint8_t> covered(usableCores, 0);
        std::vector<float> fraction(fabricCores, 0.0f);
        std::vector<float> kvFraction(fabricCores, 0.0f);
        std::vector<uint16_t> owner(fabricCores, 0);
        std::vector<CoreState> state(fabricCores, CoreState::Reserved);
        for (size_t i = 0; i < p.regions.size(); ++i) {
            const PlacedRegion& r = p.regions[i];
            if (r.device != d)
                continue;
            accumulate(r, p.usableCols, buf);
            for (int y = r.rect.y; y < r.rect.y + r.rect.height; ++y)
                for (int x = r.rect.x; x < r.rect.x + r.rect.width; ++x) {
                    const size_t u = size_t(y) * size_t(p.usableCols) + size_t(x);
                    covered[u] = 1;
                    owner[size_t(y + p.originY) * size_t(s.meshCols) + size_t(x + p.originX)] = regionOwner[i];
                }
            if (!tensorParallel || r.layer == 0)
                s.regions.push_back({d - firstDevice, r.rect.x + p.originX, r.rect.y + p.originY, r.rect.width,
                                     r.rect.height, tensorParallel ? -1 : r.layer, regionLabel(p, r)});
        }
        for (int y = 0; y < p.usableRows; ++y)
            for (int x = 0; x < p.usableCols; ++x) {
                const size_t u = size_t(y) * size_t(p.usableCols) + size_t(x);
                const size_t f = size_t(y + p.originY) * size_t(s.meshCols) + size_t(x + p.originX);
                const int64_t used = buf.used[u] + (covered[u] ? p.programBytesPerCore : 0);
                fraction[f] = float(std::min(1.0, double(used) / sram));
                kvFraction[f] = float(double(buf.kv[u]) / sram);
                state[f] = CoreState::Healthy;
            }
        s.sramFraction.push_back(std::move(fraction));
        s.kvFraction.push_back(std::move(kvFraction));
        s.owner.push_back(std::move(owner));
        s.coreState.push_back(std::move(state));
    }
    return s;
}

} // namespace ws
