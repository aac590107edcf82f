#include "engine/wafer/placement/layerfactory.h"

#include "engine/wafer/placement/regiontensors.h"

#include <algorithm>

namespace ws {

LayerFactory::LayerFactory(const ModelConfig& model, const WaferSpec& wafer, const PlacementOptions& o)
    : m_shape(model), m_wafer(wafer), m_options(o)
{
    m_cols = o.usableCols > 0 ? o.usableCols : wafer.usableCols();
    m_rows = o.usableRows > 0 ? o.usableRows : wafer.usableRows();
    const Precision kvp = o.kvPrecision.value_or(o.precision == Precision::Fp32 ? Precision::Fp32 : Precision::Bf16);
    m_kvBytes = int(precisionBlock(kvp).bytes / precisionBlock(kvp).values);
    if (kvp == Precision::Int8 || kvp == Precision::Int4 || kvp == Precision::Fp4)
        m_kvBytes = 1;
    const GroupPrecisions groups = precisions();
    for (int l = 0; l < model.layers; ++l) {
        std::vector<RegionTensor> ts;
        double bytes = 0;
        for (const TensorShape* t : m_shape.layerTensors(l)) {
            RegionTensor rt = regionTensor(*t, groups.of(t->kind, l));
            bytes += double(rt.bytes());
            // Vectors of one kind (norms, biases) are concatenated into one spread.
            auto same = std::find_if(ts.begin(), ts.end(),
                                     [&](const RegionTensor& x) { return x.vector && x.kind == rt.kind; });
            if (rt.vector && same != ts.end()) {
                same->inValues += rt.inValues;
                same->inBlocks += rt.inBlocks;
                continue;
            }
            ts.push_back(rt);
        }
        m_layerTensors.push_back(std::move(ts));
        m_layerBytes.push_back(groups.uniform() ? double(m_shape.layerBytes(l, groups.attention)) : bytes);
    }
}

GroupPrecisions LayerFactory::precisions() const
{
    return m_options.groups.value_or(GroupPrecisions::all(m_options.precision));
}

Placement LayerFactory::skeleton() const
{
    Placement p;
    p.choices() = m_options.choices();
    p.precisions = precisions();
    p.precision = p.precisions.attention;
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
    if (p.precisions.uniform()) {
        p.modelWeightBytes = m_shape.totalBytes(p.precision);
    } else {
        for (int l = -1; l < m_shape.config().layers; ++l)
            for (const TensorShape* t : m_shape.layerTensors(l))
                p.modelWeightBytes += regionTensor(*t, p.precisions.of(t->kind, l)).bytes();
    }
    return p;
}

PlacedRegion LayerFactory::layerRegion(int layer, int device, const CoreRect& rect) const
{
    PlacedRegion r;
    r.device = device;
    r.rect = rect;
    r.layer = layer;
    r.tensors = m_layerTensors[size_t(layer)];
    layoutTensors(r.tensors, rect);
    r.kvTokens = m_shape.config().kvTokens(layer, m_options.contextTokens);
    r.kvColumns = m_shape.config().kvValuesPerTokenPerLayer(); // K and V, or MLA's latent and RoPE key
    r.kvBytesPerValue = m_kvBytes;
    return r;
}

bool LayerFactory::addTables(Placement& p, const std::vector<int>& entry, const std::vector<int>& exit) const
{
    const ModelConfig& c = m_shape.config();
    const GroupPrecisions groups = precisions();
    for (const TensorShape* t : m_shape.layerTensors(-1)) {
        const RegionTensor whole = regionTensor(*t, groups.of(t->kind, -1));
        if (t->isVector()) {
            // Final norm: with the LM head, in its last region.
            p.regions[size_t(exit.back())].tensors.push_back(whole);
            continue;
        }
        // The untied embedding goes where the token enters; the LM head (or the
        // tied table that serves both) where the last hidden state leaves.
        const bool atEntry = t->kind == TensorKind::TokenEmbedding && !c.tiedEmbeddings;
        const std::vector<int>& ids = atEntry ? entry : exit;
        int64_t cores = 0;
        for (int i : ids)
            cores += p.regions[size_t(i)].rect.cores();
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

} // namespace ws
