#include "engine/session/tokenpacer.h"

#include <algorithm>
#include <cmath>

namespace ws {

TokenPacer TokenPacer::asFastAsPossible()
{
    return TokenPacer();
}

TokenPacer TokenPacer::atPaceOf(const SystemPace& system)
{
    TokenPacer pacer;
    pacer.m_pace = system;
    if (!(system.tokensPerSecondPerUser > 0)) {
        pacer.m_pace.tokensPerSecondPerUser = 0;
        pacer.m_pace.firstTokenSeconds = 0;
    } else if (!(system.firstTokenSeconds > 0)) {
        pacer.m_pace.firstTokenSeconds = 0;
    }
    return pacer;
}

double TokenPacer::dueSeconds(int index) const
{
    if (!isPaced() || index < 0)
        return 0;
    return m_pace.secondsForTokens(index + 1);
}

int TokenPacer::tokensOutAt(double seconds, int available) const
{
    const double due = m_pace.tokensAfter(seconds);
    // A whole token is out once its moment has passed; the small slack absorbs rounding at exact moments.
    const int whole = static_cast<int>(std::floor(due + 1e-9));
    return std::clamp(whole, 0, std::max(0, available));
}

double TokenPacer::clockAt(double seconds, int available) const
{
    if (available > 0 && tokensOutAt(seconds, available) >= available)
        return std::min(seconds, m_pace.secondsForTokens(available));
    return seconds;
}

double TokenPacer::rateAt(double seconds, int available) const
{
    const int out = tokensOutAt(seconds, available);
    const double decode = clockAt(seconds, available) - m_pace.firstTokenSeconds;
    return out > 1 && decode > 0 ? (out - 1) / decode : 0;
}

} // namespace ws
