#pragma once
// Statistics of the mesh engine as plain values that add and subtract field by
// field (engine/core/fieldwise.h), so that per-phase and per-token deltas are
// arithmetic. A core is busy when its compute engine works (a tile's GEMV, an
// element-wise op, adding a partial sum that streams in), waiting when it has
// work in a phase but lacks an input (a partial sum or the broadcast result
// still on its way), idle otherwise; the three add up to the token's cycles.
// A link counts the words (link-width units) it carried and the cycles it was
// busy. Words are counted three ways per phase: sent by a source core, delivered
// to a destination core, and carried per link hop.

#include "engine/core/fieldwise.h"
#include "engine/wafer/dataflow/layerwork.h"

#include <array>
#include <cstdint>
#include <tuple>

namespace ws {

struct CoreCycles
{
    double busy = 0;
    double waiting = 0;
    static constexpr auto fields() { return std::tuple{&CoreCycles::busy, &CoreCycles::waiting}; }
};

// One core over a token: busy and waiting cycles per phase kind; idle is the rest of the token.
struct CoreStats
{
    std::array<CoreCycles, size_t(PhaseKind::Count)> byKind{};
    CoreCycles total() const
    {
        CoreCycles t;
        for (const CoreCycles& c : byKind)
            t += c;
        return t;
    }
    double idle(double tokenCycles) const
    {
        const CoreCycles t = total();
        return tokenCycles - t.busy - t.waiting;
    }
    static constexpr auto fields() { return std::tuple{&CoreStats::byKind}; }
};

struct LinkStats
{
    double words = 0;
    double busyCycles = 0;
    int64_t messages = 0;
    static constexpr auto fields()
    {
        return std::tuple{&LinkStats::words, &LinkStats::busyCycles, &LinkStats::messages};
    }
};

// Traffic and work of one phase (or of a whole token, summed).
struct TrafficStats
{
    double wordsSent = 0;      // leaving source cores
    double wordsDelivered = 0; // arriving at destination cores (every multicast receiver counts)
    double linkWords = 0;      // words x hops
    double interWaferBytes = 0;
    double macs = 0;
    int64_t messages = 0;
    static constexpr auto fields()
    {
        using T = TrafficStats;
        return std::tuple{&T::wordsSent,       &T::wordsDelivered, &T::linkWords,
                          &T::interWaferBytes, &T::macs,           &T::messages};
    }
};

// What one core computed for this token: the magnitude of its partial products (sum of |partial| over its
// tiles' output rows) and their signed sum, in fabric coordinates.
struct MeshCoreValue
{
    int device = 0;
    int fabricX = 0;
    int fabricY = 0;
    double partialMagnitude = 0;
    double partialSum = 0;
};

} // namespace ws
