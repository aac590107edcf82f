#pragma once
// Pacing of a live session. "As fast as this CPU" shows every token as soon
// as the generator has it. "At the pace of a system" holds each token back
// until the moment the selected system would have produced it according to
// its predicted time to first token and tokens per second; when this CPU is
// slower than that system the tokens simply come as fast as the CPU allows.

#include "engine/session/sessionsnapshot.h"

namespace ws {

class TokenPacer
{
public:
    static TokenPacer asFastAsPossible();
    static TokenPacer atPaceOf(const SystemPace& system);

    bool isPaced() const { return m_tokensPerSecond > 0; }
    double tokensPerSecond() const { return m_tokensPerSecond; }

    // Seconds after the turn started at which token `index` (0-based) is
    // due; 0 when not paced.
    double dueSeconds(int index) const;

private:
    double m_tokensPerSecond = 0;   // 0 = not paced
    double m_firstTokenSeconds = 0;
};

} // namespace ws
