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

TokenPacer TokenPacer::slowedBy(double factor) const
{
    TokenPacer slowed = *this;
    slowed.m_slowMotion = factor > 1 ? factor : 1;
    return slowed;
}

double TokenPacer::systemSeconds(double seconds) const
{
    const double first = m_pace.firstTokenSeconds;
    return seconds <= first ? seconds : first + (seconds - first) / m_slowMotion;
}

double TokenPacer::wallSeconds(double systemSeconds) const
{
    const double first = m_pace.firstTokenSeconds;
    return systemSeconds <= first ? systemSeconds : first + (systemSeconds - first) * m_slowMotion;
}

double TokenPacer::slowMotionFor(double tokensPerSecond, double followable)
{
    if (!(tokensPerSecond > followable) || !(followable > 0) || !std::isfinite(tokensPerSecond))
        return 1;
    for (double decade = 1;; decade *= 10)
        for (const double step : {1.0, 2.0, 5.0})
            if (tokensPerSecond / (step * decade) <= followable)
                return step * decade;
}

double TokenPacer::dueSeconds(int index) const
{
    if (!isPaced() || index < 0)
        return 0;
    return wallSeconds(m_pace.secondsForTokens(index + 1));
}

int TokenPacer::tokensOutAt(double seconds, int available) const
{
    const double due = m_pace.tokensAfter(systemSeconds(seconds));
    // A whole token is out once its moment has passed; the small slack absorbs rounding at exact moments.
    const int whole = static_cast<int>(std::floor(due + 1e-9));
    return std::clamp(whole, 0, std::max(0, available));
}

double TokenPacer::clockAt(double seconds, int available) const
{
    const double system = systemSeconds(seconds);
    if (available > 0 && tokensOutAt(seconds, available) >= available)
        return std::min(system, m_pace.secondsForTokens(available));
    return system;
}

double TokenPacer::rateAt(double seconds, int available) const
{
    const int out = tokensOutAt(seconds, available);
    const double decode = clockAt(seconds, available) - m_pace.firstTokenSeconds;
    return out > 1 && decode > 0 ? (out - 1) / decode : 0;
}

} // namespace ws
