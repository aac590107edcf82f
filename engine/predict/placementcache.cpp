#include "engine/predict/placementcache.h"

#include <algorithm>

namespace ws {

PlacementCache::PlacementCache(size_t capacity) : m_capacity(std::max<size_t>(1, capacity)) {}

SharedPlacement PlacementCache::find(const ModelConfig& model, const WaferSpec& wafer, const PlacementOptions& options)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    // WaferPlacementRequest's operator==, part by part.
    const auto it = std::find_if(m_entries.begin(), m_entries.end(), [&](const Entry& e) {
        return e.request.model == model && e.request.wafer == wafer && e.request.options == options;
    });
    if (it == m_entries.end()) {
        ++m_misses;
        return nullptr;
    }
    ++m_hits;
    m_entries.splice(m_entries.begin(), m_entries, it);
    return it->placement;
}

SharedPlacement PlacementCache::place(const WaferPlacementRequest& request)
{
    return place(request.model, request.wafer, request.options);
}

SharedPlacement PlacementCache::place(const ModelConfig& model, const WaferSpec& wafer, const PlacementOptions& options)
{
    if (SharedPlacement cached = find(model, wafer, options))
        return cached;
    const WaferPlacementRequest request{model, wafer, options};
    // Placed outside the lock: other threads keep using the cache meanwhile (two may place the same request once
    // each; both results are equal).
    auto placed =
        std::make_shared<const Expected<Placement>>(placeModel(request.model, request.wafer, request.options));
    std::lock_guard<std::mutex> lock(m_mutex);
    if (std::none_of(m_entries.begin(), m_entries.end(), [&](const Entry& e) { return e.request == request; })) {
        m_entries.push_front({request, placed});
        if (m_entries.size() > m_capacity)
            m_entries.pop_back();
    }
    return placed;
}

size_t PlacementCache::size() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_entries.size();
}

size_t PlacementCache::hits() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_hits;
}

size_t PlacementCache::misses() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_misses;
}

void PlacementCache::clear()
{
    std::lock_guard<std::mutex> lock(m_mutex);
    m_entries.clear();
}

SharedPlacement placeThrough(PlacementCache* cache, const ModelConfig& model, const WaferSpec& wafer,
                             const PlacementOptions& options)
{
    if (cache)
        return cache->place(model, wafer, options);
    return std::make_shared<const Expected<Placement>>(placeModel(model, wafer, options));
}

} // namespace ws
