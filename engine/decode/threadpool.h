#pragma once
// A small persistent thread pool for the per-token matrix-vector work. The
// threads are started once; run() hands every thread (the caller is thread
// 0) the same job and returns when all have finished. Nothing is allocated
// per call: the job is passed as a plain function pointer plus context. Idle
// workers spin briefly (a token's matmuls follow each other within
// microseconds) and then sleep on an atomic wait, so an idle pool costs no CPU.
//
// runClaimed() is for jobs that take their work from a shared counter (the
// matmuls): the job runs on the caller and on every worker that arrives while
// the caller is still in its own call, and returns once those have finished.
// A worker that is not running (the OS gave its core to another process) is
// not waited for: it takes no part in that job, and the caller does its share.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace ws {

class ThreadPool
{
public:
    // threadCount <= 0 means one thread per hardware core.
    explicit ThreadPool(int threadCount = 0);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int threadCount() const { return m_threadCount; }

    // Calls job(threadIndex, threadCount) on every thread and waits for all.
    template <typename Job> void run(Job&& job) { dispatch(std::forward<Job>(job), true); }

    // Calls job(threadIndex, threadCount) on this thread and on the workers that join in time (see above);
    // the job must claim its work dynamically, so that any subset of the threads completes it.
    template <typename Job> void runClaimed(Job&& job) { dispatch(std::forward<Job>(job), false); }

    // Calls job(begin, end) for [0, n) in ranges of `grain` that the threads claim in turn (runClaimed): row-wise work
    // between a batch's matmuls (norms, activations), which one thread left the others waiting for. n <= grain
    // runs here in one call.
    template <typename Job> void forRanges(int n, int grain, Job&& job)
    {
        if (n <= grain || m_threadCount == 1) {
            if (n > 0)
                job(0, n);
            return;
        }
        std::atomic<int> next{0};
        runClaimed([&](int, int) {
            for (int b = next.fetch_add(grain, std::memory_order_relaxed); b < n;
                 b = next.fetch_add(grain, std::memory_order_relaxed))
                job(b, std::min(n, b + grain));
        });
    }

    // Splits [0, n) into one contiguous range per thread: [begin, end) for `index`.
    static void split(int n, int index, int count, int& begin, int& end)
    {
        const int64_t b = int64_t(n) * index / count;
        const int64_t e = int64_t(n) * (index + 1) / count;
        begin = static_cast<int>(b);
        end = static_cast<int>(e);
    }

private:
    using JobFunction = void (*)(void*, int, int);

    template <typename Job> void dispatch(Job&& job, bool everyThread)
    {
        if (m_threadCount == 1) {
            job(0, 1);
            return;
        }
        runImpl(
            [](void* ctx, int index, int count) { (*static_cast<std::remove_reference_t<Job>*>(ctx))(index, count); },
            &job, everyThread);
    }
    void runImpl(JobFunction fn, void* ctx, bool everyThread);
    void workerLoop(int index);

    int m_threadCount = 1;
    std::vector<std::thread> m_workers;
    std::atomic<uint32_t> m_generation{0};
    // The current job's admission: generation (high 32 bits), closed (bit 31), workers that joined (bits 16-30),
    // workers still in the job (bits 0-15). A worker joins only while the job is open and of its generation.
    std::atomic<uint64_t> m_join{0};
    std::atomic<bool> m_stop{false};
    JobFunction m_fn = nullptr;
    void* m_ctx = nullptr;
};

} // namespace ws
