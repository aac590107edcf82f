#include "engine/decode/threadpool.h"

#include <immintrin.h>

namespace ws {

namespace {
constexpr int kSpinIterations = 1 << 14;
constexpr uint64_t kClosed = uint64_t(1) << 31;
constexpr uint64_t kJoinOne = (uint64_t(1) << 16) | 1; // one more joined, one more inside
constexpr uint64_t kInsideMask = 0xffff;

int joinedCount(uint64_t s)
{
    return static_cast<int>((s >> 16) & 0x7fff);
}
} // namespace

ThreadPool::ThreadPool(int threadCount)
{
    if (threadCount <= 0)
        threadCount = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    m_threadCount = std::min(threadCount, 256);
    for (int i = 1; i < m_threadCount; ++i)
        m_workers.emplace_back([this, i] { workerLoop(i); });
}

ThreadPool::~ThreadPool()
{
    m_stop.store(true, std::memory_order_release);
    m_generation.fetch_add(1, std::memory_order_acq_rel);
    m_generation.notify_all();
    for (auto& t : m_workers)
        t.join();
}

void ThreadPool::runImpl(JobFunction fn, void* ctx, bool everyThread)
{
    // No worker is inside a job here (the previous call waited for them), so fn and ctx can be replaced.
    m_fn = fn;
    m_ctx = ctx;
    const uint32_t generation = m_generation.load(std::memory_order_relaxed) + 1;
    m_join.store(uint64_t(generation) << 32, std::memory_order_release);
    m_generation.store(generation, std::memory_order_release);
    m_generation.notify_all();
    fn(ctx, 0, m_threadCount);
    // Every thread's call (run) or those that joined in time (runClaimed: closing stops further joins).
    uint64_t s =
        everyThread ? m_join.load(std::memory_order_acquire) : m_join.fetch_or(kClosed, std::memory_order_acq_rel);
    int spins = 0;
    while ((s & kInsideMask) != 0 || (everyThread && joinedCount(s) < m_threadCount - 1)) {
        if (++spins < kSpinIterations)
            _mm_pause();
        else
            std::this_thread::yield();
        s = m_join.load(std::memory_order_acquire);
    }
}

void ThreadPool::workerLoop(int index)
{
    uint32_t seen = 0;
    for (;;) {
        uint32_t generation;
        int spins = 0;
        while ((generation = m_generation.load(std::memory_order_acquire)) == seen) {
            if (++spins < kSpinIterations)
                _mm_pause();
            else
                m_generation.wait(seen, std::memory_order_acquire);
        }
        seen = generation;
        if (m_stop.load(std::memory_order_acquire))
            return;
        // Join the job of this generation if it is still open; a later generation or a closed job is skipped.
        uint64_t s = m_join.load(std::memory_order_acquire);
        bool joined = false;
        while (uint32_t(s >> 32) == generation && !(s & kClosed) && !joined)
            joined =
                m_join.compare_exchange_weak(s, s + kJoinOne, std::memory_order_acq_rel, std::memory_order_acquire);
        if (!joined)
            continue;
        m_fn(m_ctx, index, m_threadCount);
        m_join.fetch_sub(1, std::memory_order_acq_rel);
    }
}

} // namespace ws
