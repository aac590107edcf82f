#include "engine/perf/waferlayout.h"

#include "engine/model/modelshape.h"
#include "engine/wafer/kvcache.h"

#include <algorithm>
#include <cmath>

namespace ws {

namespace {

struct Grid
{
    int cols = 0; // regions across
    int rows = 0; // regions down
    int width = 0;
    int height = 0;
};

// The grid of equal regions, each of at least `cores`, that gives the most regions per wafer.
Grid bestGrid(int usableCols, int usableRows, int64_t cores)
{
    Grid best;
    for (int nx = 1; nx <= usableCols; ++nx) {
        const int w = usableCols / nx;
        const int64_t h = (cores + w - 1) / w;
        if (h > usableRows)
            continue;
        const int ny = int(usableRows / h);
        if (int64_t(nx) * ny > int64_t(best.cols) * best.rows ||
            (int64_t(nx) * ny == int64_t(best.cols) * best.rows && std::abs(w - h) < std::abs(best.width - best.height))) {
            best = {nx, ny, w, int(usableRows / ny)};
        }
        if (w == 1)
            break;
    }
    return best;
}

// The grid of at least `regions` regions, each of at least `cores`, with the biggest regions:
// a model that does not fill its wafers spreads out (more SRAM for KV per region).
Grid roomiestGrid(int usableCols, int usableRows, int regions, int64_t cores, Grid fallback)
{
    Grid best = fallback;
    int64_t bestArea = int64_t(fallback.width) * fallback.height;
    for (int nx = 1; nx <= std::min(usableCols, regions); ++nx) {
        const int ny = (regions + nx - 1) / nx;
        if (ny > usableRows)
            continue;
        const int w = usableCols / nx;
        const int h = usableRows / ny;
        const int64_t area = int64_t(w) * h;
        if (area < cores)
            continue;
        if (area > bestArea || (area == bestArea && std::abs(w - h) < std::abs(best.width - best.height))) {
            best = {nx, ny, w, h};
            bestArea = area;
        }
    }
    return best;
}

// Layers too big for one wafer (MoE): whole wafers per layer, experts spread over them.
WaferLayout spanWafers(const ModelConfig& model, const HardwareSpec& hw, const WaferLayoutOptions& o,
                       const ModelShape& shape)
{
    const WaferSpec& w = hw.wafer;
    const int cols = w.meshCols - w.reservedCols;
    const int rows = w.meshRows - w.reservedRows;
    const CoreRect full{w.reservedLeftCols, w.reservedTopRows, cols, rows};
    const double waferBudget = o.weightFillFraction * double(w.sramBytesPerCore) * double(cols) * rows;
    const int kvValueBytes = bitsPerParameter(o.precision) >= 16 ? 2 : 1;
    WaferLayout out;
    out.weightFillFraction = o.weightFillFraction;
    out.regionsPerDevice = 1;
    ScheduleLayout& s = out.schedule;
    s.meshCols = w.meshCols;
    s.meshRows = w.meshRows;
    int device = 0;
    s.embedding = {device++, full};
    double worstPerCore = 0;
    s.expertRegions.resize(size_t(model.layers));
    for (int l = 0; l < model.layers; ++l) {
        const double bytes = double(shape.layerBytes(l, o.precision)) +
                             double(shape.layerKvBytes(l, o.contextTokens, kvValueBytes)) * std::max(1, o.concurrency);
        const int wafers = std::max(1, int(std::ceil(bytes / waferBudget)));
        s.layers.push_back({device, full});
        worstPerCore = std::max(worstPerCore, double(shape.layerBytes(l, o.precision)) / (double(wafers) * cols * rows));
        if (model.isMoeLayer(l)) {
            const int experts = model.expertCount + model.sharedExpertCount;
            const int perWafer = (experts + wafers - 1) / wafers;
            const std::vector<CoreRect> tiles = expertTiles(full, perWafer);
            for (int e = 0; e < experts; ++e)
                s.expertRegions[size_t(l)].push_back({device + e / perWafer, tiles[size_t(e % perWafer)]});
        }
        device += wafers;
    }
    s.lmHead = model.tiedEmbeddings ? s.embedding : RegionRef{device++, full};
    s.deviceCount = device;
    out.devicesNeeded = device;
    out.weightBytesPerCore = int64_t(std::ceil(worstPerCore));
    out.freeBytesPerCore = std::max<int64_t>(0, w.sramBytesPerCore - w.programBytesPerCore - out.weightBytesPerCore);
    out.note = "a layer is bigger than one wafer: each layer takes whole wafers, its experts spread over them";
    return out;
}

} // namespace

Expected<WaferLayout> layoutWafer(const ModelConfig& model, const HardwareSpec& hw, const WaferLayoutOptions& o)
{
    if (hw.kind != HardwareKind::Wafer)
        return makeError(ErrorCode::InvalidArgument, "not a wafer", "hardware");
    const WaferSpec& w = hw.wafer;
    const int cols = w.meshCols - w.reservedCols;
    const int rows = w.meshRows - w.reservedRows;
    if (cols <= 0 || rows <= 0 || w.sramBytesPerCore <= 0)
        return makeError(ErrorCode::InvalidArgument, "wafer mesh or SRAM size is not positive", "meshCols");
    if (model.layers <= 0 || model.hiddenSize <= 0)
        return makeError(ErrorCode::InvalidArgument, "model has no layers", "layers");
    const double sram = double(w.sramBytesPerCore);
    const double weightBudget = o.weightFillFraction * sram;

    // The biggest layer decides the region size (all regions equal, so the grid tiles the wafer).
    const ModelShape shape(model);
    const int kvValueBytes = bitsPerParameter(o.precision) >= 16 ? 2 : 1;
    double maxLayerBytes = 0;
    double maxKvBytes = 0;
    for (int l = 0; l < model.layers; ++l) {
        maxLayerBytes = std::max(maxLayerBytes, double(shape.layerBytes(l, o.precision)));
        maxKvBytes = std::max(maxKvBytes, double(shape.layerKvBytes(l, o.contextTokens, kvValueBytes)) *
                                              std::max(1, o.concurrency));
    }
    // Weights fill at most phi_w of a core; KV takes what is left.
    const int64_t byWeights = int64_t(std::ceil(maxLayerBytes / weightBudget));
    const int64_t byTotal = int64_t(std::ceil((maxLayerBytes + maxKvBytes) / sram));
    const int64_t cores = std::max<int64_t>(1, std::max(byWeights, byTotal));
    const Grid densest = bestGrid(cols, rows, cores);
    if (densest.cols == 0) {
        if (!model.isMoe())
            return makeError(ErrorCode::OutOfRange, "one layer needs more cores than a wafer has", "layers");
        return spanWafers(model, hw, o, shape);
    }

    WaferLayout out;
    out.weightFillFraction = o.weightFillFraction;
    const int64_t embedBytes = shape.bytesByKind(TensorKind::TokenEmbedding, o.precision);
    const int64_t headBytes = model.tiedEmbeddings ? 0 : shape.bytesByKind(TensorKind::Output, o.precision);
    auto slotsFor = [&](double bytes, const Grid& g) {
        return std::max(1, int(std::ceil(bytes / (weightBudget * double(g.width) * g.height))));
    };
    const int densestSlots = slotsFor(double(embedBytes), densest) + model.layers +
                             (model.tiedEmbeddings ? 0 : slotsFor(double(headBytes), densest));
    const int densestPerDevice = densest.cols * densest.rows;
    out.devicesNeeded = (densestSlots + densestPerDevice - 1) / densestPerDevice;
    // Spread the slots evenly over those wafers with regions as big as they can be.
    Grid grid = roomiestGrid(cols, rows, (densestSlots + out.devicesNeeded - 1) / out.devicesNeeded, cores, densest);
    int embedSlots = slotsFor(double(embedBytes), grid);
    int headSlots = model.tiedEmbeddings ? 0 : slotsFor(double(headBytes), grid);
    if ((embedSlots + model.layers + headSlots) > grid.cols * grid.rows * out.devicesNeeded) {
        grid = densest;
        embedSlots = slotsFor(double(embedBytes), grid);
        headSlots = model.tiedEmbeddings ? 0 : slotsFor(double(headBytes), grid);
    }
    out.regionsPerDevice = grid.cols * grid.rows;
    const double regionCores = double(grid.width) * grid.height;

    ScheduleLayout& s = out.schedule;
    s.meshCols = w.meshCols;
    s.meshRows = w.meshRows;
    s.deviceCount = out.devicesNeeded;
    const int left = w.reservedLeftCols;
    const int top = w.reservedTopRows;
    // Slot i in snake order: rows of regions, alternating direction, wafer after wafer.
    auto slot = [&](int i) {
        const int device = i / out.regionsPerDevice;
        const int k = i % out.regionsPerDevice;
        const int ry = k / grid.cols;
        const int rx = (ry % 2 == 0) ? k % grid.cols : grid.cols - 1 - k % grid.cols;
        return RegionRef{device, {left + rx * grid.width, top + ry * grid.height, grid.width, grid.height}};
    };
    // A multi-slot table is drawn as the bounding box of its slots on the first slot's device and row.
    auto span = [&](int first, int count) {
        RegionRef r = slot(first);
        for (int i = 1; i < count; ++i) {
            const RegionRef o2 = slot(first + i);
            if (o2.device != r.device || o2.rect.y != r.rect.y)
                break;
            const int x0 = std::min(r.rect.x, o2.rect.x);
            const int x1 = std::max(r.rect.x + r.rect.width, o2.rect.x + o2.rect.width);
            r.rect.x = x0;
            r.rect.width = x1 - x0;
        }
        return r;
    };
    s.embedding = span(0, embedSlots);
    s.layers.reserve(size_t(model.layers));
    for (int l = 0; l < model.layers; ++l)
        s.layers.push_back(slot(embedSlots + l));
    s.lmHead = model.tiedEmbeddings ? s.embedding : span(embedSlots + model.layers, headSlots);

    out.weightBytesPerCore = int64_t(std::ceil(maxLayerBytes / regionCores));
    out.freeBytesPerCore = std::max<int64_t>(0, w.sramBytesPerCore - w.programBytesPerCore - out.weightBytesPerCore);
    return out;
}

} // namespace ws
