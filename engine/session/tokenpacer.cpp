#include "engine/session/tokenpacer.h"

namespace ws {

TokenPacer TokenPacer::asFastAsPossible()
{
    return TokenPacer();
}

TokenPacer TokenPacer::atPaceOf(const SystemPace& system)
{
    TokenPacer pacer;
    if (system.tokensPerSecondPerUser > 0) {
        pacer.m_tokensPerSecond = system.tokensPerSecondPerUser;
        pacer.m_firstTokenSeconds = system.firstTokenSeconds > 0 ? system.firstTokenSeconds : 0;
    }
    return pacer;
}

double TokenPacer::dueSeconds(int index) const
{
    if (!isPaced() || index < 0)
        return 0;
    return m_firstTokenSeconds + index / m_tokensPerSecond;
}

} // namespace ws
