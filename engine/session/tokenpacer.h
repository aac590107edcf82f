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

#include "engine/session/sessionsnapshot.h"

namespace ws {

class TokenPacer
{
public:
    static TokenPacer asFastAsPossible();
    // A negative time to first token counts as 0; a system without a speed is not paced.
    static TokenPacer atPaceOf(const SystemPace& system);

    bool isPaced() const { return m_pace.tokensPerSecondPerUser > 0; }
    double tokensPerSecond() const { return m_pace.tokensPerSecondPerUser; }
    const SystemPace& pace() const { return m_pace; }

    // Seconds after the turn started at which token `index` (0-based) is
    // due; 0 when not paced.
    double dueSeconds(int index) const;
    // Whole tokens out `seconds` after the start, capped at `available` (0 when not paced).
    int tokensOutAt(double seconds, int available) const;
    // The clock of a system that has `available` tokens to show: `seconds`, stopped at the moment its last
    // token is out.
    double clockAt(double seconds, int available) const;
    // Live tokens/s at `seconds`: decode steps since the first token over the time since it (0 before the
    // second token).
    double rateAt(double seconds, int available) const;

private:
    SystemPace m_pace; // tokensPerSecondPerUser 0 = not paced
};

} // namespace ws
