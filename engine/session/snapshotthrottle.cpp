#include "engine/session/snapshotthrottle.h"

namespace ws {

SnapshotThrottle::SnapshotThrottle(double maxPerSecond) : m_intervalSeconds(maxPerSecond > 0 ? 1.0 / maxPerSecond : 0.0)
{
}

bool SnapshotThrottle::admit(double nowSeconds)
{
    if (m_any && nowSeconds - m_lastSeconds < m_intervalSeconds)
        return false;
    m_any = true;
    m_lastSeconds = nowSeconds;
    return true;
}

} // namespace ws
