#include "engine/session/sessionsnapshot.h"

#include <algorithm>

namespace ws {

double SystemPace::secondsForTokens(int tokens) const
{
    if (tokens <= 0 || tokensPerSecondPerUser <= 0)
        return 0;
    // The first token arrives after the time to first token; each further one
    // after one decode step.
    return firstTokenSeconds + (tokens - 1) / tokensPerSecondPerUser;
}

double SystemPace::tokensAfter(double seconds) const
{
    if (tokensPerSecondPerUser <= 0 || seconds < firstTokenSeconds)
        return 0;
    return 1.0 + (seconds - firstTokenSeconds) * tokensPerSecondPerUser;
}

} // namespace ws
