#include "engine/wafer/mesh/meshfabric.h"

#include <algorithm>

namespace ws {

namespace {
uint64_t coreKey(int device, int x, int y)
{
    return (uint64_t(uint32_t(device)) << 42) | (uint64_t(uint32_t(y)) << 21) | uint64_t(uint32_t(x));
}
uint64_t linkKey(int device, int x, int y, int dir)
{
    return (uint64_t(uint32_t(device)) << 45) | (uint64_t(uint32_t(y)) << 24) | (uint64_t(uint32_t(x)) << 3) |
           uint64_t(dir);
}
} // namespace

double MeshFabric::LinkState::reserve(double t, double cycles, int event, int& cause)
{
    constexpr size_t kKept = 32;
    // Walk back to the first reservation that ends after t, then forward through the gaps.
    size_t i = busy.size();
    while (i > 0 && busy[i - 1].end > t)
        --i;
    for (; i < busy.size(); ++i) {
        if (t + cycles <= busy[i].start)
            break;
        if (busy[i].end > t) {
            t = busy[i].end;
            cause = busy[i].event;
        }
    }
    busy.insert(busy.begin() + std::ptrdiff_t(i), {t, t + cycles, event});
    if (busy.size() > kKept)
        busy.erase(busy.begin(), busy.begin() + std::ptrdiff_t(busy.size() - kKept));
    return t;
}

void MeshFabric::decodeLink(uint64_t key, int& device, int& x, int& y, int& dir)
{
    dir = int(key & 7u);
    x = int((key >> 3) & ((1u << 21) - 1));
    y = int((key >> 24) & ((1u << 21) - 1));
    device = int(key >> 45);
}

int MeshFabric::coreIndex(int device, int x, int y)
{
    const auto [it, inserted] = m_coreOf.try_emplace(coreKey(device, x, y), int(m_cores.size()));
    if (inserted)
        m_cores.push_back({device, x, y, 0.0, {}, {}});
    return it->second;
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
    m_events.back().phase = m_phase;
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
        addEvent({start.time, start.time + cycles, start.event, 0, core, core, 0.0f, MeshEventKind::Compute});
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

MeshFabric::Delivery MeshFabric::transmit(int device, int x0, int y0, int x1, int y1, double words, Ready depart,
                                          int event, bool yFirst)
{
    double t = depart.time;
    int cause = depart.event;
    int hops = 0;
    auto step = [&](int x, int y, int dir) {
        t = m_links[linkKey(device, x, y, dir)].reserve(t, words, event, cause);
        LinkStats& s = m_linkStats[linkKey(device, x, y, dir)];
        s.words += words;
        s.busyCycles += words;
        s.messages += 1;
        t += m_params.hopCycles;
        ++hops;
    };
    int x = x0, y = y0;
    auto alongX = [&] {
        while (x != x1) {
            step(x, y, x1 > x ? 0 : 1);
            x += x1 > x ? 1 : -1;
        }
    };
    auto alongY = [&] {
        while (y != y1) {
            step(x, y, y1 > y ? 2 : 3);
            y += y1 > y ? 1 : -1;
        }
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
    const MeshCore& a = m_cores[size_t(from)];
    const MeshCore& b = m_cores[size_t(to)];
    const int ev = addEvent({depart.time, depart.time, depart.event, 0, from, to, float(words), kind});
    Delivery d = transmit(a.device, a.x, a.y, b.x, b.y, words, depart, ev, yFirst);
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
    const int edge = coreIndex(a.device, m_edgeX, a.y);
    const int entry = coreIndex(b.device, 0, b.y);
    const int ev0 =
        addEvent({depart.time, depart.time, depart.event, 0, from, edge, float(words), MeshEventKind::Message});
    const Delivery out = transmit(a.device, a.x, a.y, m_edgeX, a.y, words, depart, ev0);
    m_events[size_t(ev0)].end = out.tail.time;
    // The wafer link: latency plus the payload at the system I/O bandwidth, one message at a time per direction.
    const double bytes = words * m_params.linkBytesPerCycle;
    const double linkCycles = m_params.interWaferBytesPerCycle > 0 ? bytes / m_params.interWaferBytesPerCycle : 0.0;
    LinkState& link = m_links[linkKey(std::min(a.device, b.device), a.device, b.device, 4)];
    Ready start = out.tail;
    if (link.freeAt > start.time)
        start = {link.freeAt, link.lastEvent};
    const double arrive = start.time + linkCycles + m_params.interWaferLatencyCycles;
    const int ev1 = addEvent({start.time, arrive, start.event, 0, edge, entry, float(words), MeshEventKind::WaferLink});
    link.freeAt = start.time + linkCycles;
    link.lastEvent = ev1;
    LinkStats& s = m_linkStats[linkKey(std::min(a.device, b.device), a.device, b.device, 4)];
    s.words += words;
    s.busyCycles += linkCycles;
    s.messages += 1;
    current().interWaferBytes += bytes;
    const int ev2 = addEvent({arrive, arrive, ev1, 0, entry, to, float(words), MeshEventKind::Message});
    const Delivery in = transmit(b.device, 0, b.y, b.x, b.y, words, {arrive, ev1}, ev2);
    m_events[size_t(ev2)].end = in.tail.time;
    current().wordsSent += words;
    current().wordsDelivered += words;
    current().messages += 1;
    return in;
}

} // namespace ws
