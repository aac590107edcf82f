#include "engine/decode/threadpool.h"

#include <immintrin.h>

namespace ws {

namespace {
constexpr int kSpinIterations = 1 << 14;
}

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

void ThreadPool::runImpl(JobFunction fn, void* ctx)
{
    m_fn = fn;
    m_ctx = ctx;
    m_pending.store(m_threadCount - 1, std::memory_order_relaxed);
    m_generation.fetch_add(1, std::memory_order_acq_rel);
    m_generation.notify_all();
    fn(ctx, 0, m_threadCount);
    int spins = 0;
    while (m_pending.load(std::memory_order_acquire) != 0) {
        if (++spins < kSpinIterations)
            _mm_pause();
        else
            std::this_thread::yield();
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
        m_fn(m_ctx, index, m_threadCount);
        m_pending.fetch_sub(1, std::memory_order_acq_rel);
    }
}

} // namespace ws
