#include "engine/wafer/mesh/meshplayback.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ws {

namespace {

bool isHop(PhaseKind k)
{
    return k == PhaseKind::LayerHop || k == PhaseKind::WaferHop || k == PhaseKind::TokenFeedback;
}

TokenSchedule executedSchedule(const MeshRun& run)
{
    TokenSchedule s;
    s.clockHz = run.clockHz > 0 ? run.clockHz : s.clockHz;
    s.totalCycles = run.totalCycles;
    double start = 0;
    for (const MeshPhase& mp : run.phases) {
        Phase p = mp.step;
        const double closed = p.endCycle - p.startCycle;
        const double computeShare =
            closed > 0 ? std::clamp((p.computeEndCycle - p.startCycle) / closed, 0.0, 1.0) : 1.0;
        const double end = std::max(start, mp.endCycle);
        p.startCycle = start;
        p.endCycle = end;
        p.computeEndCycle = start + computeShare * (end - start);
        p.concurrent = false; // the engine runs the phases one after another
        const size_t k = size_t(p.kind);
        if (k < s.cyclesByKind.size()) {
            s.cyclesByKind[k] += end - start;
            s.macsByKind[k] += p.totalMacs;
        }
        if (isHop(p.kind)) {
            s.hopCycles += end - start;
        } else {
            s.computeCycles += p.computeEndCycle - start;
            s.reduceCycles += end - p.computeEndCycle;
            s.slowestLayerCycles += end - start;
        }
        s.phases.push_back(p);
        start = end;
    }
    return s;
}

} // namespace

MeshPlayback::MeshPlayback(std::shared_ptr<const MeshRun> run, std::vector<MeshCoreValue> values)
    : m_run(std::move(run)), m_values(std::move(values))
{
    for (const MeshCoreValue& v : m_values)
        m_maxAbsValue = std::max(m_maxAbsValue, std::fabs(v.partialSum));
    if (!m_run)
        return;
    m_schedule = executedSchedule(*m_run);
    if (!m_run->fabric)
        return;
    {
        const auto& cores = m_run->fabric->cores();
        std::vector<double> router(cores.size(), 0.0);
        for (const MeshLink& l : m_run->fabric->links()) {
            if (l.dir > 3 || l.core < 0 || size_t(l.core) >= cores.size() || !(l.stats.words > 0))
                continue;
            const MeshCore& c = cores[size_t(l.core)];
            m_links.push_back({c.device, c.x, c.y, l.dir, float(l.stats.words)});
            router[size_t(l.core)] += l.stats.words;
        }
        for (double w : router)
            m_maxRouterWords = std::max(m_maxRouterWords, w);
    }
    m_glow = MeshGlow(*m_run->fabric, m_run->totalCycles);
}

void MeshPlayback::fillGlow(int meshCols, int meshRows, const DataflowFrameOptions& o, std::vector<float>& out) const
{
    m_glow.fill(meshCols, meshRows, o, out);
}

void MeshPlayback::fillLayer(MeshFrame& frame, MeshLayer layer, int device) const
{
    frame.hops.clear();
    frame.links.clear();
    frame.overlayTop = 0;
    const MeshSnapshot* base = frame.base.get();
    const int devices = base ? base->deviceCount : 0;
    frame.activity.resize(size_t(std::max(0, devices)));
    for (auto& a : frame.activity)
        a.clear();
    if (!base || device < 0 || device >= devices || base->meshCols <= 0 || base->meshRows <= 0)
        return;
    const int cols = base->meshCols, rows = base->meshRows;
    std::vector<float>& out = frame.activity[size_t(device)];
    const auto index = [&](int x, int y) {
        return x < 0 || y < 0 || x >= cols || y >= rows ? size_t(-1) : size_t(y) * size_t(cols) + size_t(x);
    };
    if (layer == MeshLayer::Links) {
        out.assign(size_t(cols) * size_t(rows), 0.0f);
        frame.overlayTop = m_maxRouterWords;
        const float inverse = m_maxRouterWords > 0 ? float(1.0 / m_maxRouterWords) : 0.0f;
        // Reserved: grown a push at a time, 137,497 links of a WSE-3 layer took 7.7 ms (the tour's Links step).
        frame.links.reserve(size_t(std::count_if(m_links.begin(), m_links.end(),
                                                 [device](const MeshLinkLoad& l) { return l.device == device; })));
        for (const MeshLinkLoad& l : m_links) {
            if (l.device != device)
                continue;
            frame.links.push_back(l);
            if (const size_t i = index(l.x, l.y); i != size_t(-1))
                out[i] += l.words * inverse;
        }
    } else if (layer == MeshLayer::Values) {
        out.assign(size_t(cols) * size_t(rows), std::numeric_limits<float>::quiet_NaN());
        frame.overlayTop = m_maxAbsValue;
        const double inverse = m_maxAbsValue > 0 ? 1.0 / m_maxAbsValue : 0.0;
        for (const MeshCoreValue& v : m_values)
            if (v.device == device)
                if (const size_t i = index(v.fabricX, v.fabricY); i != size_t(-1))
                    out[i] = float(0.5 + 0.5 * v.partialSum * inverse);
    }
}

MeshPlayback::CoreTraffic MeshPlayback::coreTraffic(int fabricCore) const
{
    CoreTraffic t;
    if (!m_run || !m_run->fabric || fabricCore < 0 || size_t(fabricCore) >= m_run->fabric->cores().size())
        return t;
    for (const MeshEvent& e : m_run->fabric->events()) {
        if (e.kind != MeshEventKind::Message && e.kind != MeshEventKind::Multicast)
            continue;
        if (e.core == fabricCore) {
            ++t.messagesOut;
            t.wordsOut += e.words;
        }
        if (e.toCore == fabricCore) {
            ++t.messagesIn;
            t.wordsIn += e.words;
        }
    }
    const MeshCore& c = m_run->fabric->cores()[size_t(fabricCore)];
    for (const MeshLinkLoad& l : m_links)
        if (l.device == c.device && l.x == c.x && l.y == c.y)
            t.routerWords += l.words;
    return t;
}

const MeshCoreValue* MeshPlayback::valueAt(int device, int x, int y) const
{
    for (const MeshCoreValue& v : m_values)
        if (v.device == device && v.fabricX == x && v.fabricY == y)
            return &v;
    return nullptr;
}

void MeshPlayback::fillFrame(MeshFrame& frame, const DataflowFrameOptions& options) const
{
    fillDataflowFrame(frame, m_schedule, options,
                      [this](int cols, int rows, const DataflowFrameOptions& one, std::vector<float>& out) {
                          fillGlow(cols, rows, one, out);
                      });
}

} // namespace ws
