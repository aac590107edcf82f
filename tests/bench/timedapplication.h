#pragma once
// The GUI-thread event probe the interactive benchmarks share: a QApplication
// that times every event it dispatches at the top of the GUI thread's loop
// (nested sends count in the dispatch that made them) and keeps the slowest
// few with what they were (the receiver's class, its name or its parent's,
// the event type, and what the benchmark was doing: `context`), plus the
// most GUI-thread CPU one dispatch took (its own work, without waiting for a
// core on a loaded machine). A benchmark that wants more (bench_present times
// the paints of one widget) derives from it and calls its notify().

#include <QApplication>
#include <QByteArray>
#include <QElapsedTimer>
#include <QEvent>
#include <QMetaEnum>
#include <QPointer>
#include <QThread>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <functional>
#include <vector>

namespace wsbench {

inline double threadCpuSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

class TimedApplication : public QApplication
{
public:
    using QApplication::QApplication;

    struct Dispatch
    {
        double ms = 0;    // wall time of the dispatch
        double cpuMs = 0; // GUI-thread CPU time of it
        QByteArray what;
        QByteArray paints; // the slowest widget paints inside it: "ChatView 6.1 ms, MeshView 2.0 ms"
    };
    std::vector<Dispatch> slowest; // the longest dispatches over minMs, longest first (at most `keep`)
    size_t keep = 5;
    double minMs = 4;
    double worstCpuMs = 0;               // the most GUI-thread CPU one dispatch took
    std::function<QByteArray()> context; // appended to a recorded dispatch (what the benchmark was doing)

    void reset()
    {
        slowest.clear();
        worstCpuMs = 0;
        m_recent.clear();
    }

    // The dispatches of a millisecond or more that ended after `sinceNs` (nowNs()'s clock), oldest first, as "QTimer
    // Timer 8.1 ms (7.9 CPU), QWidget UpdateRequest 11.2 ms (...)": what a late timer tick waited behind (the last 32
    // are kept).
    QByteArray dispatchesSince(qint64 sinceNs) const
    {
        QByteArray out;
        for (const Recent& r : m_recent)
            if (r.endNs > sinceNs)
                out += (out.isEmpty() ? "" : ", ") + r.what + ' ' + QByteArray::number(r.ms, 'f', 1) + " ms (" +
                       QByteArray::number(r.cpuMs, 'f', 1) + " CPU)";
        return out;
    }
    static qint64 nowNs()
    {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
    }

    bool notify(QObject* receiver, QEvent* event) override
    {
        if (QThread::currentThread() != thread())
            return QApplication::notify(receiver, event);
        if (m_depth > 0)
            return event->type() == QEvent::Paint ? timeNestedPaint(receiver, event)
                                                  : QApplication::notify(receiver, event);
        m_paints.clear();
        ++m_depth;
        QElapsedTimer clock;
        clock.start();
        const double cpu0 = threadCpuSeconds();
        const int type = event->type(); // the event and the receiver may be gone after the dispatch
        const QMetaObject* meta = receiver->metaObject();
        const QPointer<QObject> alive(receiver);
        const bool result = QApplication::notify(receiver, event);
        const double ms = double(clock.nsecsElapsed()) / 1e6;
        const double cpuMs = (threadCpuSeconds() - cpu0) * 1000;
        --m_depth;
        worstCpuMs = std::max(worstCpuMs, cpuMs);
        if (ms >= 1) {
            if (m_recent.size() == 32)
                m_recent.erase(m_recent.begin());
            m_recent.push_back({nowNs(), ms, cpuMs, describe(alive ? alive.data() : nullptr, meta, type)});
        }
        if (ms > minMs && (slowest.size() < keep || ms > slowest.back().ms)) {
            const QByteArray what = describe(alive ? alive.data() : nullptr, meta, type);
            slowest.push_back({ms, cpuMs, context ? what + " during " + context() : what, slowestPaints()});
            std::sort(slowest.begin(), slowest.end(), [](const Dispatch& a, const Dispatch& b) { return a.ms > b.ms; });
            if (slowest.size() > keep)
                slowest.pop_back();
        }
        return result;
    }

private:
    // "QTimer (in ws::TourPlayer)": the receiver's class, its name or its parent's class.
    static QByteArray nameOf(const QObject* receiver, const QMetaObject* meta)
    {
        QByteArray out = meta->className();
        if (receiver && !receiver->objectName().isEmpty())
            out += " \"" + receiver->objectName().toUtf8() + '"';
        else if (receiver && receiver->parent())
            out += QByteArray(" (in ") + receiver->parent()->metaObject()->className() + ')';
        return out;
    }
    // "QTimer (in ws::TourPlayer) Timer": the receiver and the event.
    static QByteArray describe(const QObject* receiver, const QMetaObject* meta, int type)
    {
        const char* name = QMetaEnum::fromType<QEvent::Type>().valueToKey(type);
        return nameOf(receiver, meta) + ' ' + (name ? QByteArray(name) : QByteArray::number(type));
    }

    bool timeNestedPaint(QObject* receiver, QEvent* event)
    {
        QElapsedTimer clock;
        clock.start();
        const QByteArray what = nameOf(receiver, receiver->metaObject());
        const bool result = QApplication::notify(receiver, event);
        m_paints.push_back({double(clock.nsecsElapsed()) / 1e6, what});
        return result;
    }

    // "68 widgets, 9.3 ms: QToolBar \"viewToolBar\" 1.4 ms, ...": how many paints the dispatch made, their time in all
    // and the slowest (0.3 ms or more, at most 8).
    QByteArray slowestPaints()
    {
        std::sort(m_paints.begin(), m_paints.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        QByteArray out;
        double all = 0;
        for (const auto& paint : m_paints)
            all += paint.first;
        for (size_t i = 0; i < std::min<size_t>(m_paints.size(), 8) && m_paints[i].first >= 0.3; ++i)
            out += (i ? ", " : "") + m_paints[i].second + ' ' + QByteArray::number(m_paints[i].first, 'f', 1) + " ms";
        return m_paints.empty() ? out
                                : QByteArray::number(m_paints.size()) + " widgets, " + QByteArray::number(all, 'f', 1) +
                                      " ms: " + out;
    }

    struct Recent
    {
        qint64 endNs = 0;
        double ms = 0;
        double cpuMs = 0;
        QByteArray what;
    };
    int m_depth = 0;
    std::vector<std::pair<double, QByteArray>> m_paints; // the widget paints inside the current dispatch
    std::vector<Recent> m_recent;                        // the last dispatches of 1 ms or more
};

} // namespace wsbench
