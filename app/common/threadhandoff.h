#pragma once
// What Qt hands from one thread to another, told to ThreadSanitizer. Qt is
// not built with TSan: the mutexes of its thread pool and event queues are
// invisible to it, so a job built on the GUI thread and run on a pooled
// thread, or a functor queued to another thread's event loop, looks like a
// race to TSan although Qt orders it. The tsan preset builds with these
// annotations; every other build compiles them away.
//
// - release(p) on the sending thread, then acquire(p) on the receiving one:
//   what the sender did before release happens before what the receiver does
//   after acquire (p is any address both sides agree on).
// - queued(f) wraps a functor given to QMetaObject::invokeMethod(...,
//   Qt::QueuedConnection): it is built, with all it captured, before Qt takes
//   it, and the receiving thread acquires before it reads any capture (or
//   destroys it undelivered). A real race of ours (state both threads touch
//   outside such a hand-off) is still reported: tst_tsan_detects.
//
// Only what Qt itself guarantees may be annotated: a queued call or a job's
// start runs after it was posted; a thread's work ends before QThread::wait()
// returns.

#include <type_traits>
#include <utility>

#if defined(__SANITIZE_THREAD__)
#define WS_THREAD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define WS_THREAD_SANITIZER 1
#endif
#endif

#ifdef WS_THREAD_SANITIZER
#include <sanitizer/tsan_interface.h>
#endif

namespace ws::handoff {

inline void release([[maybe_unused]] const void* token)
{
#ifdef WS_THREAD_SANITIZER
    __tsan_release(const_cast<void*>(token));
#endif
}

inline void acquire([[maybe_unused]] const void* token)
{
#ifdef WS_THREAD_SANITIZER
    __tsan_acquire(const_cast<void*>(token));
#endif
}

// A functor for another thread's event loop; see above. Its token is its own address: each copy or move
// releases there after the functor is in place, and the call (or the destruction) acquires it first.
template <typename F> class Queued
{
public:
    explicit Queued(F f) : m_f(std::move(f)) { release(this); }
    Queued(const Queued& other) : m_f(other.m_f) { release(this); }
    Queued(Queued&& other) noexcept(std::is_nothrow_move_constructible_v<F>) : m_f(std::move(other.m_f))
    {
        release(this);
    }
    Queued& operator=(const Queued&) = delete;
    Queued& operator=(Queued&&) = delete;
    ~Queued() { acquire(this); }

    template <typename... Args> decltype(auto) operator()(Args&&... args)
    {
        acquire(this);
        return m_f(std::forward<Args>(args)...);
    }

private:
    F m_f;
};

template <typename F> Queued<std::decay_t<F>> queued(F&& f)
{
    return Queued<std::decay_t<F>>(std::forward<F>(f));
}

} // namespace ws::handoff
