#include "engine/wafer/mesh/meshplayback.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ws {

namespace {

constexpr size_t kMaxBuckets = 4096;
constexpr double kBucketCycles = 16;
// Forwarding at its brightest: the top of the forwarding ramp, below the computing ramp that starts at 0.5.
constexpr float kForwardGlow = 0.49f;

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
    if (!(m_run->totalCycles > 0))
        return;
    const auto& events = m_run->fabric->events();
    const size_t cores = m_run->fabric->cores().size();
    // Compute events by core (counting sort), each core's by start.
    m_computeOffsets.assign(cores + 1, 0);
    for (const MeshEvent& e : events)
        if (e.kind == MeshEventKind::Compute)
            ++m_computeOffsets[size_t(e.core) + 1];
    for (size_t c = 0; c < cores; ++c)
        m_computeOffsets[c + 1] += m_computeOffsets[c];
    m_compute.resize(m_computeOffsets[cores]);
    std::vector<size_t> next(m_computeOffsets.begin(), m_computeOffsets.end() - 1);
    for (size_t i = 0; i < events.size(); ++i)
        if (events[i].kind == MeshEventKind::Compute)
            m_compute[next[size_t(events[i].core)]++] = int(i);
    for (size_t c = 0; c < cores; ++c)
        std::stable_sort(m_compute.begin() + long(m_computeOffsets[c]),
                         m_compute.begin() + long(m_computeOffsets[c + 1]),
                         [&](int a, int b) { return events[size_t(a)].start < events[size_t(b)].start; });
    // Messages in buckets of kBucketCycles or more.
    m_bucketCycles = std::max(kBucketCycles, m_run->totalCycles / double(kMaxBuckets));
    m_buckets.resize(size_t(std::ceil(m_run->totalCycles / m_bucketCycles)) + 1);
    const auto bucketOf = [&](double cycle) {
        return std::min(m_buckets.size() - 1, size_t(std::max(0.0, cycle / m_bucketCycles)));
    };
    for (size_t i = 0; i < events.size(); ++i) {
        const MeshEvent& e = events[i];
        if (e.kind == MeshEventKind::Compute || e.kind == MeshEventKind::WaferLink) // wafer links: the hop arrow
            continue;
        for (size_t b = bucketOf(e.start), last = bucketOf(e.end); b <= last; ++b)
            m_buckets[b].push_back(int(i));
    }
}

void MeshPlayback::fillGlow(int meshCols, int meshRows, const DataflowFrameOptions& o, std::vector<float>& out) const
{
    const size_t cells = size_t(std::max(0, meshCols)) * size_t(std::max(0, meshRows));
    out.assign(cells, 0.0f);
    if (cells == 0 || m_buckets.empty() || !m_run || !m_run->fabric)
        return;
    const double total = m_run->totalCycles;
    double t = std::fmod(o.cycle, total);
    if (t < 0)
        t += total;
    const double trail = std::max(0.0, o.trailCycles);
    const double from = t - trail;
    const auto& events = m_run->fabric->events();
    const auto& cores = m_run->fabric->cores();
    const double hopCycles = std::max(1e-9, m_run->fabric->params().hopCycles);
    const bool all = o.device == DataflowFrameOptions::allDevices;
    const auto weightOf = [&](const MeshEvent& e) {
        return e.end >= t || trail <= 0 ? 1.0f : float(1.0 - (t - e.end) / trail);
    };
    const auto put = [&](int x, int y, float v) {
        if (x < 0 || y < 0 || x >= meshCols || y >= meshRows)
            return;
        float& cell = out[size_t(y) * size_t(meshCols) + size_t(x)];
        cell = std::max(cell, v);
    };
    // `count` cells from (x, y) along x (stride 1) or along y (stride meshCols), each raised to v.
    const auto fillRun = [&](int x, int y, int count, int stride, float v) {
        int first = 0, last = count; // [first, last) of the run inside the mesh
        if (stride == 1) {
            if (y < 0 || y >= meshRows)
                return;
            first = std::max(0, -x);
            last = std::min(count, meshCols - x);
        } else {
            if (x < 0 || x >= meshCols)
                return;
            first = std::max(0, -y);
            last = std::min(count, meshRows - y);
        }
        if (first >= last)
            return;
        float* cell = out.data() + (ptrdiff_t(y) * meshCols + x + ptrdiff_t(first) * stride);
        for (int i = first; i < last; ++i, cell += stride)
            *cell = std::max(*cell, v);
    };
    // Each core's latest compute event that started by t (its earlier ones ended before it started).
    for (size_t c = 0; c + 1 < m_computeOffsets.size(); ++c) {
        const MeshCore& core = cores[c];
        if (!all && core.device != o.device)
            continue;
        const auto begin = m_compute.begin() + long(m_computeOffsets[c]);
        const auto end = m_compute.begin() + long(m_computeOffsets[c + 1]);
        auto it = std::upper_bound(begin, end, t, [&](double time, int e) { return time < events[size_t(e)].start; });
        if (it == begin)
            continue;
        const MeshEvent& e = events[size_t(*(it - 1))];
        if (e.end >= from)
            put(core.x, core.y, 0.5f + 0.5f * weightOf(e));
    }
    // Messages: the cores each one's head has passed (hopCycles a router, then the words stream in).
    const size_t first = size_t(std::max(0.0, from / m_bucketCycles));
    const size_t last = std::min(m_buckets.size() - 1, size_t(t / m_bucketCycles));
    for (size_t b = first; b <= last; ++b) {
        for (int i : m_buckets[b]) {
            const MeshEvent& e = events[size_t(i)];
            // Each message once: in the first bucket of the window that lists it.
            if (b != std::max(size_t(std::max(0.0, e.start / m_bucketCycles)), first))
                continue;
            if (e.start > t || e.end < from)
                continue;
            const MeshCore& a = cores[size_t(e.core)];
            if (!all && a.device != o.device)
                continue;
            const MeshCore& z = cores[size_t(e.toCore)];
            const int dx = std::abs(z.x - a.x), dy = std::abs(z.y - a.y);
            const int passed = std::min(dx + dy, int((t - e.start) / hopCycles));
            const float v = kForwardGlow * weightOf(e);
            // The head's path so far as two runs of cells: along x on the source's row, then along y on the
            // destination's column (a run's cells written in one tight loop, clipped to the mesh).
            const int nx = std::min(passed, dx);
            const int x0 = std::min(a.x, a.x + (z.x >= a.x ? nx : -nx));
            fillRun(x0, a.y, nx + 1, 1, v);
            const int ny = passed - nx;
            if (ny > 0)
                fillRun(z.x, z.y >= a.y ? a.y + 1 : a.y - ny, ny, meshCols, v);
        }
    }
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
