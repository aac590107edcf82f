#pragma once
// One background job helper for every controller: start() runs a piece of
// work on the app's background pool and hands its result to a callback on the
// context object's thread. Each start() gets a new job id and makes every
// earlier job stale: a stale job still runs to its end, but its result goes
// to the (optional) stale callback, never to the current one, so a
// controller only ever shows the answer to its latest request. cancel()
// makes every running job stale without starting a new one. The work must
// own what it reads (capture by value): it runs on a worker thread.
//
//     m_jobs.start([request] { return compute(request); },
//                  [this](Result r) { show(r); });
//
// The tracker is a member of its context object; jobs still running when
// the context is destroyed deliver nothing. Work that throws delivers nothing
// either: the exception's text goes to onFailed's callback (the latest job's
// only), or, without one, to the application's reporter (the GUI shows it in
// a message box), and the tracker stays usable. The pool's threads run
// below the GUI thread (backgroundpool.h), so a frame or a placement made
// beside a streaming chat yields its core to the GUI thread at once instead
// of sharing it.

#include "app/common/backgroundpool.h"
#include "app/common/threadhandoff.h"

#include <QDebug>
#include <QFutureInterface>
#include <QFutureWatcher>
#include <QObject>
#include <QRunnable>
#include <QThreadPool>

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace ws {

class JobTracker
{
public:
    using JobId = quint64;

    explicit JobTracker(QObject* context) : m_context(context) {}
    JobTracker(const JobTracker&) = delete;
    JobTracker& operator=(const JobTracker&) = delete;

    // Runs `work()` (or `work(id)`, given the job's own id) off the GUI thread; `done(result)` runs on the
    // context's thread if this job is still the latest when it finishes, else `stale(result)` does.
    // Returns the job's id.
    template <typename Work, typename Done, typename Stale> JobId start(Work work, Done done, Stale stale)
    {
        const JobId id = ++m_latest;
        auto run = [work = std::move(work), id]() mutable {
            if constexpr (std::is_invocable_v<Work&, JobId>) {
                return work(id);
            } else {
                (void)id; // captured for the other branch (clang reports an unused capture otherwise)
                return work();
            }
        };
        using Result = std::invoke_result_t<decltype(run)&>;
        // The result, or null and the error. It travels in a slot both sides share, not in the future's result
        // store: the store's last owner destroys what the other thread wrote, ordered only by Qt's
        // uninstrumented reference count, while the slot's own count is one ThreadSanitizer sees.
        using Outcome = std::pair<std::shared_ptr<Result>, QString>;
        auto slot = std::make_shared<Outcome>();
        if (m_running++ == 0 && m_busyChanged)
            m_busyChanged(true);
        auto* watcher = new QFutureWatcher<void>(m_context);
        QObject::connect(watcher, &QFutureWatcher<void>::finished, m_context,
                         [this, watcher, slot, id, done = std::move(done), stale = std::move(stale)]() mutable {
                             watcher->deleteLater();
                             handoff::acquire(slot.get());
                             Outcome outcome = std::move(*slot);
                             --m_running;
                             if (!outcome.first)
                                 failed(id, outcome.second);
                             else if (id == m_latest.load())
                                 done(std::move(*outcome.first));
                             else
                                 stale(std::move(*outcome.first));
                             if (m_running == 0 && m_busyChanged)
                                 m_busyChanged(false);
                         });
        QFutureInterface<void> promise;
        promise.reportStarted();
        watcher->setFuture(promise.future());
        backgroundPool()->start(new Job<Outcome, decltype(run)>(std::move(promise), std::move(slot), std::move(run)));
        return id;
    }

    template <typename Work, typename Done> JobId start(Work work, Done done)
    {
        return start(std::move(work), std::move(done), [](auto&&) {});
    }

    // Makes every running job stale (their results are dropped).
    void cancel() { ++m_latest; }
    // The id of the latest start() or cancel() (0 before any).
    JobId latestId() const { return m_latest.load(); }
    // Whether job `id` is still the latest; safe on any thread (long work may poll it to stop early).
    bool isCurrent(JobId id) const { return id == m_latest.load(); }
    // Jobs started and not yet delivered, stale ones included.
    int running() const { return m_running; }
    bool isBusy() const { return m_running > 0; }
    // Called on the context's thread with the exception's text when the latest job's work threw.
    void onFailed(std::function<void(const QString&)> callback) { m_failed = std::move(callback); }
    // For trackers without onFailed (set once by the application); without it the text is logged.
    static void setFailureReporter(std::function<void(const QString&)> reporter)
    {
        failureReporter() = std::move(reporter);
    }
    // Called on the context's thread when the first job starts (true) and the last one is delivered (false).
    void onBusyChanged(std::function<void(bool)> callback) { m_busyChanged = std::move(callback); }

private:
    // The work on the background pool (as QtConcurrent::run on a pool), its start told to ThreadSanitizer: the job is
    // built on the context's thread and runs on a pooled one after Qt's (uninstrumented) queue handed it over.
    template <typename Outcome, typename Run> class Job final : public QRunnable
    {
    public:
        Job(QFutureInterface<void> promise, std::shared_ptr<Outcome> slot, Run run)
            : m_promise(std::move(promise)), m_slot(std::move(slot)), m_run(std::move(run))
        {
            handoff::release(this);
        }
        void run() override
        {
            handoff::acquire(this);
            runBelowTheGui();
            *m_slot = outcome();
            handoff::release(m_slot.get()); // the finished signal, queued by Qt, reads the slot after this
            m_promise.reportFinished();
        }

    private:
        Outcome outcome()
        {
            using Result = typename Outcome::first_type::element_type;
            try {
                return {std::make_shared<Result>(m_run()), QString()};
            } catch (const std::exception& e) {
                return {nullptr, QString::fromLocal8Bit(e.what())};
            } catch (...) {
                return {nullptr, QStringLiteral("unknown exception")};
            }
        }

        QFutureInterface<void> m_promise;
        std::shared_ptr<Outcome> m_slot;
        Run m_run;
    };

    static std::function<void(const QString&)>& failureReporter()
    {
        static std::function<void(const QString&)> reporter;
        return reporter;
    }
    void failed(JobId id, const QString& error)
    {
        if (m_failed) {
            if (id == m_latest.load())
                m_failed(error);
        } else if (failureReporter()) {
            failureReporter()(error);
        } else {
            qCritical().noquote() << "background job failed:" << error;
        }
    }

    QObject* m_context;
    std::atomic<JobId> m_latest{0};
    int m_running = 0;
    std::function<void(bool)> m_busyChanged;
    std::function<void(const QString&)> m_failed;
};

} // namespace ws
