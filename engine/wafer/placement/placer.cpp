#include "engine/wafer/placement/placer.h"

#include "engine/core/numbertext.h"
#include "engine/model/modelshape.h"
#include "engine/wafer/placement/layerfactory.h"
#include "engine/wafer/placement/regiontensors.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>

namespace ws {

namespace {

// Two layers whose tensors and KV need the same bytes on any rectangle (the
// layer index itself does not matter for fit).
bool sameFootprint(const RegionTensor& a, const RegionTensor& b)
{
    return a.kind == b.kind && a.rows == b.rows && a.rowOffset == b.rowOffset && a.inValues == b.inValues &&
           a.inBlocks == b.inBlocks && a.blockValues == b.blockValues && a.blockBytes == b.blockBytes &&
           a.inputAlongY == b.inputAlongY && a.vector == b.vector && a.stackedExperts == b.stackedExperts &&
           a.activeExperts == b.activeExperts && a.stackedAlongInput == b.stackedAlongInput &&
           a.inGroups == b.inGroups && a.fold == b.fold;
}

// A layer class on a rectangle of some size: what the fit and the tile grids depend on. The placer asks for
// thousands while it weighs band counts, so they are hashed.
struct ClassOnSize
{
    int layerClass = 0;
    int width = 0;
    int height = 0;
    bool operator==(const ClassOnSize&) const = default;
};

struct ClassOnSizeHash
{
    size_t operator()(const ClassOnSize& k) const
    {
        const uint64_t wh = (uint64_t(uint32_t(k.width)) << 32) | uint32_t(k.height);
        return std::hash<uint64_t>()(wh * 0x9E3779B97F4A7C15ull ^ uint64_t(uint32_t(k.layerClass)));
    }
};

class Placer
{
public:
    Placer(const ModelConfig& model, const WaferSpec& wafer, const PlacementOptions& o)
        : m_factory(model, wafer, o), m_shape(m_factory.shape()), m_wafer(wafer), m_options(o),
          m_cols(m_factory.usableCols()), m_rows(m_factory.usableRows())
    {
        for (int l = 0; l < model.layers; ++l)
            m_layerClass.push_back(layerClassOf(l));
    }

    Expected<Placement> run();

private:
    // The factory's region, its tensors' tile grids memoised per layer class and rectangle size: a layer of the
    // same class on a rectangle of the same size takes the same grids (the choice reads only the footprint and
    // the width and height).
    PlacedRegion layerRegion(int layer, int device, const CoreRect& rect) const;
    bool layerFits(const PlacedRegion& r) const;
    // layerFits for layer `layer` on a width x height rectangle, memoised per layer class
    // (the fit depends only on the rectangle's size and the layer's footprint).
    bool layerFitsSize(int layer, int width, int height) const;
    // The first layer with the same footprint as `layer` (its tensors are already recorded).
    int layerClassOf(int layer) const;
    // Rectangles for layers [first, first + n) on one device, or empty when they do not fit.
    std::vector<CoreRect> layoutDevice(int first, int n) const;
    // Device assignment: consecutive layers, at most `cap` per device.
    std::optional<std::vector<std::vector<CoreRect>>> pack(int cap, std::string& error) const;
    // Layers split as evenly as possible over `devices` (counts differ by at most one); nullopt if one does not fit.
    std::optional<std::vector<std::vector<CoreRect>>> evenSplit(int devices) const;
    bool addTables(Placement& p, bool spreadOverAll) const;
    Expected<Placement> tensorParallel();
    Expected<Placement> pipelined();
    // The placement on the smallest sub-mesh (usable aspect) that holds `whole`'s one device.
    Placement onSmallestSubMesh(Placement whole);

    LayerFactory m_factory;
    const ModelShape& m_shape;
    WaferSpec m_wafer;
    PlacementOptions m_options;
    int m_cols = 0;
    int m_rows = 0;
    std::vector<int> m_layerClass;
    mutable std::unordered_map<ClassOnSize, bool, ClassOnSizeHash> m_fits;
    mutable std::unordered_map<ClassOnSize, PlacedRegion, ClassOnSizeHash> m_regions;
};

PlacedRegion Placer::layerRegion(int layer, int device, const CoreRect& rect) const
{
    const ClassOnSize key{m_layerClass[size_t(layer)], rect.width, rect.height};
    auto it = m_regions.find(key);
    if (it == m_regions.end())
        return m_regions.emplace(key, m_factory.layerRegion(layer, device, rect)).first->second;
    PlacedRegion r = it->second; // another layer of the class: its own index, place and KV
    r.device = device;
    r.rect = rect;
    r.layer = layer;
    const std::vector<RegionTensor>& mine = m_factory.layerTensors(layer);
    for (size_t i = 0; i < r.tensors.size(); ++i)
        r.tensors[i].layer = mine[i].layer;
    r.kvTokens = m_shape.config().kvTokens(layer, m_options.contextTokens);
    return r;
}

int Placer::layerClassOf(int layer) const
{
    const auto& mine = m_factory.layerTensors(layer);
    const int64_t kv = m_shape.config().kvTokens(layer, m_options.contextTokens);
    for (int c = 0; c < layer; ++c) {
        if (m_layerClass[size_t(c)] != c)
            continue;
        const auto& theirs = m_factory.layerTensors(c);
        if (theirs.size() != mine.size() || m_shape.config().kvTokens(c, m_options.contextTokens) != kv)
            continue;
        bool same = true;
        for (size_t i = 0; i < mine.size() && same; ++i)
            same = sameFootprint(mine[i], theirs[i]);
        if (same)
            return c;
    }
    return layer;
}

bool Placer::layerFitsSize(int layer, int width, int height) const
{
    const ClassOnSize key{m_layerClass[size_t(layer)], width, height};
    auto it = m_fits.find(key);
    if (it != m_fits.end())
        return it->second;
    // The factory's own: most sizes weighed are never placed, so they are not kept.
    const bool fits = layerFits(m_factory.layerRegion(layer, 0, CoreRect{0, 0, width, height}));
    m_fits.emplace(key, fits);
    return fits;
}

bool Placer::layerFits(const PlacedRegion& r) const
{
    const double budget = m_options.weightFill * double(m_wafer.sramBytesPerCore);
    return double(regionMaxCoreWeightBytes(r)) <= budget &&
           regionMaxCoreBytes(r, m_wafer.programBytesPerCore) <= m_wafer.sramBytesPerCore;
}

std::vector<CoreRect> Placer::layoutDevice(int first, int n) const
{
    std::vector<double> sizes;
    for (int l = first; l < first + n; ++l)
        sizes.push_back(m_factory.layerBytes(l));
    // Quick reject: the layers' weights alone exceed phi_w of the device.
    double sum = 0;
    for (double s : sizes)
        sum += s;
    if (sum > m_options.weightFill * double(m_wafer.sramBytesPerCore) * double(m_cols) * m_rows)
        return {};
    std::vector<CoreRect> best;
    double bestAspect = 0;
    const int fixedBands = std::min(m_options.bandsPerDevice, n);
    for (int bands = fixedBands > 0 ? fixedBands : 1; bands <= (fixedBands > 0 ? fixedBands : n); ++bands) {
        std::vector<CoreRect> rects = orderedRegions(m_options.order, m_cols, m_rows, sizes, bands);
        if (rects.empty())
            continue;
        bool ok = true;
        for (int i = 0; i < n && ok; ++i)
            ok = layerFitsSize(first + i, rects[size_t(i)].width, rects[size_t(i)].height);
        if (!ok)
            continue;
        const double aspect = worstAspect(rects);
        if (best.empty() || aspect < bestAspect) {
            best = std::move(rects);
            bestAspect = aspect;
        }
    }
    return best;
}

std::optional<std::vector<std::vector<CoreRect>>> Placer::pack(int cap, std::string& error) const
{
    const int layers = m_shape.config().layers;
    std::vector<std::vector<CoreRect>> devices;
    int first = 0;
    while (first < layers) {
        std::vector<CoreRect> fitted;
        for (int n = 1; n <= std::min(cap, layers - first); ++n) {
            std::vector<CoreRect> rects = layoutDevice(first, n);
            if (rects.empty())
                break;
            fitted = std::move(rects);
        }
        if (fitted.empty()) {
            error = "layer " + std::to_string(first) + " (" + std::to_string(int64_t(m_factory.layerBytes(first))) +
                    " bytes) does not fit on one device at weight fill " + toStringC(m_options.weightFill);
            return std::nullopt;
        }
        first += int(fitted.size());
        devices.push_back(std::move(fitted));
        if (int(devices.size()) > m_options.maxDevices) {
            error = "needs more than " + std::to_string(m_options.maxDevices) + " devices";
            return std::nullopt;
        }
    }
    return devices;
}

std::optional<std::vector<std::vector<CoreRect>>> Placer::evenSplit(int devices) const
{
    const int layers = m_shape.config().layers;
    std::vector<std::vector<CoreRect>> out;
    int first = 0;
    for (int dev = 0; dev < devices; ++dev) {
        const int n = layers / devices + (dev < layers % devices ? 1 : 0);
        if (n == 0)
            return std::nullopt;
        std::vector<CoreRect> rects = layoutDevice(first, n);
        if (rects.empty())
            return std::nullopt;
        out.push_back(std::move(rects));
        first += n;
    }
    return out;
}

bool Placer::addTables(Placement& p, bool spreadOverAll) const
{
    std::vector<int> entry;
    std::vector<int> exit;
    for (size_t i = 0; i < p.regions.size(); ++i) {
        if (spreadOverAll || p.regions[i].device == 0)
            entry.push_back(int(i));
        if (spreadOverAll || p.regions[i].device == p.deviceCount - 1)
            exit.push_back(int(i));
    }
    return m_factory.addTables(p, entry, exit);
}

Expected<Placement> Placer::tensorParallel()
{
    Placement p = m_factory.skeleton();
    p.deviceCount = 1;
    const CoreRect all{0, 0, m_cols, m_rows};
    for (int l = 0; l < m_shape.config().layers; ++l)
        p.regions.push_back(layerRegion(l, 0, all));
    PlacedRegion tables;
    tables.rect = all;
    for (const TensorShape* t : m_shape.layerTensors(-1))
        tables.tensors.push_back(regionTensor(*t, m_factory.precisions().of(t->kind, -1)));
    layoutTensors(tables.tensors, all);
    p.regions.push_back(std::move(tables));
    p.layersPerDevice = {m_shape.config().layers};
    int64_t weights = 0;
    for (const auto& r : p.regions)
        weights += regionMaxCoreWeightBytes(r);
    const int64_t used = p.maxCoreBytes();
    if (double(weights) > m_options.weightFill * double(m_wafer.sramBytesPerCore) || used > m_wafer.sramBytesPerCore) {
        return makeError(ErrorCode::OutOfRange, "the tensor-parallel layout needs " + std::to_string(used) +
                                                    " bytes per core (" + std::to_string(weights) +
                                                    " of weights) but a core has " +
                                                    std::to_string(m_wafer.sramBytesPerCore) + " at weight fill " +
                                                    toStringC(m_options.weightFill) + "; use the pipelined strategy");
    }
    p.notes.push_back("tensor-parallel: every layer spread over the whole usable mesh of one device");
    return p;
}

Expected<Placement> Placer::run()
{
    if (m_cols <= 0 || m_rows <= 0 || m_options.usableCols < 0 || m_options.usableRows < 0)
        return makeError(ErrorCode::InvalidArgument, "usable mesh is empty", "usableCols");
    if (!(m_options.weightFill > 0.0 && m_options.weightFill <= 1.0))
        return makeError(ErrorCode::InvalidArgument, "weight fill must be in (0, 1]", "weightFill");
    if (m_options.contextTokens < 0)
        return makeError(ErrorCode::InvalidArgument, "context must not be negative", "contextTokens");
    if (m_wafer.sramBytesPerCore <= m_wafer.programBytesPerCore)
        return makeError(ErrorCode::InvalidArgument, "no SRAM left after the program", "programBytesPerCore");
    if (m_options.strategy == PlacementStrategy::TensorParallel)
        return tensorParallel();
    auto placed = pipelined();
    if (!placed || !m_options.fitSubMesh || placed->deviceCount != 1)
        return placed;
    return onSmallestSubMesh(std::move(*placed));
}

Placement Placer::onSmallestSubMesh(Placement whole)
{
    const int cols = m_cols;
    const int rows = m_rows;
    const int maxDevices = m_options.maxDevices;
    m_options.maxDevices = 1;
    // Binary search on the sub-mesh's rows (its columns follow the usable aspect) for the fewest that hold the
    // model on one device; `whole` (every row) is known to.
    std::optional<Placement> best;
    int lo = 1;
    int hi = rows;
    while (lo < hi) {
        const int h = lo + (hi - lo) / 2;
        m_rows = h;
        m_cols = std::clamp(int(std::ceil(double(h) * cols / rows)), 1, cols);
        auto placed = pipelined();
        if (placed && placed->deviceCount == 1) {
            best = std::move(*placed);
            hi = h;
        } else {
            lo = h + 1;
        }
    }
    m_cols = cols;
    m_rows = rows;
    m_options.maxDevices = maxDevices;
    if (!best || lo >= rows)
        return whole;
    const int subCols = std::clamp(int(std::ceil(double(lo) * cols / rows)), 1, cols);
    best->notes.push_back("placed on the smallest sub-mesh that holds it at weight fill " +
                          toStringC(m_options.weightFill) + ": " + std::to_string(subCols) + " x " +
                          std::to_string(lo) + " of the usable " + std::to_string(cols) + " x " + std::to_string(rows) +
                          " cores; the other cores idle");
    return std::move(*best);
}

Expected<Placement> Placer::pipelined()
{
    const int layers = m_shape.config().layers;
    std::string error;
    auto greedy = pack(layers, error);
    if (!greedy)
        return makeError(ErrorCode::OutOfRange, error);
    int devices = int(greedy->size());
    for (;;) {
        auto balanced = evenSplit(devices);
        if (!balanced) {
            // Uneven layers (e.g. dense and MoE interleaved): greedy with a cap per device.
            balanced = pack((layers + devices - 1) / devices, error);
            if (!balanced)
                return makeError(ErrorCode::OutOfRange, error);
        }
        Placement p = m_factory.skeleton();
        p.deviceCount = int(balanced->size());
        int layer = 0;
        for (int dev = 0; dev < p.deviceCount; ++dev) {
            const auto& rects = (*balanced)[size_t(dev)];
            p.layersPerDevice.push_back(int(rects.size()));
            for (const CoreRect& rect : rects)
                p.regions.push_back(layerRegion(layer++, dev, rect));
        }
        Placement ends = p;
        if (addTables(ends, false)) {
            ends.notes.push_back(
                "token embedding on the first device, LM head on the last, in the layer regions' free SRAM");
            return ends;
        }
        if (addTables(p, true)) {
            p.notes.push_back("token embedding and LM head sliced over the free SRAM of every layer region");
            return p;
        }
        if (devices >= layers || devices >= m_options.maxDevices)
            return makeError(ErrorCode::OutOfRange, "the embedding and LM head do not fit beside the layers");
        ++devices; // more devices: smaller share of layers each, more room for the tables
    }
}

} // namespace

Expected<Placement> placeModel(const ModelConfig& model, const WaferSpec& wafer, const PlacementOptions& options)
{
    Placer placer(model, wafer, options);
    return placer.run();
}

} // namespace ws
