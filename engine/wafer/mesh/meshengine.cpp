#include "engine/wafer/mesh/meshengine.h"

#include "engine/core/sumof.h"
#include "engine/wafer/dataflow/scheduleregions.h"
#include "engine/wafer/mesh/meshallreduce.h"
#include "engine/wafer/mesh/meshregion.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <tuple>

namespace ws {

TrafficStats MeshRun::traffic() const
{
    return sumOf(phases, &MeshPhase::traffic);
}

double MeshRun::closedFormCycles() const
{
    return sumOf(phases, &MeshPhase::closedFormCycles);
}

namespace {

class TokenRun
{
public:
    TokenRun(const Placement& p, const ModelConfig& m, const MeshParams& params, const MeshOptions& o)
        : m_placement(p), m_model(m), m_params(params), m_options(o), m_fabric(std::make_shared<MeshFabric>(params))
    {
        m_fabric->setMesh(p.fabricCols, p.fabricRows);
        m_regions = scheduleRegionsFromPlacement(p);
    }

    Expected<MeshRun> run();

private:
    // tiles false: only the cores (a hop's destination when only the layer before it runs).
    MeshRegionCores& region(const RegionRef& r, int layer, bool tiles = true);
    Ready& ready(int core)
    {
        if (m_ready.size() <= size_t(core))
            m_ready.resize(m_fabric->cores().size() + 1024);
        return m_ready[size_t(core)];
    }
    void execute(const Phase& p);
    void element(const MeshRegionCores& r, const std::function<double(int)>& ops);
    void gemv(const MeshRegionCores& r, std::initializer_list<TensorKind> kinds);
    void reduceLines(const MeshRegionCores& r, const std::vector<MeshLine>& lines, double fixedValues);
    ReduceLine toCores(const MeshRegionCores& r, const std::vector<int>& members, double values) const;
    void allreduce(const std::vector<ReduceLine>& lines);
    void hop(const RegionRef& from, int fromLayer, const RegionRef& to, int toLayer, double values, bool spread);
    int64_t contextOfRow(const MeshRegionCores& r, int position) const;

    const Placement& m_placement;
    const ModelConfig& m_model;
    MeshParams m_params;
    MeshOptions m_options;
    std::shared_ptr<MeshFabric> m_fabric;
    ScheduleRegions m_regions;
    std::map<std::tuple<int, int, int, int, int, int>, MeshRegionCores> m_cache;
    std::vector<Ready> m_ready; // per fabric core: when its input for the next phase is there
    int64_t m_context = 1;      // cached tokens of the layer being run
};

MeshRegionCores& TokenRun::region(const RegionRef& r, int layer, bool tiles)
{
    const auto key = std::make_tuple(r.device, r.rect.x, r.rect.y, r.rect.width, r.rect.height, layer);
    auto it = m_cache.find(key);
    if (it == m_cache.end())
        it = m_cache.emplace(key, MeshRegionCores::read(m_placement, r, layer, *m_fabric, tiles)).first;
    else if (tiles && !it->second.hasTiles)
        it->second = MeshRegionCores::read(m_placement, r, layer, *m_fabric, true);
    return it->second;
}

void TokenRun::element(const MeshRegionCores& r, const std::function<double(int)>& ops)
{
    for (size_t i = 0; i < r.cores.size(); ++i) {
        const double n = ops(int(i));
        if (n > 0)
            ready(r.cores[i]) = m_fabric->compute(r.cores[i], ready(r.cores[i]), m_params.elementCycles(n));
    }
}

void TokenRun::gemv(const MeshRegionCores& r, std::initializer_list<TensorKind> kinds)
{
    for (size_t i = 0; i < r.cores.size(); ++i) {
        double macs = 0, bytes = 0;
        r.work(int(i), kinds, macs, bytes);
        if (macs > 0)
            ready(r.cores[i]) =
                m_fabric->compute(r.cores[i], ready(r.cores[i]), m_params.gemvCycles(macs, bytes), macs);
    }
    reduceLines(r, r.matrixLines(kinds), 0);
}

// Every line reduced; fixedValues > 0 replaces the lines' own payloads (a norm's one sum of squares).
void TokenRun::reduceLines(const MeshRegionCores& r, const std::vector<MeshLine>& lines, double fixedValues)
{
    std::vector<ReduceLine> reduce;
    reduce.reserve(lines.size());
    for (const MeshLine& line : lines)
        reduce.push_back(toCores(r, line.members, fixedValues > 0 ? fixedValues : line.payloadValues));
    allreduce(reduce);
}

ReduceLine TokenRun::toCores(const MeshRegionCores& r, const std::vector<int>& members, double values) const
{
    ReduceLine line;
    line.cores.reserve(members.size());
    for (int m : members)
        line.cores.push_back(r.cores[size_t(m)]);
    line.words = m_params.words(values);
    return line;
}

void TokenRun::allreduce(const std::vector<ReduceLine>& lines)
{
    if (m_ready.size() < m_fabric->cores().size())
        m_ready.resize(m_fabric->cores().size());
    allreduceLines(*m_fabric, m_ready, lines);
}

// The hidden state (a slice per row of cores, replicated along the row) moves to the next region: each row's
// slice leaves from the core of the row nearest the destination as soon as that core has it, travels to the
// corresponding row of the destination and is multicast along that row (spread), so every core there has its
// slice. Regions one above the other use one lane per row too, each lane from its own column.
void TokenRun::hop(const RegionRef& from, int fromLayer, const RegionRef& to, int toLayer, double values, bool spread)
{
    MeshRegionCores& a = region(from, fromLayer, false);
    MeshRegionCores& b = region(to, toLayer, false);
    const CoreRect& ra = a.rect;
    const CoreRect& rb = b.rect;
    const bool same = from.device == to.device && ra == rb; // tied tables: the token id stays in its region
    const bool east = from.device != to.device || centreX(rb) >= centreX(ra);
    const bool vertical =
        from.device == to.device && std::abs(centreY(ra) - centreY(rb)) > std::abs(centreX(ra) - centreX(rb));
    const int lanes = std::max(1, std::min(ra.height, rb.height));
    const double words = m_params.words(values / lanes);
    for (int i = 0; i < lanes; ++i) {
        const int ay = i * ra.height / lanes, by = i * rb.height / lanes;
        const int ax = vertical ? i % ra.width : (east ? ra.width - 1 : 0);
        const int bx = same ? ax : vertical ? std::min(ax, rb.width - 1) : (east ? 0 : rb.width - 1);
        const int src = a.cores[size_t(ay * ra.width + ax)];
        const int dst = b.cores[size_t(by * rb.width + bx)];
        const MeshFabric::Delivery d =
            from.device == to.device ? m_fabric->send(src, dst, words, ready(src), MeshEventKind::Message, vertical)
                                     : m_fabric->sendAcross(src, dst, words, ready(src));
        ready(dst) = later(ready(dst), d.tail);
        m_fabric->wait(dst, d.tail.time);
        if (!spread || same) // in the same region (tensor-parallel layers) every core of the lane holds it already
            continue;
        for (int dir : {-1, 1}) {
            Ready at = d.head;
            for (int x = bx + dir; x >= 0 && x < rb.width; x += dir) {
                const int prev = b.cores[size_t(by * rb.width + x - dir)];
                const int c = b.cores[size_t(by * rb.width + x)];
                const MeshFabric::Delivery m = m_fabric->send(prev, c, words, at, MeshEventKind::Multicast);
                m_fabric->wait(c, m.tail.time);
                ready(c) = later(ready(c), m.tail);
                at = m.head;
            }
        }
    }
    // Rows of the destination beyond the lanes (a taller region) wait for the last lane.
    if (rb.height > lanes) {
        Ready last;
        for (int c : b.cores)
            last = later(last, ready(c));
        for (int c : b.cores)
            ready(c) = later(ready(c), last);
    }
}

int64_t TokenRun::contextOfRow(const MeshRegionCores& r, int position) const
{
    const int64_t y = position / r.rect.width, h = r.rect.height;
    return m_context * (y + 1) / h - m_context * y / h; // the cached tokens split over the rows (KV shift)
}

void TokenRun::execute(const Phase& p)
{
    const int nLayers = int(m_regions.layers.size());
    const double hidden = m_model.hiddenSize;
    const int headDim = std::max(1, LayerDims::fromModel(m_model, std::max(0, p.layer)).headDim);
    if (p.kind == PhaseKind::LayerHop || p.kind == PhaseKind::WaferHop) {
        if (p.layer < 0)
            hop(m_regions.embedding, -1, m_regions.layers.front(), 0, hidden, true);
        else if (p.layer + 1 < nLayers)
            hop(m_regions.layers[size_t(p.layer)], p.layer, m_regions.layers[size_t(p.layer + 1)], p.layer + 1, hidden,
                true);
        else
            hop(m_regions.layers.back(), nLayers - 1, m_regions.lmHead, -1, hidden, true);
        return;
    }
    if (p.kind == PhaseKind::TokenFeedback) {
        hop(m_regions.lmHead, -1, m_regions.embedding, -1, 1, false);
        return;
    }
    const bool table = p.layer < 0;
    MeshRegionCores& r = region(table ? (p.kind == PhaseKind::Embedding ? m_regions.embedding : m_regions.lmHead)
                                      : m_regions.layers[size_t(p.layer)],
                                p.layer);
    if (!table)
        m_context = std::max<int64_t>(1, m_model.kvTokens(p.layer, m_options.context));
    const TensorKind lm = r.holds(TensorKind::Output) ? TensorKind::Output : TensorKind::TokenEmbedding;
    auto heads = [&](int i) { return std::max<double>(1.0, double(r.rows(i, TensorKind::AttnQ)) / headDim); };
    auto kvCore = [&](int i) { return r.kvColumns[size_t(i)] > 0; };
    switch (p.kind) {
    case PhaseKind::Embedding:
        element(r, [&](int) { return std::ceil(hidden / std::max(1, r.rect.height)); });
        break;
    case PhaseKind::AttnNorm:
    case PhaseKind::FfnNorm:
        element(r, [&](int i) {
            return double(r.cols(i, TensorKind::AttnQ)) * (p.kind == PhaseKind::AttnNorm ? 1.0 : 2.0);
        });
        reduceLines(r, r.matrixLines({TensorKind::AttnQ}), 1);
        break;
    case PhaseKind::QkvGemv:
        gemv(r, {TensorKind::AttnQ, TensorKind::AttnK, TensorKind::AttnV});
        break;
    case PhaseKind::Rope:
        element(r, [&](int i) { return double(r.rows(i, TensorKind::AttnQ) + r.rows(i, TensorKind::AttnK)); });
        break;
    case PhaseKind::AttnScores:
    case PhaseKind::AttnValues: {
        for (size_t i = 0; i < r.cores.size(); ++i) {
            if (!kvCore(int(i)))
                continue;
            const double macs = double(r.rows(int(i), TensorKind::AttnQ)) * double(contextOfRow(r, int(i)));
            // Scores read the core's K columns, values its V columns: half its K|V columns, for its tokens.
            const double kvBytes = double(r.kvColumns[i]) / 2 * double(contextOfRow(r, int(i))) * r.kvBytesPerValue;
            ready(r.cores[i]) =
                m_fabric->compute(r.cores[i], ready(r.cores[i]), m_params.gemvCycles(macs, kvBytes), macs);
        }
        const bool scores = p.kind == PhaseKind::AttnScores;
        std::vector<ReduceLine> lines;
        for (const MeshLine& line : r.gridLines(scores)) {
            const int f = line.members.front();
            const double values = scores ? double(contextOfRow(r, f)) * heads(f) : double(r.rows(f, TensorKind::AttnQ));
            lines.push_back(toCores(r, line.members, values));
        }
        allreduce(lines);
        break;
    }
    case PhaseKind::Softmax:
        element(r, [&](int i) { return kvCore(i) ? 2.0 * double(contextOfRow(r, i)) * heads(i) : 0.0; });
        for (int k = 0; k < 2; ++k) { // the maximum, then the sum of exponentials
            std::vector<ReduceLine> lines;
            for (const MeshLine& line : r.gridLines(false))
                lines.push_back(toCores(r, line.members, heads(line.members.front())));
            allreduce(lines);
        }
        break;
    case PhaseKind::OutProj:
        gemv(r, {TensorKind::AttnO});
        break;
    case PhaseKind::KvShift: // every row passes its oldest slice of K|V columns one row up
        for (size_t i = size_t(r.rect.width); i < r.cores.size(); ++i)
            if (kvCore(int(i))) {
                const int up = r.cores[i - size_t(r.rect.width)];
                const auto d =
                    m_fabric->send(r.cores[i], up, m_params.words(double(r.kvColumns[i])), ready(r.cores[i]));
                m_fabric->receive(up, d.head.time, d.tail.time);
                ready(up) = later(ready(up), d.tail);
            }
        break;
    case PhaseKind::FfnGateUp:
        gemv(r, {TensorKind::FfnGate, TensorKind::FfnUp});
        break;
    case PhaseKind::FfnDown:
        gemv(r, {TensorKind::FfnDown});
        break;
    case PhaseKind::Residual:
        element(r, [&](int i) { return double(r.rows(i, TensorKind::FfnDown)); });
        break;
    case PhaseKind::FinalNorm:
        element(r, [&](int i) { return 2.0 * double(r.cols(i, lm)); });
        reduceLines(r, r.matrixLines({lm}), 1);
        break;
    case PhaseKind::LmHead:
        gemv(r, {lm});
        break;
    case PhaseKind::Argmax: // local maximum over the core's vocabulary rows, then (value, index) along the rows
        element(r, [&](int i) { return double(r.rows(i, lm)); });
        {
            std::vector<ReduceLine> lines;
            for (int y = 0; y < r.rect.height; ++y) {
                std::vector<int> row;
                for (int x = 0; x < r.rect.width; ++x)
                    if (r.rows(y * r.rect.width + x, lm) > 0)
                        row.push_back(y * r.rect.width + x);
                lines.push_back(toCores(r, row, 2));
            }
            allreduce(lines);
        }
        break;
    default:
        break;
    }
}

Expected<MeshRun> TokenRun::run()
{
    if (m_model.isMoe())
        return makeError(ErrorCode::Unsupported, "the mesh engine runs dense models only (this one has experts)");
    const int nLayers = int(m_regions.layers.size());
    if (nLayers == 0)
        return makeError(ErrorCode::InvalidArgument, "the placement has no layer regions");
    if (m_options.layer >= nLayers)
        return makeError(ErrorCode::OutOfRange, "layer " + std::to_string(m_options.layer) +
                                                    " is out of range (the model has " + std::to_string(nLayers) +
                                                    " layers)");
    ScheduleOptions so;
    so.context = std::max<int64_t>(1, m_options.context);
    so.kv = KvPlacement::Shift;
    const TokenSchedule schedule = buildTokenSchedule(m_model, m_regions, TimingModel(m_params.closedForm()), so);
    MeshRun out;
    out.clockHz = m_params.clockHz;
    out.sramBytesPerCore = m_placement.sramBytesPerCore;
    // Read the regions this run touches first, so that the fabric reserves room for their cores and events once.
    const bool whole = m_options.layer < 0;
    for (int l = 0; l < nLayers; ++l)
        if (whole || l == m_options.layer || l == m_options.layer + 1)
            region(m_regions.layers[size_t(l)], l, whole || l == m_options.layer);
    if (whole || m_options.layer + 1 == nLayers)
        region(m_regions.lmHead, -1, whole);
    double prevEnd = 0;
    for (const Phase& p : schedule.phases) {
        if (m_options.layer >= 0 && p.layer != m_options.layer)
            continue;
        const int index = int(out.phases.size());
        m_fabric->setPhase(index, p.kind);
        const size_t before = m_fabric->events().size();
        execute(p);
        double end = prevEnd;
        for (size_t i = before; i < m_fabric->events().size(); ++i)
            end = std::max(end, m_fabric->events()[i].end);
        out.phases.push_back(
            {p.kind, p.layer, end - prevEnd, p.durationCycles(), end,
             m_fabric->phaseTraffic().size() > size_t(index) ? m_fabric->phaseTraffic()[size_t(index)] : TrafficStats{},
             p});
        prevEnd = end;
    }
    out.totalCycles = prevEnd;
    for (const auto& [key, r] : m_cache)
        out.maxCoreBytes = std::max(out.maxCoreBytes, r.maxCoreBytes);
    out.criticalPath = m_fabric->criticalPath();
    out.fabric = m_fabric;
    return out;
}

} // namespace

Expected<MeshRun> executeMeshToken(const Placement& placement, const ModelConfig& model, const MeshParams& params,
                                   const MeshOptions& options)
{
    TokenRun run(placement, model, params, options);
    return run.run();
}

} // namespace ws
