#include "engine/wafer/placement/placer.h"

#include "engine/model/modelshape.h"
#include "engine/wafer/placement/regiontensors.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>

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

class Placer
{
public:
    Placer(const ModelConfig& model, const WaferSpec& wafer, const PlacementOptions& o)
        : m_shape(model), m_wafer(wafer), m_options(o)
    {
        m_cols = o.usableCols > 0 ? o.usableCols : wafer.usableCols();
        m_rows = o.usableRows > 0 ? o.usableRows : wafer.usableRows();
        const Precision kvp = o.kvPrecision.value_or(o.precision == Precision::Fp32 ? Precision::Fp32 : Precision::Bf16);
        m_kvBytes = int(precisionBlock(kvp).bytes / precisionBlock(kvp).values);
        if (kvp == Precision::Int8 || kvp == Precision::Int4)
            m_kvBytes = 1;
        for (int l = 0; l < model.layers; ++l) {
            std::vector<RegionTensor> ts;
            for (const TensorShape* t : m_shape.layerTensors(l)) {
                RegionTensor rt = regionTensor(*t, o.precision);
                // Vectors of one kind (norms, biases) are concatenated into one spread.
                auto same = std::find_if(ts.begin(), ts.end(), [&](const RegionTensor& x) { return x.vector && x.kind == rt.kind; });
                if (rt.vector && same != ts.end()) {
                    same->inValues += rt.inValues;
                    same->inBlocks += rt.inBlocks;
                    continue;
                }
                ts.push_back(rt);
            }
            m_layerTensors.push_back(std::move(ts));
            m_layerBytes.push_back(double(m_shape.layerBytes(l, o.precision)));
            m_layerClass.push_back(layerClassOf(l));
        }
    }

    Expected<Placement> run();

private:
    Placement skeleton() const;
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

    ModelShape m_shape;
    WaferSpec m_wafer;
    PlacementOptions m_options;
    int m_cols = 0;
    int m_rows = 0;
    int m_kvBytes = 2;
    std::vector<std::vector<RegionTensor>> m_layerTensors;
    std::vector<double> m_layerBytes;
    std::vector<int> m_layerClass;
    mutable std::map<std::tuple<int, int, int>, bool> m_fits;
};

int Placer::layerClassOf(int layer) const
{
    const auto& mine = m_layerTensors[size_t(layer)];
    const int64_t kv = m_shape.config().kvTokens(layer, m_options.contextTokens);
    for (int c = 0; c < layer; ++c) {
        if (m_layerClass[size_t(c)] != c)
            continue;
        const auto& theirs = m_layerTensors[size_t(c)];
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
    const auto key = std::make_tuple(m_layerClass[size_t(layer)], width, height);
    auto it = m_fits.find(key);
    if (it != m_fits.end())
        return it->second;
    const bool fits = layerFits(layerRegion(layer, 0, CoreRect{0, 0, width, height}));
    m_fits.emplace(key, fits);
    return fits;
}

Placement Placer::skeleton() const
{
    Placement p;
    p.strategy = m_options.strategy;
    p.precision = m_options.precision;
    p.contextTokens = m_options.contextTokens;
    p.weightFill = m_options.weightFill;
    p.usableCols = m_cols;
    p.usableRows = m_rows;
    p.originX = m_wafer.reservedLeftCols;
    p.originY = m_wafer.reservedTopRows;
    p.fabricCols = std::max(m_wafer.meshCols, m_cols + p.originX);
    p.fabricRows = std::max(m_wafer.meshRows, m_rows + p.originY);
    p.diesX = m_wafer.diesX;
    p.diesY = m_wafer.diesY;
    p.sramBytesPerCore = m_wafer.sramBytesPerCore;
    p.programBytesPerCore = m_wafer.programBytesPerCore;
    p.modelWeightBytes = m_shape.totalBytes(m_options.precision);
    return p;
}

PlacedRegion Placer::layerRegion(int layer, int device, const CoreRect& rect) const
{
    PlacedRegion r;
    r.device = device;
    r.rect = rect;
    r.layer = layer;
    r.tensors = m_layerTensors[size_t(layer)];
    layoutTensors(r.tensors, rect);
    r.kvTokens = m_shape.config().kvTokens(layer, m_options.contextTokens);
    r.kvColumns = 2 * m_shape.config().kvDim();
    r.kvBytesPerValue = m_kvBytes;
    return r;
}

bool Placer::layerFits(const PlacedRegion& r) const
{
    const double budget = m_options.weightFill * double(m_wafer.sramBytesPerCore);
    return double(regionMaxCoreWeightBytes(r)) <= budget &&
           regionMaxCoreBytes(r, m_wafer.programBytesPerCore) <= m_wafer.sramBytesPerCore;
}

std::vector<CoreRect> Placer::layoutDevice(int first, int n) const
{
    const std::vector<double> sizes(m_layerBytes.begin() + first, m_layerBytes.begin() + first + n);
    // Quick reject: the layers' weights alone exceed phi_w of the device.
    double sum = 0;
    for (double s : sizes)
        sum += s;
    if (sum > m_options.weightFill * double(m_wafer.sramBytesPerCore) * double(m_cols) * m_rows)
        return {};
    std::vector<CoreRect> best;
    double bestAspect = 0;
    for (int bands = 1; bands <= n; ++bands) {
        std::vector<CoreRect> rects = snakeRegions(m_cols, m_rows, sizes, bands);
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
            error = "layer " + std::to_string(first) + " (" + std::to_string(int64_t(m_layerBytes[size_t(first)])) +
                    " bytes) does not fit on one device at weight fill " + std::to_string(m_options.weightFill);
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
    const ModelConfig& c = m_shape.config();
    std::vector<const TensorShape*> globals = m_shape.layerTensors(-1);
    const int last = p.deviceCount - 1;
    auto regionsOf = [&](int device) {
        std::vector<int> ids;
        for (size_t i = 0; i < p.regions.size(); ++i)
            if (spreadOverAll || p.regions[i].device == device)
                ids.push_back(int(i));
        return ids;
    };
    for (const TensorShape* t : globals) {
        if (t->isVector()) {
            // Final norm: with the LM head, in the last region.
            p.regions.back().tensors.push_back(regionTensor(*t, m_options.precision));
            continue;
        }
        // The untied embedding goes where the token enters; the LM head (or the
        // tied table that serves both) where the last hidden state leaves.
        const bool atEntry = t->kind == TensorKind::TokenEmbedding && !c.tiedEmbeddings;
        const std::vector<int> ids = regionsOf(atEntry ? 0 : last);
        int64_t cores = 0;
        for (int i : ids)
            cores += p.regions[size_t(i)].rect.cores();
        const RegionTensor whole = regionTensor(*t, m_options.precision);
        int64_t acc = 0;
        int64_t rowBegin = 0;
        for (int i : ids) {
            acc += p.regions[size_t(i)].rect.cores();
            const int64_t rowEnd = whole.rows * acc / cores;
            if (rowEnd > rowBegin) {
                RegionTensor slice = whole;
                slice.rows = rowEnd - rowBegin;
                slice.rowOffset = rowBegin;
                chooseGrid(slice, p.regions[size_t(i)].rect);
                p.regions[size_t(i)].tensors.push_back(slice);
            }
            rowBegin = rowEnd;
        }
    }
    for (const auto& r : p.regions)
        if (regionMaxCoreBytes(r, m_wafer.programBytesPerCore) > m_wafer.sramBytesPerCore)
            return false;
    return true;
}

Expected<Placement> Placer::tensorParallel()
{
    Placement p = skeleton();
    p.deviceCount = 1;
    const CoreRect all{0, 0, m_cols, m_rows};
    for (int l = 0; l < m_shape.config().layers; ++l)
        p.regions.push_back(layerRegion(l, 0, all));
    PlacedRegion tables;
    tables.rect = all;
    for (const TensorShape* t : m_shape.layerTensors(-1))
        tables.tensors.push_back(regionTensor(*t, m_options.precision));
    layoutTensors(tables.tensors, all);
    p.regions.push_back(std::move(tables));
    p.layersPerDevice = {m_shape.config().layers};
    int64_t weights = 0;
    for (const auto& r : p.regions)
        weights += regionMaxCoreWeightBytes(r);
    const int64_t used = p.maxCoreBytes();
    if (double(weights) > m_options.weightFill * double(m_wafer.sramBytesPerCore) || used > m_wafer.sramBytesPerCore) {
        return makeError(ErrorCode::OutOfRange,
                         "the tensor-parallel layout needs " + std::to_string(used) + " bytes per core (" +
                             std::to_string(weights) + " of weights) but a core has " +
                             std::to_string(m_wafer.sramBytesPerCore) + " at weight fill " +
                             std::to_string(m_options.weightFill) + "; use the pipelined strategy");
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
        Placement p = skeleton();
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
            ends.notes.push_back("token embedding on the first device, LM head on the last, in the layer regions' free SRAM");
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
