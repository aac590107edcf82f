#pragma once
// The discrete-event core of the mesh engine: cores with a timeline each,
// directed links between neighbouring routers, and the wafer-to-wafer links.
// Every piece of work is an event with a start and an end cycle and a cause
// (the earlier event whose end set its start), so the chain of causes from the
// token's last event back to its first is the critical path. A message is
// routed X first (or Y first), then the other axis, and moves cut-through: its
// head takes hopCycles per router and each link is busy one cycle per word. A
// link still busy with an earlier message makes the head wait (contention):
// the message takes the first gap in the link's reservations that its words
// fit, messages being issued in time order within a collective. A core's time
// is accounted as busy or waiting by intervals that never overlap; what is
// left of the token is idle.

#include "engine/wafer/mesh/meshparams.h"
#include "engine/wafer/mesh/meshstats.h"

#include <cstdint>
#include <vector>

namespace ws {

enum class MeshEventKind : uint8_t
{
    Compute,   // a core's local GEMV or element-wise work
    Message,   // words moving from one core to another over links
    Multicast, // a broadcast passing a core, which keeps a copy
    WaferLink, // words crossing between wafers
};

struct MeshEvent
{
    double start = 0;
    double end = 0;
    int cause = -1; // index of the event whose end set this start; -1: the token's start
    int core = -1;  // compute: the core; messages: the source core
    int toCore = -1;
    float words = 0;
    uint16_t phase = 0; // index into the engine's phase list
    MeshEventKind kind = MeshEventKind::Compute;
};

// A time with the event that produced it.
struct Ready
{
    double time = 0;
    int event = -1;
};
inline Ready later(Ready a, Ready b)
{
    return b.time > a.time ? b : a;
}

// A stretch of the critical path: consecutive events of one kind in one phase.
struct CriticalStep
{
    int phase = 0; // index into the engine's phase list
    MeshEventKind kind = MeshEventKind::Compute;
    int events = 0;
    double cycles = 0;
    int core = -1; // the core (or the source core) of the stretch's last event
};

struct MeshCore
{
    int device = 0;
    int x = 0; // fabric coordinates
    int y = 0;
    double cursor = 0; // accounted up to here
    Ready free;        // end of its last compute event
    CoreStats stats;
};

// One directed link: out of the router of core `core` towards dir (0 east, 1 west, 2 south, 3 north), or a
// wafer-to-wafer link (dir 4, core = the sending device, toDevice the receiving one).
struct MeshLink
{
    int core = -1;
    int dir = 0;
    int toDevice = -1;
    LinkStats stats;
};

class MeshFabric
{
public:
    explicit MeshFabric(const MeshParams& params) : m_params(params) {}

    const MeshParams& params() const { return m_params; }
    // The fabric's size (wafer links leave at the east edge and enter at the west) and a guess of the events.
    void setMesh(int cols, int rows, size_t expectedEvents = 0);
    int coreIndex(int device, int x, int y);      // creates the core on first use
    int findCore(int device, int x, int y) const; // -1: the core took no part
    void reserveCores(size_t more);               // room for `more` cores and their events
    const std::vector<MeshCore>& cores() const { return m_cores; }
    const std::vector<MeshEvent>& events() const { return m_events; }
    const std::vector<TrafficStats>& phaseTraffic() const { return m_traffic; }
    // Every link that carried something.
    std::vector<MeshLink> links() const;
    // From the last event back along the causes: stretches of one kind in one phase, first to last; each
    // stretch's cycles run from the previous stretch's end to its own, so they add up to the last event's end.
    std::vector<CriticalStep> criticalPath() const;

    void setPhase(int phase, PhaseKind kind);
    // The core works for `cycles` from max(input, its own last work); returns the end.
    Ready compute(int core, Ready input, double cycles, double macs = 0);
    // A core waits (it has work but lacks its input) until `until`.
    void wait(int core, double until);
    // The core adds a stream arriving from `from` to `until`: waiting until it starts, busy while it flows.
    void receive(int core, double headArrival, double tailArrival);

    struct Delivery
    {
        Ready head; // head at the destination
        Ready tail; // last word at the destination
    };
    // `words` from one core to another on the same device, departing no earlier than `depart`.
    // yFirst: route along y, then x (lanes of a hop between regions one above the other).
    Delivery send(int from, int to, double words, Ready depart, MeshEventKind kind = MeshEventKind::Message,
                  bool yFirst = false);
    // Between devices: on-wafer to the east edge, the wafer link, on-wafer from the west edge.
    Delivery sendAcross(int from, int to, double words, Ready depart);

private:
    // A link's reservations: the latest few busy intervals sorted by start (older ones are long past).
    struct LinkState
    {
        static constexpr int kKept = 2;
        struct Busy
        {
            double start, end;
            int event;
        };
        Busy busy[kKept];
        int count = 0;
        int messages = 0;
        double words = 0; // a mesh link is busy one cycle per word
        LinkStats stats() const { return {words, words, messages}; }
        // The first start >= t where `cycles` fit between reservations; `cause` becomes the blocking event.
        double reserve(double t, double cycles, int event, int& cause);
    };
    Delivery transmit(int core, int x1, int y1, double words, Ready depart, int event, bool yFirst = false);
    void occupy(int core, double from, double to, bool busy);
    int addEvent(const MeshEvent& e);
    TrafficStats& current() { return m_traffic[size_t(m_phase)]; }

    MeshParams m_params;
    int m_cols = 0, m_rows = 0;
    std::vector<MeshCore> m_cores;
    std::vector<std::vector<int>> m_coreOf; // per device: fabric y * cols + x -> core index (-1: none yet)
    std::vector<LinkState> m_links;         // 4 per core
    struct WaferLink
    {
        int from = 0, to = 0;
        double freeAt = 0;
        int lastEvent = -1;
        LinkStats stats;
    };
    std::vector<WaferLink> m_waferLinks;
    std::vector<MeshEvent> m_events;
    std::vector<TrafficStats> m_traffic; // per phase
    int m_phase = 0;
    PhaseKind m_kind = PhaseKind::Embedding;
};

} // namespace ws
