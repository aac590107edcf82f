#include "engine/wafer/placement/layout.h"

#include "engine/model/modelshape.h"
#include "engine/wafer/placement/layerfactory.h"
#include "engine/wafer/placement/regiontensors.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace ws {

namespace {
std::string rectText(const CoreRect& r)
{
    std::string out = std::to_string(r.x);
    out += ", ";
    out += std::to_string(r.y);
    out += ", ";
    out += std::to_string(r.width);
    out += " x ";
    out += std::to_string(r.height);
    return "(" + out + ")";
}

bool holdsTable(const PlacedRegion& r, bool head, bool tied)
{
    for (const RegionTensor& t : r.tensors) {
        if (t.vector || t.layer >= 0)
            continue;
        if (head ? (t.kind == TensorKind::Output || (tied && t.kind == TensorKind::TokenEmbedding))
                 : (!tied && t.kind == TensorKind::TokenEmbedding))
            return true;
    }
    return false;
}

PlacementOptions optionsOf(const Layout& l)
{
    PlacementOptions o;
    o.choices() = l.choices();
    o.precision = l.precisions.attention;
    o.groups = l.precisions;
    return o;
}
} // namespace

Layout layoutOf(const Placement& p, const std::string& modelId, const std::string& hardwareId)
{
    Layout l;
    l.origin = "placer";
    l.modelId = modelId;
    l.hardwareId = hardwareId;
    l.choices() = p.choices();
    l.precisions = p.precisions;
    l.deviceCount = p.deviceCount;
    l.notes = p.notes;
    bool tied = true;
    for (const PlacedRegion& r : p.regions)
        for (const RegionTensor& t : r.tensors)
            if (t.kind == TensorKind::Output)
                tied = false;
    for (const PlacedRegion& r : p.regions) {
        if (r.layer < 0)
            continue;
        if (size_t(r.layer) >= l.layers.size())
            l.layers.resize(size_t(r.layer) + 1);
        l.layers[size_t(r.layer)] = LayoutRegion{r.device, r.rect};
        if (holdsTable(r, false, tied))
            l.embeddingLayers.push_back(r.layer);
        if (holdsTable(r, true, tied))
            l.headLayers.push_back(r.layer);
    }
    if (l.headLayers.empty() && !l.layers.empty())
        l.headLayers.push_back(int(l.layers.size()) - 1); // tensor-parallel: the tables share the whole mesh
    return l;
}

std::string layoutMismatch(const Layout& l, const ModelConfig& model, const HardwareSpec& hw)
{
    if (hw.kind != HardwareKind::Wafer)
        return "a layout needs wafer hardware; '" + hw.id + "' is not a wafer";
    if (!l.modelId.empty() && l.modelId != model.id)
        return "the layout is for model '" + l.modelId + "', not '" + model.id + "'";
    if (!l.hardwareId.empty() && l.hardwareId != hw.id)
        return "the layout is for hardware '" + l.hardwareId + "', not '" + hw.id + "'";
    if (int(l.layers.size()) != model.layers)
        return "the layout has " + std::to_string(l.layers.size()) + " layer regions but " + model.id + " has " +
               std::to_string(model.layers) + " layers";
    if (l.usableCols < 1 || l.usableRows < 1 || l.usableCols > hw.wafer.usableCols() ||
        l.usableRows > hw.wafer.usableRows())
        return "the layout's mesh " + std::to_string(l.usableCols) + " x " + std::to_string(l.usableRows) +
               " does not fit " + hw.id + "'s usable mesh " + std::to_string(hw.wafer.usableCols()) + " x " +
               std::to_string(hw.wafer.usableRows());
    if (l.deviceCount < 1)
        return "the layout has no devices";
    if (!(l.weightFill > 0.0 && l.weightFill <= 1.0))
        return "the layout's weight fill must be in (0, 1]";
    if (l.contextTokens < 0)
        return "the layout's context must not be negative";
    if (model.tiedEmbeddings && !l.embeddingLayers.empty())
        return model.id + " ties its embedding to the LM head: the layout must not place a separate embedding";
    if (!model.tiedEmbeddings && l.embeddingLayers.empty())
        return "the layout places no token embedding";
    if (l.headLayers.empty())
        return "the layout places no LM head";
    return {};
}

std::string layoutGeometryError(const Layout& l)
{
    const int n = int(l.layers.size());
    for (int i = 0; i < n; ++i) {
        const LayoutRegion& a = l.layers[size_t(i)];
        if (a.device < 0 || a.device >= l.deviceCount)
            return "layer " + std::to_string(i) + " is on wafer " + std::to_string(a.device + 1) + " (device index " +
                   std::to_string(a.device) + "), but the layout has " + std::to_string(l.deviceCount) + " wafer" +
                   (l.deviceCount == 1 ? "" : "s");
        const CoreRect& r = a.rect;
        if (r.width < 1 || r.height < 1 || r.x < 0 || r.y < 0 || r.x + r.width > l.usableCols ||
            r.y + r.height > l.usableRows)
            return "layer " + std::to_string(i) + "'s region " + rectText(r) + " leaves the " +
                   std::to_string(l.usableCols) + " x " + std::to_string(l.usableRows) + " mesh";
        if (l.strategy == PlacementStrategy::TensorParallel) {
            if (a.device != 0 || !(r == CoreRect{0, 0, l.usableCols, l.usableRows}))
                return "a tensor-parallel layout spreads every layer over the whole mesh of one device";
            continue;
        }
        for (int j = 0; j < i; ++j) {
            const LayoutRegion& b = l.layers[size_t(j)];
            if (b.device == a.device && b.rect.intersects(r))
                return "layers " + std::to_string(j) + " and " + std::to_string(i) + " overlap on wafer " +
                       std::to_string(a.device + 1);
        }
    }
    for (const std::vector<int>* list : {&l.embeddingLayers, &l.headLayers}) {
        std::vector<int> sorted = *list;
        std::sort(sorted.begin(), sorted.end());
        if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
            return "a table lists one layer region twice";
        for (int layer : sorted)
            if (layer < 0 || layer >= n)
                return "a table is on layer " + std::to_string(layer) + ", which the layout does not have";
    }
    return {};
}

Expected<Placement> placeLayout(const ModelConfig& model, const HardwareSpec& hw, const Layout& l)
{
    if (std::string why = layoutMismatch(l, model, hw); !why.empty())
        return makeError(ErrorCode::InvalidArgument, why, "layout");
    if (std::string why = layoutGeometryError(l); !why.empty())
        return makeError(ErrorCode::InvalidArgument, why, "layout");
    const PlacementOptions options = optionsOf(l);
    if (l.strategy == PlacementStrategy::TensorParallel)
        return placeModel(model, hw.wafer, options);
    const LayerFactory factory(model, hw.wafer, options);
    Placement p = factory.skeleton();
    p.deviceCount = l.deviceCount;
    p.layersPerDevice.assign(size_t(l.deviceCount), 0);
    // Regions by device, then layer (Placement::deviceRegions relies on it).
    std::vector<int> order(l.layers.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = int(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return l.layers[size_t(a)].device < l.layers[size_t(b)].device; });
    std::vector<int> regionOf(l.layers.size());
    for (int layer : order) {
        const LayoutRegion& r = l.layers[size_t(layer)];
        regionOf[size_t(layer)] = int(p.regions.size());
        p.regions.push_back(factory.layerRegion(layer, r.device, r.rect));
        ++p.layersPerDevice[size_t(r.device)];
    }
    auto regions = [&](const std::vector<int>& layers) {
        std::vector<int> ids;
        for (int layer : layers)
            ids.push_back(regionOf[size_t(layer)]);
        return ids;
    };
    factory.addTables(p, regions(l.embeddingLayers), regions(l.headLayers));
    p.notes = l.notes;
    return p;
}

std::vector<RegionOverflow> overCapacity(const Placement& p)
{
    std::vector<RegionOverflow> out;
    for (const PlacedRegion& r : p.regions) {
        const int64_t used = regionMaxCoreBytes(r, p.programBytesPerCore);
        if (used > p.sramBytesPerCore)
            out.push_back({r.layer, r.device, used, used - p.sramBytesPerCore});
    }
    return out;
}

int64_t coreOverflowBytes(const Placement& p, int device, int x, int y)
{
    return std::max<int64_t>(0, p.coreBytes(device, x, y).used() - p.sramBytesPerCore);
}

std::string conservationError(const Placement& p, const ModelConfig& model)
{
    const ModelShape shape(model);
    // (layer, kind, vector) -> expected bytes, and the row slices of matrices.
    using Key = std::tuple<int, int, bool>;
    std::map<Key, int64_t> expected;
    std::map<Key, int64_t> placed;
    std::map<Key, std::vector<std::pair<int64_t, int64_t>>> slices;
    std::map<Key, int64_t> rows;
    for (int l = -1; l < model.layers; ++l)
        for (const TensorShape* t : shape.layerTensors(l)) {
            const RegionTensor whole = regionTensor(*t, p.precisions.of(t->kind, l));
            const Key k{l, int(t->kind), whole.vector};
            expected[k] += whole.bytes();
            if (!whole.vector)
                rows[k] += whole.rows;
        }
    int64_t total = 0;
    for (const PlacedRegion& r : p.regions) {
        if (r.rect.width < 1 || r.rect.height < 1)
            return "an empty region holds tensors";
        for (const RegionTensor& t : r.tensors) {
            const Key k{t.layer, int(t.kind), t.vector};
            placed[k] += t.bytes();
            total += t.bytes();
            if (t.vector)
                continue;
            slices[k].push_back({t.rowOffset, t.rowOffset + t.rows});
            const TileGrid g = tileGrid(t, r.rect);
            const int64_t inLines = t.inputAlongY ? r.rect.height : r.rect.width;
            if (g.inParts * g.fold > inLines)
                return std::string(tensorKindId(t.kind)) + " of layer " + std::to_string(t.layer) +
                       ": its tile grid needs more lines of cores than the region has";
        }
    }
    for (const auto& [k, bytes] : expected) {
        const std::string name =
            std::string(tensorKindId(TensorKind(std::get<1>(k)))) + " of layer " + std::to_string(std::get<0>(k));
        if (placed[k] != bytes)
            return name + ": " + std::to_string(placed[k]) + " bytes placed of " + std::to_string(bytes);
        if (std::get<2>(k))
            continue;
        auto s = slices[k];
        std::sort(s.begin(), s.end());
        int64_t next = 0;
        for (const auto& [begin, end] : s) {
            if (begin != next)
                return name + ": rows " + std::to_string(next) + " to " + std::to_string(begin) +
                       " are placed other than once";
            next = end;
        }
        if (next != rows[k])
            return name + ": " + std::to_string(next) + " of " + std::to_string(rows[k]) + " rows placed";
    }
    if (total != p.modelWeightBytes)
        return std::to_string(total) + " weight bytes placed of the model's " + std::to_string(p.modelWeightBytes);
    return {};
}

} // namespace ws
