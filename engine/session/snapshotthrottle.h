#pragma once
// Limits how often the worker publishes snapshots (about 30 a second): the
// GUI cannot show more, and each one costs a copy of the text so far. The
// final snapshot of a turn is always published, whatever the throttle says.

namespace ws {

class SnapshotThrottle
{
public:
    explicit SnapshotThrottle(double maxPerSecond = 30.0);

    // True when at least 1/maxPerSecond has passed since the last admitted
    // time (the first call is always admitted); records nowSeconds if so.
    bool admit(double nowSeconds);
    double intervalSeconds() const { return m_intervalSeconds; }

private:
    double m_intervalSeconds;
    double m_lastSeconds = 0;
    bool m_any = false;
};

} // namespace ws
