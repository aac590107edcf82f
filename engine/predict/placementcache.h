#pragma once
// Placements the predictor reuses. A placement is deterministic in its
// inputs and costs milliseconds, and sweeps (over concurrency, workloads,
// the defect maps of one placement) ask for the same one again and again.
// The cache is an explicit object, owned by whoever sweeps (the comparison,
// the Defects dock) and passed in WaferPredictOptions::placements /
// PredictOptions::wafer.placements; without one every prediction places
// afresh. Entries are keyed by the request itself: two requests hit the same
// entry exactly when they compare equal (operator== over every field of the
// model, the wafer and the options), so no input of the placer can be
// forgotten in a hand-written key. Thread-safe; the least recently used
// entry goes when it is full.

#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/wafer/placement/placer.h"

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <optional>

namespace ws {

// Everything placeModel() reads, and nothing else.
struct WaferPlacementRequest
{
    ModelConfig model;
    WaferSpec wafer;
    PlacementOptions options;

    bool operator==(const WaferPlacementRequest&) const = default;
};

using SharedPlacement = std::shared_ptr<const Expected<Placement>>;

class PlacementCache
{
public:
    explicit PlacementCache(size_t capacity = 64);
    PlacementCache(const PlacementCache&) = delete;
    PlacementCache& operator=(const PlacementCache&) = delete;

    // The placement for `request`: the cached one when an equal request was placed before, else placed now.
    SharedPlacement place(const WaferPlacementRequest& request);
    // The same for a request's three parts, compared as they are: a hit copies none of them.
    SharedPlacement place(const ModelConfig& model, const WaferSpec& wafer, const PlacementOptions& options);

    size_t size() const;
    size_t capacity() const { return m_capacity; }
    size_t hits() const;
    size_t misses() const;
    void clear();

private:
    struct Entry
    {
        WaferPlacementRequest request;
        SharedPlacement placement;
    };
    SharedPlacement find(const ModelConfig& model, const WaferSpec& wafer, const PlacementOptions& options);

    size_t m_capacity;
    mutable std::mutex m_mutex;
    std::list<Entry> m_entries; // most recently used first
    size_t m_hits = 0;
    size_t m_misses = 0;
};

// `cache` may be null: then it places afresh.
SharedPlacement placeThrough(PlacementCache* cache, const ModelConfig& model, const WaferSpec& wafer,
                             const PlacementOptions& options);

} // namespace ws
