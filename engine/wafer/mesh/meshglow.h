#pragma once
// A mesh engine run's events as a Dataflow frame reads them (meshplayback.h):
// built once per run, so that a frame touches only the events of its trail
// window, not every core and every event. A frame at cycle t with a trail
// reaching back to t - trail shows each core's latest compute event that
// started by t if it ended within the trail, and every message or multicast
// that started by t and ended within the trail (the cores its head has
// passed). Both are events that meet the window [t - trail, t]; a compute
// event is also the core's latest only until the core's next compute event
// starts, a time known once per run.
//
// The events are kept per device in compact records (times and cells: no
// lookup into the fabric's cores) grouped by the time bucket of their end. A
// window reads the records that end in its buckets and, for its last bucket,
// the records that started there or earlier and end after it; each is tested
// against the exact definition, so the frame is the same, to the bit, as
// reading every event, whatever the bucket size. Buckets are a quarter of the
// events' mean length, so an event is listed in about four buckets. Nothing
// is remembered between frames: a frame stays a function of its cycle, any
// thread may fill one, and scrubbing costs what playing does.

#include "engine/wafer/dataflow/meshframe.h"
#include "engine/wafer/mesh/meshfabric.h"

#include <cstdint>
#include <vector>

namespace ws {

class MeshGlow
{
public:
    MeshGlow() = default;
    // totalCycles: the run's cycles (a frame's cycle is taken modulo them); nothing glows when not > 0.
    MeshGlow(const MeshFabric& fabric, double totalCycles);

    // Per-core values (meshCols x meshRows, row-major) at options.cycle with the glow reaching options.trailCycles
    // back, MeshFrame's encoding (compute 0.5..1, forward 0..0.49, idle 0), the stronger where events meet.
    void fill(int meshCols, int meshRows, const DataflowFrameOptions& options, std::vector<float>& out) const;

private:
    struct ComputeRecord
    {
        double start, end;
        double next; // when the core's next compute event starts (+inf: none); from then on this one is not shown
        int x, y;
    };
    struct MessageRecord
    {
        double start, end;
        int fromX, fromY, toX, toY;
    };
    // Records grouped by the bucket of their end, and per bucket the records that run through it into a later one.
    template <typename Record> struct Window
    {
        double bucketCycles = 1;
        std::vector<Record> records;
        std::vector<uint32_t> endOffsets;     // per bucket (+1): where its records start
        std::vector<uint32_t> throughOffsets; // per bucket (+1): where its list in `through` starts
        std::vector<uint32_t> through;        // records that start in or before the bucket and end after it
        template <typename Make>
        void build(size_t count, Make&& make, double totalCycles); // from `count` records, make(i) the i-th
        size_t bucketOf(double cycle) const;
        // Calls visit(record) for every record that may meet [from, t]: a superset, each record once.
        template <typename Visit> void forEach(double from, double t, Visit&& visit) const;
    };

    double m_totalCycles = 0;
    double m_hopCycles = 1;
    struct Device
    {
        Window<ComputeRecord> compute;
        Window<MessageRecord> messages; // by the source core's device
    };
    std::vector<Device> m_devices;
};

} // namespace ws
