#include "engine/wafer/dataflow/activity.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ws {

namespace {

// The state of each core along one reduction line of n cores, at time tau into the allreduce.
void linePattern(const AllreduceTiming& r, double tau, std::vector<CoreActivity>& line)
{
    const double alpha = r.hopCycles;
    const double beta = r.stageCycles;
    const int n = r.lineCores;
    line.assign(size_t(n), CoreActivity::Idle);
    double t = tau - r.fixedCycles;
    if (t < 0) // setup: the line's routers are being configured
        return;
    const int g = std::max(1, r.groupSize);
    const double stage1 = alpha + beta;
    if (t < r.phase1Cycles) {
        // Phase 1: the core at offset j from its group's middle fires at (g/2 - |j|) stages; show a trail of 2 stages.
        const int half = g / 2;
        for (int i = 0; i < n; ++i) {
            const int root = std::min(n - 1, (i / g) * g + half);
            const double fire = (half - std::abs(i - root)) * stage1;
            if (t >= fire && t < fire + 2 * stage1)
                line[size_t(i)] = CoreActivity::Compute;
        }
        return;
    }
    t -= r.phase1Cycles;
    if (t < r.phase2Cycles) {
        // Phase 2: group roots fire from the far groups inwards; the cores they send past only forward.
        const int groups = std::max(1, r.groupCount);
        const int mid = groups / 2;
        const double stage2 = alpha * g + beta;
        for (int q = 0; q < groups; ++q) {
            const double fire = (mid - std::abs(q - mid)) * stage2;
            if (t < fire || t >= fire + stage2)
                continue;
            const int root = std::min(n - 1, q * g + g / 2);
            const int next = std::min(n - 1, (q < mid ? q + 1 : q - 1) * g + g / 2);
            for (int i = std::min(root, next); i <= std::max(root, next); ++i)
                line[size_t(i)] = CoreActivity::Forward;
            line[size_t(root)] = CoreActivity::Compute;
        }
        return;
    }
    t -= r.phase2Cycles;
    // Broadcast (and the payload tail): the result spreads out from the global root.
    const int groups = std::max(1, r.groupCount);
    const int globalRoot = std::min(n - 1, (groups / 2) * g + g / 2);
    const double reach = alpha > 0 ? t / alpha : double(n);
    for (int i = 0; i < n; ++i)
        if (std::abs(i - globalRoot) <= reach)
            line[size_t(i)] = CoreActivity::Forward;
}

void fillRect(std::vector<CoreActivity>& out, int meshCols, int meshRows, const CoreRect& rect, CoreActivity a)
{
    const int x0 = std::clamp(rect.x, 0, meshCols);
    const int x1 = std::clamp(rect.x + rect.width, 0, meshCols);
    const int y0 = std::clamp(rect.y, 0, meshRows);
    const int y1 = std::clamp(rect.y + rect.height, 0, meshRows);
    if (x1 <= x0)
        return;
    for (int y = y0; y < y1; ++y)
        std::memset(out.data() + size_t(y) * size_t(meshCols) + size_t(x0), int(a), size_t(x1 - x0));
}

void paintPhase(const Phase& p, double t, int device, int meshCols, int meshRows, std::vector<CoreActivity>& out,
                std::vector<CoreActivity>& line)
{
    if (!p.computes) {
        if (p.device == device)
            fillRect(out, meshCols, meshRows, p.rect, CoreActivity::Forward);
        return;
    }
    if (p.device != device)
        return;
    if (t < p.computeEndCycle || p.axis == ReduceAxis::None || p.reductions == 0) {
        fillRect(out, meshCols, meshRows, p.rect, CoreActivity::Compute);
        return;
    }
    const double one = std::max(1e-9, p.reduce.totalCycles());
    const double tau = std::fmod(t - p.computeEndCycle, one);
    linePattern(p.reduce, tau, line);
    const CoreRect& r = p.rect;
    const int x0 = std::clamp(r.x, 0, meshCols);
    const int x1 = std::clamp(r.x + r.width, 0, meshCols);
    const int y0 = std::clamp(r.y, 0, meshRows);
    const int y1 = std::clamp(r.y + r.height, 0, meshRows);
    if (x1 <= x0)
        return;
    if (p.axis == ReduceAxis::Y) {
        // Lines are columns: row y of the rectangle takes the line's value at y.
        for (int y = y0; y < y1; ++y) {
            const size_t i = size_t(y - r.y);
            if (i < line.size() && line[i] != CoreActivity::Idle)
                std::memset(out.data() + size_t(y) * size_t(meshCols) + size_t(x0), int(line[i]), size_t(x1 - x0));
        }
    } else {
        // Lines are rows: every row copies the same pattern.
        const size_t skip = size_t(x0 - r.x);
        const size_t count = std::min(size_t(x1 - x0), line.size() > skip ? line.size() - skip : 0);
        for (int y = y0; y < y1; ++y)
            std::memcpy(out.data() + size_t(y) * size_t(meshCols) + size_t(x0), line.data() + skip, count);
    }
}

} // namespace

std::vector<size_t> activePhases(const TokenSchedule& s, double t)
{
    std::vector<size_t> result;
    auto it = std::upper_bound(s.phases.begin(), s.phases.end(), t,
                               [](double v, const Phase& p) { return v < p.startCycle; });
    if (it == s.phases.begin())
        return result;
    if (s.chunks > 1) {
        // A prefill's chunks overlap in time (a pipeline): every phase begun so far may still run.
        for (auto p = s.phases.begin(); p != it; ++p)
            if (p->endCycle > t)
                result.push_back(size_t(p - s.phases.begin()));
        return result;
    }
    // Sequential phases do not overlap; concurrent ones (parallel experts) share their start.
    size_t i = size_t(it - s.phases.begin()) - 1;
    const double start = s.phases[i].startCycle;
    for (;;) {
        if (s.phases[i].endCycle > t)
            result.push_back(i);
        if (i == 0 || s.phases[i - 1].startCycle != start)
            break;
        --i;
    }
    return result;
}

void fillActivity(const TokenSchedule& s, int device, int meshCols, int meshRows, double tCycles,
                  std::vector<CoreActivity>& out, int requestsInFlight)
{
    const size_t cores = size_t(std::max(0, meshCols)) * size_t(std::max(0, meshRows));
    out.resize(cores);
    std::memset(out.data(), 0, cores);
    const int inFlight = std::max(1, requestsInFlight);
    for (int r = 0; r < inFlight && s.totalCycles > 0; ++r)
        paintActivity(s, device, meshCols, meshRows, tCycles + r * s.totalCycles / inFlight, out);
}

CoreRect paintActivity(const TokenSchedule& s, int device, int meshCols, int meshRows, double tCycles,
                       std::vector<CoreActivity>& out)
{
    const size_t cores = size_t(std::max(0, meshCols)) * size_t(std::max(0, meshRows));
    if (s.totalCycles <= 0 || cores == 0 || out.size() != cores)
        return {};
    double t = std::fmod(tCycles, s.totalCycles);
    if (t < 0)
        t += s.totalCycles;
    std::vector<CoreActivity> line;
    int x0 = meshCols, y0 = meshRows, x1 = 0, y1 = 0;
    for (size_t i : activePhases(s, t)) {
        const Phase& p = s.phases[i];
        if (p.device != device) // every core a phase paints is its own device's, inside its rect
            continue;
        paintPhase(p, t, device, meshCols, meshRows, out, line);
        x0 = std::min(x0, std::max(0, p.rect.x));
        y0 = std::min(y0, std::max(0, p.rect.y));
        x1 = std::max(x1, std::min(meshCols, p.rect.x + p.rect.width));
        y1 = std::max(y1, std::min(meshRows, p.rect.y + p.rect.height));
    }
    return x1 > x0 && y1 > y0 ? CoreRect{x0, y0, x1 - x0, y1 - y0} : CoreRect{};
}

void activityToFraction(const std::vector<CoreActivity>& in, std::vector<float>& out)
{
    out.resize(in.size());
    for (size_t i = 0; i < in.size(); ++i)
        out[i] = in[i] == CoreActivity::Compute ? 1.0f : (in[i] == CoreActivity::Forward ? 0.5f : 0.0f);
}

} // namespace ws
