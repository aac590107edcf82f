#pragma once
// The one pacing formula: when a system's tokens come out. A system with a
// predicted time to first token (TTFT) and tokens per second per user
// (SystemPace) has token i (0-based) out at TTFT + i / rate. Everything that
// paces or races tokens asks a TokenPacer:
// - a live session: "as fast as this CPU" shows every token as soon as the
//   generator has it; "at the pace of a system" holds each token back until
//   dueSeconds(index) (when this CPU is slower the tokens come as fast as it
//   allows);
// - the race (views/compare/tokenrace.h): how many tokens a lane shows, its clock and
//   its live rate at a moment of the race (tokensOutAt, clockAt, rateAt).
// Slow motion (slowedBy): the decode is stretched `factor` times on the wall
// clock (the first token still comes at its predicted time: a prompt slowed
// as much would keep a demo waiting), so a viewer can follow a system far
// faster than anyone reads; the clock and rate it reports stay the system's. slowMotionFor picks the
// factor (1, 2, 5, 10, 20, 50, …) that brings a system down to reading pace
// (readingTokensPerSecond, sourced in docs/sources.md [Reading-rate]).

#include "engine/session/sessionsnapshot.h"

namespace ws {

class TokenPacer
{
public:
    static TokenPacer asFastAsPossible();
    // A negative time to first token counts as 0; a system without a speed is not paced.
    static TokenPacer atPaceOf(const SystemPace& system);

    bool isPaced() const { return m_pace.tokensPerSecondPerUser > 0; }
    // The system's own rate (not slowed).
    double tokensPerSecond() const { return m_pace.tokensPerSecondPerUser; }
    const SystemPace& pace() const { return m_pace; }

    // This pace shown `factor` times slower (a factor below 1 counts as 1).
    TokenPacer slowedBy(double factor) const;
    double slowMotion() const { return m_slowMotion; }
    // About the pace a person reads: 238 words per minute silent reading of non-fiction [Reading-rate] at
    // 4/3 tokens per word [Tokens-per-word].
    static constexpr double readingTokensPerSecond = 238.0 / 60.0 * 4.0 / 3.0;
    // The smallest factor of 1, 2, 5, 10, 20, 50, … that brings `tokensPerSecond` down to `followable` or below.
    static double slowMotionFor(double tokensPerSecond, double followable = readingTokensPerSecond);

    // Wall seconds after the turn started at which token `index` (0-based) is
    // due (slowed); 0 when not paced.
    double dueSeconds(int index) const;
    // Whole tokens out `seconds` after the start, capped at `available` (0 when not paced).
    int tokensOutAt(double seconds, int available) const;
    // The clock of a system that has `available` tokens to show: the system's time at wall time `seconds`,
    // stopped at the moment its last token is out.
    double clockAt(double seconds, int available) const;
    // Live tokens/s at `seconds`: decode steps since the first token over the time since it (0 before the
    // second token).
    double rateAt(double seconds, int available) const;

private:
    // The system's time at wall time `seconds`, and back (they differ after the first token when slowed).
    double systemSeconds(double seconds) const;
    double wallSeconds(double systemSeconds) const;

    SystemPace m_pace; // tokensPerSecondPerUser 0 = not paced
    double m_slowMotion = 1;
};

} // namespace ws
