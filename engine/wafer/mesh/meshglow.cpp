#include "engine/wafer/mesh/meshglow.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace ws {

namespace {

constexpr double kMinBucketCycles = 16;
constexpr size_t kMaxBuckets = size_t(1) << 16;
// Buckets of a quarter of the mean event: an event is listed in about four `through` lists, and a window reads
// less than a mean event's worth of records it does not need.
constexpr double kBucketsPerEvent = 4;
// Forwarding at its brightest: the top of the forwarding ramp, below the computing ramp that starts at 0.5.
constexpr float kForwardGlow = 0.49f;

} // namespace

template <typename Record> size_t MeshGlow::Window<Record>::bucketOf(double cycle) const
{
    const size_t last = endOffsets.size() - 2;
    const double q = cycle / bucketCycles;
    return q < double(last) ? size_t(std::max(0.0, q)) : last; // before the run: the first; after it (or NaN): the last
}

template <typename Record>
template <typename Make>
void MeshGlow::Window<Record>::build(size_t count, Make&& make, double totalCycles)
{
    double length = 0;
    for (size_t i = 0; i < count; ++i) {
        const Record r = make(i);
        length += std::max(0.0, r.end - r.start);
    }
    const double mean = count > 0 ? length / double(count) : 0.0;
    bucketCycles = std::max({kMinBucketCycles, totalCycles / double(kMaxBuckets), mean / kBucketsPerEvent});
    const size_t buckets = std::min(kMaxBuckets, size_t(std::ceil(totalCycles / bucketCycles))) + 1;
    endOffsets.assign(buckets + 1, 0);
    // Grouped by the bucket of their end, in event order within a bucket (a counting sort).
    std::vector<uint32_t> endBucket(count);
    for (size_t i = 0; i < count; ++i) {
        endBucket[i] = uint32_t(bucketOf(make(i).end));
        ++endOffsets[endBucket[i] + 1];
    }
    for (size_t b = 0; b < buckets; ++b)
        endOffsets[b + 1] += endOffsets[b];
    records.resize(count);
    {
        std::vector<uint32_t> next(endOffsets.begin(), endOffsets.end() - 1);
        for (size_t i = 0; i < count; ++i)
            records[next[endBucket[i]]++] = make(i);
    }
    // Each record in the lists of the buckets from its start's to the one before its end's.
    throughOffsets.assign(buckets + 1, 0);
    for (const Record& r : records)
        for (size_t b = bucketOf(r.start), last = bucketOf(r.end); b < last; ++b)
            ++throughOffsets[b + 1];
    for (size_t b = 0; b < buckets; ++b)
        throughOffsets[b + 1] += throughOffsets[b];
    through.resize(throughOffsets[buckets]);
    std::vector<uint32_t> next(throughOffsets.begin(), throughOffsets.end() - 1);
    for (size_t i = 0; i < records.size(); ++i)
        for (size_t b = bucketOf(records[i].start), last = bucketOf(records[i].end); b < last; ++b)
            through[next[b]++] = uint32_t(i);
}

// A record that starts by t and ends at or after `from` either ends in a bucket from from's to t's, or ends after
// t's bucket and so runs through it (bucketOf never decreases with the cycle).
template <typename Record>
template <typename Visit>
void MeshGlow::Window<Record>::forEach(double from, double t, Visit&& visit) const
{
    if (records.empty())
        return;
    const size_t first = bucketOf(from), last = bucketOf(t);
    for (size_t i = endOffsets[first], end = endOffsets[last + 1]; i < end; ++i)
        visit(records[i]);
    for (size_t j = throughOffsets[last], end = throughOffsets[last + 1]; j < end; ++j)
        visit(records[through[j]]);
}

MeshGlow::MeshGlow(const MeshFabric& fabric, double totalCycles)
    : m_totalCycles(totalCycles), m_hopCycles(std::max(1e-9, fabric.params().hopCycles))
{
    if (!(totalCycles > 0))
        return;
    const auto& events = fabric.events();
    const auto& cores = fabric.cores();
    struct Place
    {
        int x, y, device;
    };
    std::vector<Place> places(cores.size()); // the fabric's core records are large: each read once
    int devices = 0;
    for (size_t c = 0; c < cores.size(); ++c) {
        places[c] = {cores[c].x, cores[c].y, cores[c].device};
        devices = std::max(devices, cores[c].device + 1);
    }
    m_devices.resize(size_t(devices));

    // A frame shows each core's last compute event that started by its cycle (of equal starts, the later event),
    // so each is shown from its start until its core's next one starts. The fabric makes a core's compute events in
    // that order (each starts when the last ended); any other order is sorted per core first.
    std::vector<uint32_t> compute; // compute events in event order
    compute.reserve(events.size());
    for (size_t i = 0; i < events.size(); ++i)
        if (events[i].kind == MeshEventKind::Compute)
            compute.push_back(uint32_t(i));
    const auto startOf = [&](size_t k) { return events[compute[k]].start; };
    const auto coreOf = [&](size_t k) { return size_t(events[compute[k]].core); };
    std::vector<double> next(compute.size(), std::numeric_limits<double>::infinity());
    {
        std::vector<int64_t> lastOf(cores.size(), -1);
        bool ordered = true;
        for (size_t k = 0; k < compute.size(); ++k) {
            int64_t& last = lastOf[coreOf(k)];
            if (last >= 0) {
                ordered = ordered && startOf(size_t(last)) <= startOf(k);
                next[size_t(last)] = startOf(k);
            }
            last = int64_t(k);
        }
        if (!ordered) {
            std::vector<size_t> byCore(compute.size());
            for (size_t k = 0; k < byCore.size(); ++k)
                byCore[k] = k;
            std::stable_sort(byCore.begin(), byCore.end(), [&](size_t a, size_t b) {
                return coreOf(a) != coreOf(b) ? coreOf(a) < coreOf(b) : startOf(a) < startOf(b);
            });
            for (size_t j = 0; j < byCore.size(); ++j)
                next[byCore[j]] = j + 1 < byCore.size() && coreOf(byCore[j + 1]) == coreOf(byCore[j])
                                      ? startOf(byCore[j + 1])
                                      : std::numeric_limits<double>::infinity();
        }
    }
    // Those shown at some cycle (a later event of the same start hides an event always), by device.
    std::vector<std::vector<uint32_t>> shown(m_devices.size());
    if (shown.size() == 1)
        shown[0].reserve(compute.size());
    for (size_t k = 0; k < compute.size(); ++k)
        if (next[k] > startOf(k))
            shown[size_t(places[coreOf(k)].device)].push_back(uint32_t(k));
    for (size_t d = 0; d < m_devices.size(); ++d)
        m_devices[d].compute.build(
            shown[d].size(),
            [&, &ks = shown[d]](size_t i) {
                const MeshEvent& e = events[compute[ks[i]]];
                const Place& p = places[size_t(e.core)];
                return ComputeRecord{e.start, e.end, next[ks[i]], p.x, p.y};
            },
            totalCycles);

    // Messages and multicasts (the wafer links are the hops' arrows); one ending before it starts never showed.
    std::vector<std::vector<uint32_t>> messages(m_devices.size());
    if (messages.size() == 1)
        messages[0].reserve(events.size() - compute.size());
    for (size_t i = 0; i < events.size(); ++i) {
        const MeshEvent& e = events[i];
        if (e.kind != MeshEventKind::Compute && e.kind != MeshEventKind::WaferLink && e.end >= e.start)
            messages[size_t(places[size_t(e.core)].device)].push_back(uint32_t(i));
    }
    for (size_t d = 0; d < m_devices.size(); ++d)
        m_devices[d].messages.build(
            messages[d].size(),
            [&, &ids = messages[d]](size_t i) {
                const MeshEvent& e = events[ids[i]];
                const Place& a = places[size_t(e.core)];
                const Place& z = places[size_t(e.toCore)];
                return MessageRecord{e.start, e.end, a.x, a.y, z.x, z.y};
            },
            totalCycles);
}

void MeshGlow::fill(int meshCols, int meshRows, const DataflowFrameOptions& o, std::vector<float>& out) const
{
    const size_t cells = size_t(std::max(0, meshCols)) * size_t(std::max(0, meshRows));
    out.assign(cells, 0.0f);
    if (cells == 0 || !(m_totalCycles > 0))
        return;
    const double total = m_totalCycles;
    double t = std::fmod(o.cycle, total);
    if (t < 0)
        t += total;
    const double trail = std::max(0.0, o.trailCycles);
    const double from = t - trail;
    const double hopCycles = m_hopCycles;
    const auto weightOf = [&](double end) { return end >= t || trail <= 0 ? 1.0f : float(1.0 - (t - end) / trail); };
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
    for (size_t d = 0; d < m_devices.size(); ++d) {
        if (o.device != DataflowFrameOptions::allDevices && o.device != int(d))
            continue;
        // Computing: the core's compute event shown at t (its latest started), if it ended within the trail.
        m_devices[d].compute.forEach(from, t, [&](const ComputeRecord& r) {
            if (r.start <= t && t < r.next && r.end >= from)
                put(r.x, r.y, 0.5f + 0.5f * weightOf(r.end));
        });
        // Messages: the cores each one's head has passed (hopCycles a router, then the words stream in).
        m_devices[d].messages.forEach(from, t, [&](const MessageRecord& r) {
            if (r.start > t || r.end < from)
                return;
            const int dx = std::abs(r.toX - r.fromX), dy = std::abs(r.toY - r.fromY);
            const int passed = std::min(dx + dy, int((t - r.start) / hopCycles));
            const float v = kForwardGlow * weightOf(r.end);
            // The head's path so far as two runs of cells: along x on the source's row, then along y on the
            // destination's column (a run's cells written in one tight loop, clipped to the mesh).
            const int nx = std::min(passed, dx);
            const int x0 = std::min(r.fromX, r.fromX + (r.toX >= r.fromX ? nx : -nx));
            fillRun(x0, r.fromY, nx + 1, 1, v);
            const int ny = passed - nx;
            if (ny > 0)
                fillRun(r.toX, r.toY >= r.fromY ? r.fromY + 1 : r.fromY - ny, ny, meshCols, v);
        });
    }
}

} // namespace ws
