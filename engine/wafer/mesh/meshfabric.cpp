#include "engine/wafer/mesh/meshfabric.h"

#include <algorithm>
#include <vector>

namespace ws {

double MeshFabric::LinkState::reserve(double t, double cycles, int event, int& cause)
{
    // Walk back to the first reservation that ends after t, then forward through the gaps.
    int i = count;
    while (i > 0 && busy[i - 1].end > t)
        --i;
    for (; i < count; ++i) {
        if (t + cycles <= busy[i].start)
            break;
        if (busy[i].end > t) {
            t = busy[i].end;
            cause = busy[i].event;
        }
    }
    if (count == kKept) { // forget the oldest
        std::move(busy + 1, busy + count, busy);
        --count;
        i = std::max(0, i - 1);
    }
    std::move_backward(busy + i, busy + count, busy + count + 1);
    busy[i] = {t, t + cycles, event};
    ++count;
    return t;
}

void MeshFabric::setMesh(int cols, int rows, size_t expectedEvents)
{
    m_cols = cols;
    m_rows = rows;
    m_events.reserve(expectedEvents);
}

void MeshFabric::reserveCores(size_t more)
{
    constexpr size_t kEventsPerCore = 20; // about what a layer region's core takes part in per token
    auto grow = [](auto& v, size_t needed) {
        if (v.capacity() < needed)
            v.reserve(std::max(needed, 2 * v.capacity()));
    };
    grow(m_cores, m_cores.size() + more);
    grow(m_links, m_links.size() + 4 * more);
    grow(m_events, m_events.size() + kEventsPerCore * more);
}

int MeshFabric::findCore(int device, int x, int y) const
{
    if (device < 0 || size_t(device) >= m_coreOf.size() || x < 0 || y < 0 || x >= m_cols || y >= m_rows)
        return -1;
    const std::vector<int>& grid = m_coreOf[size_t(device)];
    return grid.empty() ? -1 : grid[size_t(y) * size_t(m_cols) + size_t(x)];
}

int MeshFabric::coreIndex(int device, int x, int y)
{
    if (m_coreOf.size() <= size_t(device))
        m_coreOf.resize(size_t(device) + 1);
    std::vector<int>& grid = m_coreOf[size_t(device)];
    if (grid.empty())
        grid.assign(size_t(m_cols) * size_t(m_rows), -1);
    int& index = grid[size_t(y) * size_t(m_cols) + size_t(x)];
    if (index < 0) {
        index = int(m_cores.size());
        m_cores.push_back({device, x, y, 0.0, {}, {}});
        m_links.resize(m_links.size() + 4);
    }
    return index;
}

std::vector<MeshLink> MeshFabric::links() const
{
    std::vector<MeshLink> out;
    for (size_t i = 0; i < m_links.size(); ++i)
        if (m_links[i].messages > 0)
            out.push_back({int(i / 4), int(i % 4), -1, m_links[i].stats()});
    for (const WaferLink& w : m_waferLinks)
        out.push_back({w.from, 4, w.to, w.stats});
    return out;
}

void MeshFabric::setPhase(int phase, PhaseKind kind)
{
    m_phase = phase;
    m_kind = kind;
    if (m_traffic.size() <= size_t(phase))
        m_traffic.resize(size_t(phase) + 1);
}

int MeshFabric::addEvent(const MeshEvent& e)
{
    m_events.push_back(e);
    m_events.back().phase = uint16_t(m_phase);
    return int(m_events.size()) - 1;
}

void MeshFabric::occupy(int core, double from, double to, bool busy)
{
    MeshCore& c = m_cores[size_t(core)];
    from = std::max(from, c.cursor);
    if (to <= from)
        return;
    CoreCycles& k = c.stats.byKind[size_t(m_kind)];
    (busy ? k.busy : k.waiting) += to - from;
    c.cursor = to;
}

Ready MeshFabric::compute(int core, Ready input, double cycles, double macs)
{
    const Ready start = later(input, m_cores[size_t(core)].free); // the core may still work on earlier tiles
    const int ev =
        addEvent({start.time, start.time + cycles, start.event, core, core, 0.0f, 0, MeshEventKind::Compute});
    occupy(core, start.time, start.time + cycles, true);
    current().macs += macs;
    m_cores[size_t(core)].free = {start.time + cycles, ev};
    return {start.time + cycles, ev};
}

void MeshFabric::wait(int core, double until)
{
    occupy(core, m_cores[size_t(core)].cursor, until, false);
}

void MeshFabric::receive(int core, double headArrival, double tailArrival)
{
    occupy(core, m_cores[size_t(core)].cursor, headArrival, false);
    occupy(core, headArrival, tailArrival, true);
}

MeshFabric::Delivery MeshFabric::transmit(int core, int x1, int y1, double words, Ready depart, int event, bool yFirst)
{
    double t = depart.time;
    int cause = depart.event;
    int hops = 0;
    const int device = m_cores[size_t(core)].device;
    int x = m_cores[size_t(core)].x, y = m_cores[size_t(core)].y;
    int at = core;
    auto step = [&](int dir) {
        LinkState& link = m_links[size_t(at) * 4 + size_t(dir)];
        t = link.reserve(t, words, event, cause);
        link.words += words;
        link.messages += 1;
        t += m_params.hopCycles;
        ++hops;
        x += dir == 0 ? 1 : dir == 1 ? -1 : 0;
        y += dir == 2 ? 1 : dir == 3 ? -1 : 0;
        at = coreIndex(device, x, y);
    };
    auto alongX = [&] {
        while (x != x1)
            step(x1 > x ? 0 : 1);
    };
    auto alongY = [&] {
        while (y != y1)
            step(y1 > y ? 2 : 3);
    };
    if (yFirst) {
        alongY();
        alongX();
    } else {
        alongX();
        alongY();
    }
    m_events[size_t(event)].cause = cause;
    current().linkWords += words * hops;
    return {{t, event}, {t + words, event}};
}

MeshFabric::Delivery MeshFabric::send(int from, int to, double words, Ready depart, MeshEventKind kind, bool yFirst)
{
    const int ev = addEvent({depart.time, depart.time, depart.event, from, to, float(words), 0, kind});
    const MeshCore& b = m_cores[size_t(to)];
    const Delivery d = transmit(from, b.x, b.y, words, depart, ev, yFirst);
    m_events[size_t(ev)].end = d.tail.time;
    current().wordsSent += words;
    current().wordsDelivered += words;
    current().messages += 1;
    return d;
}

MeshFabric::Delivery MeshFabric::sendAcross(int from, int to, double words, Ready depart)
{
    const MeshCore a = m_cores[size_t(from)];
    const MeshCore b = m_cores[size_t(to)];
    const int edge = coreIndex(a.device, m_cols - 1, a.y);
    const int entry = coreIndex(b.device, 0, b.y);
    const int ev0 =
        addEvent({depart.time, depart.time, depart.event, from, edge, float(words), 0, MeshEventKind::Message});
    const Delivery out = transmit(from, m_cols - 1, a.y, words, depart, ev0);
    m_events[size_t(ev0)].end = out.tail.time;
    // The wafer link: latency plus the payload at the system I/O bandwidth, one message at a time per direction.
    const double bytes = words * m_params.linkBytesPerCycle;
    const double linkCycles = m_params.interWaferBytesPerCycle > 0 ? bytes / m_params.interWaferBytesPerCycle : 0.0;
    auto it = std::find_if(m_waferLinks.begin(), m_waferLinks.end(),
                           [&](const WaferLink& w) { return w.from == a.device && w.to == b.device; });
    if (it == m_waferLinks.end())
        it = m_waferLinks.insert(m_waferLinks.end(), {a.device, b.device, 0.0, -1, {}});
    WaferLink& link = *it;
    Ready start = out.tail;
    if (link.freeAt > start.time)
        start = {link.freeAt, link.lastEvent};
    const double arrive = start.time + linkCycles + m_params.interWaferLatencyCycles;
    const int ev1 = addEvent({start.time, arrive, start.event, edge, entry, float(words), 0, MeshEventKind::WaferLink});
    link.freeAt = start.time + linkCycles;
    link.lastEvent = ev1;
    link.stats.words += words;
    link.stats.busyCycles += linkCycles;
    link.stats.messages += 1;
    current().interWaferBytes += bytes;
    const int ev2 = addEvent({arrive, arrive, ev1, entry, to, float(words), 0, MeshEventKind::Message});
    const Delivery in = transmit(entry, b.x, b.y, words, {arrive, ev1}, ev2);
    m_events[size_t(ev2)].end = in.tail.time;
    current().wordsSent += words;
    current().wordsDelivered += words;
    current().messages += 1;
    return in;
}

std::vector<CriticalStep> MeshFabric::criticalPath() const
{
    const auto& events = m_events;
    int last = -1;
    for (size_t i = 0; i < events.size(); ++i)
        if (last < 0 || events[i].end > events[size_t(last)].end)
            last = int(i);
    std::vector<CriticalStep> steps;
    std::vector<double> stepEnd; // the end of each stretch's last event
    for (int e = last; e >= 0; e = events[size_t(e)].cause) {
        const MeshEvent& ev = events[size_t(e)];
        const MeshEventKind kind = ev.kind == MeshEventKind::Multicast ? MeshEventKind::Message : ev.kind;
        if (steps.empty() || steps.back().phase != ev.phase || steps.back().kind != kind) {
            steps.push_back({ev.phase, kind, 0, 0.0, ev.core});
            stepEnd.push_back(ev.end);
        }
        steps.back().events += 1;
        if (ev.cause >= e)
            break; // causes point backwards; guard against a cycle
    }
    std::reverse(steps.begin(), steps.end());
    std::reverse(stepEnd.begin(), stepEnd.end());
    // Each stretch's share of the token: from the previous stretch's end to its own.
    for (size_t i = 0; i < steps.size(); ++i)
        steps[i].cycles = stepEnd[i] - (i > 0 ? stepEnd[i - 1] : 0.0);
    return steps;
}

} // namespace ws
