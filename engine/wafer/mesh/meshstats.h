#pragma once
// Statistics of the mesh engine as plain values that add and subtract, so that
// per-phase and per-token deltas are arithmetic (ChampSim's cache_stats
// style). A core is busy when its compute engine works (a tile's GEMV, an
// element-wise op, adding a partial sum that streams in), waiting when it has
// work in a phase but lacks an input (a partial sum or the broadcast result
// still on its way), idle otherwise; the three add up to the token's cycles.
// A link counts the words (link-width units) it carried and the cycles it was
// busy. Words are counted three ways per phase: sent by a source core, delivered
// to a destination core, and carried per link hop.

#include "engine/wafer/dataflow/layerwork.h"

#include <array>
#include <cstdint>

namespace ws {

struct CoreCycles
{
    double busy = 0;
    double waiting = 0;
    CoreCycles& operator+=(const CoreCycles& o)
    {
        busy += o.busy;
        waiting += o.waiting;
        return *this;
    }
    CoreCycles& operator-=(const CoreCycles& o)
    {
        busy -= o.busy;
        waiting -= o.waiting;
        return *this;
    }
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
    CoreStats& operator+=(const CoreStats& o)
    {
        for (size_t i = 0; i < byKind.size(); ++i)
            byKind[i] += o.byKind[i];
        return *this;
    }
    CoreStats& operator-=(const CoreStats& o)
    {
        for (size_t i = 0; i < byKind.size(); ++i)
            byKind[i] -= o.byKind[i];
        return *this;
    }
};

struct LinkStats
{
    double words = 0;
    double busyCycles = 0;
    int64_t messages = 0;
    LinkStats& operator+=(const LinkStats& o)
    {
        words += o.words;
        busyCycles += o.busyCycles;
        messages += o.messages;
        return *this;
    }
    LinkStats& operator-=(const LinkStats& o)
    {
        words -= o.words;
        busyCycles -= o.busyCycles;
        messages -= o.messages;
        return *this;
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
    TrafficStats& operator+=(const TrafficStats& o)
    {
        wordsSent += o.wordsSent;
        wordsDelivered += o.wordsDelivered;
        linkWords += o.linkWords;
        interWaferBytes += o.interWaferBytes;
        macs += o.macs;
        messages += o.messages;
        return *this;
    }
    TrafficStats& operator-=(const TrafficStats& o)
    {
        wordsSent -= o.wordsSent;
        wordsDelivered -= o.wordsDelivered;
        linkWords -= o.linkWords;
        interWaferBytes -= o.interWaferBytes;
        macs -= o.macs;
        messages -= o.messages;
        return *this;
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
