#include "engine/wafer/dataflow/schedule.h"

#include "engine/wafer/dataflow/schedulepipeline.h"

#include <algorithm>
#include <cmath>

namespace ws {

double TokenSchedule::totalMacs() const
{
    double s = 0;
    for (double m : macsByKind)
        s += m;
    return s;
}

namespace {

// The layer's experts have rectangles of their own (spanWafers: a layer spread over wafers).
bool hasPlacedExperts(const ScheduleRegions& layout, int l, const LayerDims& dims)
{
    return size_t(l) < layout.expertRegions.size() &&
           int(layout.expertRegions[size_t(l)].size()) >= dims.expertCount + dims.sharedExperts;
}

class Builder
{
public:
    Builder(const TimingModel& timing, TokenSchedule& out) : m_timing(timing), m_out(out) {}

    // A local compute part followed by `reductions` allreduces along `axis` of `rect`. Inlined into the layer loop:
    // as a call it costs every schedule about 4 % more instructions (callgrind).
    [[gnu::always_inline]] Phase& work(const PhaseWork& w, int layer, const RegionRef& region, const CoreRect& rect,
                                       bool concurrent)
    {
        Phase p;
        p.kind = w.kind;
        p.layer = layer;
        p.device = region.device;
        p.rect = rect;
        p.axis = w.payloadValues > 0 ? w.axis : ReduceAxis::None;
        p.computes = true;
        p.concurrent = concurrent;
        p.startCycle = concurrent ? m_lastStart : m_now;
        p.macsPerCore = w.macsPerCore;
        p.totalMacs = w.totalMacs; // the caller splits totals over parallel experts
        p.computeEndCycle = p.startCycle + m_timing.macCycles(w.macsPerCore + w.elementOpsPerCore);
        p.endCycle = p.computeEndCycle;
        if (p.axis != ReduceAxis::None) {
            const int line = p.axis == ReduceAxis::Y ? rect.height : rect.width;
            p.reductions = std::max(1, w.reductions);
            p.reduce = m_timing.allreduce(line, m_timing.wavelets(w.payloadValues));
            p.endCycle += p.reductions * p.reduce.totalCycles();
        }
        return push(std::move(p));
    }

    // Data moving between two rectangles; the cores between only forward.
    Phase& hop(PhaseKind kind, int layer, const RegionRef& from, const RegionRef& to, double payloadValues,
               double extraCycles = 0)
    {
        Phase p;
        p.kind = kind;
        p.layer = layer;
        p.device = from.device;
        p.toDevice = to.device;
        p.toRect = to.rect;
        p.computes = false;
        p.startCycle = m_now;
        // Each row (or column) of the source sends its slice over its own link.
        const int links = std::max(1, std::min(from.rect.height, to.rect.height));
        const int perLink = m_timing.wavelets(payloadValues / links);
        double cycles = 0;
        double fixed = 0; // the same hop with no payload and no link serialisation (TokenSchedule::fixedHopCycles)
        if (from.device == to.device) {
            const double dist =
                std::abs(centreX(from.rect) - centreX(to.rect)) + std::abs(centreY(from.rect) - centreY(to.rect));
            cycles = m_timing.hopCycles(dist, perLink);
            fixed = m_timing.hopCycles(dist, 0);
            const int x0 = int(std::min(centreX(from.rect), centreX(to.rect)));
            const int y0 = int(std::min(centreY(from.rect), centreY(to.rect)));
            const int x1 = int(std::max(centreX(from.rect), centreX(to.rect)));
            const int y1 = int(std::max(centreY(from.rect), centreY(to.rect)));
            p.rect = {x0, y0, std::max(1, x1 - x0 + 1), std::max(1, y1 - y0 + 1)};
        } else {
            const double bytes = payloadValues * m_timing.params().activationBytes;
            const double edgeFrom = m_meshCols - centreX(from.rect);
            const double edgeTo = centreX(to.rect);
            cycles = m_timing.interWaferSeconds(std::max(0.0, edgeFrom) + std::max(0.0, edgeTo), bytes) *
                     m_timing.params().clockHz;
            fixed = m_timing.interWaferSeconds(std::max(0.0, edgeFrom) + std::max(0.0, edgeTo), 0) *
                    m_timing.params().clockHz;
            const int x0 = int(centreX(from.rect));
            p.rect = {x0, int(centreY(from.rect)), std::max(1, m_meshCols - x0), 1};
        }
        p.computeEndCycle = p.startCycle;
        p.endCycle = p.startCycle + cycles + extraCycles;
        return push(std::move(p), fixed + extraCycles);
    }

    void setMeshCols(int cols) { m_meshCols = cols; }

private:
    Phase& push(Phase p, double fixedHopCycles = 0)
    {
        const auto k = size_t(p.kind);
        // The pass with fixed latencies alone on a clock of its own, started as this phase: the same, less its
        // compute and payload (each all-reduce as AllreduceTiming::totalCycles() adds it up, less its payload).
        const double fixedStart = p.concurrent ? m_fixedLastStart : m_fixedNow;
        const double fixed = p.computes ? p.reductions * (p.reduce.fixedCycles + p.reduce.phase1Cycles +
                                                          p.reduce.phase2Cycles + p.reduce.broadcastCycles)
                                        : fixedHopCycles;
        m_fixedLastStart = fixedStart;
        m_fixedEnd = std::max(m_fixedEnd, fixedStart + fixed);
        m_lastStart = p.startCycle;
        m_end = std::max(m_end, p.endCycle);
        if (!p.concurrent) {
            const double d = p.endCycle - p.startCycle;
            m_out.cyclesByKind[k] += d;
            if (p.computes) {
                m_out.computeCycles += p.computeEndCycle - p.startCycle;
                m_out.reduceCycles += p.endCycle - p.computeEndCycle;
                m_out.kernelCycles += (p.computeEndCycle - p.startCycle) +
                                      p.reductions * (p.reduce.fixedCycles + p.reduce.stages * p.reduce.stageCycles);
                m_out.fixedReduceCycles += fixed;
            } else {
                m_out.hopCycles += d;
                m_out.fixedHopCycles += fixed;
                if (p.device == p.toDevice) // a hop on the wafer passes one routing stage (TimingModel::hopCycles)
                    m_out.kernelCycles += m_timing.params().routingStageCycles;
            }
            m_now = p.endCycle;
            m_fixedNow = fixedStart + fixed;
        }
        m_out.macsByKind[k] += p.totalMacs;
        if (!m_keep) {
            m_scratch = std::move(p);
            return m_scratch;
        }
        m_out.phases.push_back(std::move(p));
        return m_out.phases.back();
    }

public:
    double now() const { return m_now; }
    double end() const { return m_end; }
    double fixedNow() const { return m_fixedNow; }
    double fixedEnd() const { return m_fixedEnd; }
    void keepPhases(bool keep) { m_keep = keep; }
    // Replays a recorded layer: adds its totals and moves both clocks on (timing only).
    void advance(double cycles, double fixedCycles)
    {
        m_now += cycles;
        m_end = std::max(m_end, m_now);
        m_fixedNow += fixedCycles;
        m_fixedEnd = std::max(m_fixedEnd, m_fixedNow);
    }

private:
    const TimingModel& m_timing;
    TokenSchedule& m_out;
    double m_now = 0;
    double m_end = 0;
    double m_lastStart = 0;
    double m_fixedNow = 0; // the fixed latencies' clock (TokenSchedule::fixedCycles)
    double m_fixedEnd = 0;
    double m_fixedLastStart = 0;
    bool m_keep = true;
    Phase m_scratch;
    int m_meshCols = 0;
};

} // namespace

TokenSchedule buildTokenSchedule(const ModelConfig& model, const ScheduleRegions& layout, const TimingModel& timing,
                                 const ScheduleOptions& options)
{
    TokenSchedule s;
    s.clockHz = timing.params().clockHz;
    const int nLayers = int(layout.layers.size());
    s.phases.reserve(size_t(nLayers) * 16 + 8);
    Builder b(timing, s);
    b.setMeshCols(layout.meshCols);
    b.keepPhases(!options.timingOnly);
    const int t = std::max(1, options.tokens);
    const double hidden = model.hiddenSize;
    // A prefill records its stages (the embedding, each layer) to repeat them for the other chunks.
    const bool prefill = options.promptTokens > 0;
    std::vector<PipelineStage> stages;
    const auto stageBegins = [&] {
        if (prefill)
            stages.push_back({s.phases.size(), s.phases.size(), b.now(), b.now(), b.now()});
    };
    const auto stageWorkEnds = [&] {
        if (prefill)
            stages.back().endCycle = stages.back().hopEndCycle = b.now();
    };
    const auto stageHopEnds = [&] {
        if (prefill) {
            stages.back().hopEndCycle = b.now();
            stages.back().endPhase = s.phases.size();
        }
    };

    if (!options.layersOnly && nLayers > 0) {
        // Embedding: each row of the embedding region reads its slice of the row, then sends it to layer 0.
        PhaseWork embed{PhaseKind::Embedding,
                        ReduceAxis::None,
                        0,
                        t * std::ceil(hidden / std::max(1, layout.embedding.rect.height)),
                        0,
                        0};
        stageBegins();
        b.work(embed, -1, layout.embedding, layout.embedding.rect, false);
        stageWorkEnds();
        b.hop(PhaseKind::LayerHop, -1, layout.embedding, layout.layers[0], t * hidden);
        stageHopEnds();
    }

    // Timing only: layers with the same region size, kind and KV length take the same time; replay them.
    struct LayerTotals
    {
        int width, height;
        bool moe;
        int64_t kvTokens;
        std::array<double, size_t(PhaseKind::Count)> cycles, macs;
        double compute, reduce, hop, kernel, fixedReduce, fixedHop, duration, fixedDuration;
    };
    std::vector<LayerTotals> memo;
    for (int l = 0; l < nLayers; ++l) {
        const RegionRef& region = layout.layers[size_t(l)];
        const CoreRect& r = region.rect;
        const bool moe = model.isMoeLayer(l);
        const int64_t kvTokens = model.kvTokens(l, options.context);
        const LayerDims dims = LayerDims::fromModel(model, l);
        // A MoE layer's experts cut across its region (ExpertLayout::Sliced) take the same time whichever are
        // active; in blocks (or on rectangles of their own) they are timed each: the active experts, and so the
        // dispatch distance, differ per layer.
        const bool sliced = moe && layout.experts == ExpertLayout::Sliced && !hasPlacedExperts(layout, l, dims);
        const bool ownExperts = moe && !sliced;
        const LayerTotals* hit = nullptr;
        if (options.timingOnly && !ownExperts)
            for (const LayerTotals& m : memo)
                if (m.width == r.width && m.height == r.height && m.moe == moe && m.kvTokens == kvTokens)
                    hit = &m;
        const TokenSchedule before = options.timingOnly && !hit ? s : TokenSchedule{};
        const double layerStart = b.now();
        const double fixedLayerStart = b.fixedNow();
        stageBegins();
        if (hit) {
            for (size_t k = 0; k < hit->cycles.size(); ++k) {
                s.cyclesByKind[k] += hit->cycles[k];
                s.macsByKind[k] += hit->macs[k];
            }
            s.computeCycles += hit->compute;
            s.reduceCycles += hit->reduce;
            s.hopCycles += hit->hop;
            s.kernelCycles += hit->kernel;
            s.fixedReduceCycles += hit->fixedReduce;
            s.fixedHopCycles += hit->fixedHop;
            b.advance(hit->duration, hit->fixedDuration);
        } else {
            for (const PhaseWork& w :
                 attentionWork(dims, r.width, r.height, t, model.kvTokens(l, options.context), options.kv)) {
                if (w.kind == PhaseKind::KvShift) {
                    // Every row passes its oldest slice up one row, all in parallel: alpha + payload.
                    Phase& p = b.hop(PhaseKind::KvShift, l, region, region, 0,
                                     timing.params().hopCycles + timing.wavelets(w.payloadValues));
                    p.rect = r;
                    p.toRect = r;
                    continue;
                }
                b.work(w, l, region, r, false);
            }
            if (!dims.isMoe()) {
                for (const PhaseWork& w : ffnWork(dims, r.width, r.height, t, r.width, r.height))
                    b.work(w, l, region, r, false);
            } else if (sliced) {
                for (const PhaseWork& w : slicedExpertWork(dims, r.width, r.height, t))
                    b.work(w, l, region, r, false);
            } else {
                const int totalExperts = dims.expertCount + dims.sharedExperts;
                // The placement's tiles, else expertTiles' (only the active ones are read).
                const std::vector<RegionRef>* placed =
                    hasPlacedExperts(layout, l, dims) ? &layout.expertRegions[size_t(l)] : nullptr;
                const ExpertGrid grid = expertGrid(r, totalExperts);
                auto tile = [&](int e) {
                    return placed ? (*placed)[size_t(e)] : RegionRef{region.device, grid.tile(e)};
                };
                std::vector<int> active = activeExperts(options.tokenIndex, l, dims.expertCount, dims.expertsPerToken);
                if (size_t(l) < options.routedExperts.size() && !options.routedExperts[size_t(l)].empty() &&
                    std::all_of(options.routedExperts[size_t(l)].begin(), options.routedExperts[size_t(l)].end(),
                                [&](int e) { return e >= 0 && e < dims.expertCount; }))
                    active = options.routedExperts[size_t(l)];
                for (int e = 0; e < dims.sharedExperts; ++e)
                    active.push_back(dims.expertCount + e);
                // Dispatch and combine wait for the farthest active expert (another wafer, if any).
                RegionRef farthest = tile(active.front());
                for (int e : active)
                    if (const RegionRef t0 = tile(e); t0.device != region.device)
                        farthest = t0;
                for (const PhaseWork& w :
                     ffnWork(dims, r.width, r.height, t, farthest.rect.width, farthest.rect.height)) {
                    if (w.kind == PhaseKind::MoeDispatch || w.kind == PhaseKind::MoeCombine) {
                        Phase& p = w.kind == PhaseKind::MoeDispatch
                                       ? b.hop(w.kind, l, region, farthest, w.payloadValues)
                                       : b.hop(w.kind, l, farthest, region, w.payloadValues);
                        if (farthest.device == region.device)
                            p.rect = r;
                        continue;
                    }
                    if (!w.onExperts) {
                        b.work(w, l, region, r, false);
                        continue;
                    }
                    PhaseWork each = w;
                    each.totalMacs = w.totalMacs / double(active.size());
                    for (size_t i = 0; i < active.size(); ++i) {
                        const RegionRef t0 = tile(active[i]);
                        b.work(each, l, t0, t0.rect, i > 0);
                    }
                }
            }
            if (options.timingOnly && !ownExperts) {
                LayerTotals m{r.width,
                              r.height,
                              moe,
                              kvTokens,
                              {},
                              {},
                              0,
                              0,
                              0,
                              0,
                              0,
                              0,
                              b.now() - layerStart,
                              b.fixedNow() - fixedLayerStart};
                for (size_t k = 0; k < m.cycles.size(); ++k) {
                    m.cycles[k] = s.cyclesByKind[k] - before.cyclesByKind[k];
                    m.macs[k] = s.macsByKind[k] - before.macsByKind[k];
                }
                m.compute = s.computeCycles - before.computeCycles;
                m.reduce = s.reduceCycles - before.reduceCycles;
                m.hop = s.hopCycles - before.hopCycles;
                m.kernel = s.kernelCycles - before.kernelCycles;
                m.fixedReduce = s.fixedReduceCycles - before.fixedReduceCycles;
                m.fixedHop = s.fixedHopCycles - before.fixedHopCycles;
                memo.push_back(m);
            }
        }
        s.slowestLayerCycles = std::max(s.slowestLayerCycles, b.now() - layerStart);
        stageWorkEnds();
        if (!options.layersOnly && l + 1 < nLayers) {
            const RegionRef& next = layout.layers[size_t(l + 1)];
            b.hop(next.device == region.device ? PhaseKind::LayerHop : PhaseKind::WaferHop, l, region, next,
                  t * hidden);
        }
        stageHopEnds();
    }
    const size_t tailPhase = s.phases.size(); // the hop to the LM head and the token: after the last chunk

    if (!options.layersOnly && nLayers > 0) {
        const RegionRef& last = layout.layers.back();
        b.hop(last.device == layout.lmHead.device ? PhaseKind::LayerHop : PhaseKind::WaferHop, nLayers - 1, last,
              layout.lmHead, t * hidden);
        const CoreRect& h = layout.lmHead.rect;
        const double dY = std::ceil(hidden / std::max(1, h.height));
        const double vocab = layout.lmHeadVocabRows > 0 ? double(layout.lmHeadVocabRows) : double(model.vocabSize);
        const double vX = std::ceil(vocab / std::max(1, h.width));
        b.work({PhaseKind::FinalNorm, ReduceAxis::Y, 0, t * 2 * dY, 0, double(t)}, -1, layout.lmHead, h, false);
        b.work({PhaseKind::LmHead, ReduceAxis::Y, t * dY * vX, 0, t * hidden * vocab, t * vX}, -1, layout.lmHead, h,
               false);
        // Local max over the vocabulary slice, then a (value, index) allreduce along x.
        b.work({PhaseKind::Argmax, ReduceAxis::X, 0, t * vX, 0, t * 2.0}, -1, layout.lmHead, h, false);
        b.hop(PhaseKind::TokenFeedback, -1, layout.lmHead, layout.embedding, double(t));
    }
    // Phases were pushed in start order (parallel experts share the start of the first).
    s.totalCycles = s.passCycles = b.end();
    if (b.end() != b.now())
        s.kernelCycles = -1;
    s.fixedCycles = b.fixedEnd();
    if (prefill && !stages.empty())
        pipelineChunks(s, stages, tailPhase, options.promptTokens, t, !options.timingOnly);
    return s;
}

} // namespace ws
