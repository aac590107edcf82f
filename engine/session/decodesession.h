#pragma once
// A decode session runs one chat turn: it pulls tokens from a TokenStream
// (the generator), measures how fast this CPU produces them, holds them back
// when pacing at a simulated system's speed, and publishes immutable
// SessionSnapshots — at most maxSnapshotsPerSecond of them, plus always the
// final one. It checks `shouldStop` before every step and while it waits, so
// a stop takes effect within one decode step. The token limit, the context
// and end of generation are the stream's to check (TokenStep::end): the
// session only reports them. It runs on whatever thread
// calls run() (in the app: the one worker thread) and owns no thread itself.

#include "engine/session/sessionsnapshot.h"
#include "engine/session/tokenpacer.h"
#include "engine/session/tokenstream.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace ws {

struct DecodeOptions
{
    uint64_t requestId = 0;
    TokenPacer pacer = TokenPacer::asFastAsPossible();
    double maxSnapshotsPerSecond = 30.0;
    std::vector<SystemPace> systems; // copied into every snapshot
    // Whether the consumer has taken the snapshots published so far; while it returns false no new
    // snapshot is made (its tokens ride on a later one, the final one is always published), so a slow
    // consumer never has more than a bounded backlog of snapshots and their wafer frames. May be empty.
    std::function<bool()> consumerReady;
    // Wafer frame to show once token `index` (0-based) is out, with `cacheTokens` tokens in the KV cache
    // (the prompt's and those generated so far); may be empty.
    std::function<std::shared_ptr<const MeshFrame>(int index, int cacheTokens)> meshFrame;
    // Clock and sleep, replaceable in tests; default: steady_clock and
    // std::this_thread::sleep_for.
    std::function<double()> nowSeconds;
    std::function<void(double seconds)> sleepSeconds;
};

class DecodeSession
{
public:
    using Publish = std::function<void(std::shared_ptr<const SessionSnapshot>)>;
    using StopCheck = std::function<bool()>;

    explicit DecodeSession(DecodeOptions options);

    // Runs the turn to its end (end of text, token limit, full context, stop
    // or an error) and returns the final snapshot, which was also published.
    std::shared_ptr<const SessionSnapshot> run(TokenStream& stream, const StopCheck& shouldStop,
                                               const Publish& publish);

private:
    double now() const;
    // Waits until `dueSeconds` after start, adding the time waited and the wake-up lateness to
    // `current`; false when stopped meanwhile.
    bool waitUntil(double startSeconds, double dueSeconds, const StopCheck& shouldStop, SessionSnapshot& current);
    // Publishable copy of `current`; moves the pending pieces into it.
    std::shared_ptr<const SessionSnapshot> freeze(SessionSnapshot& current) const;

    DecodeOptions m_options;
};

} // namespace ws
