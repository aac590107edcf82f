#pragma once
// The thread pool that runs the app's background work: JobTracker's jobs and
// the deletes of makeSharedFreedInBackground. It is the app's own, not Qt's
// global pool: Qt's raster engine splits a large fill or image draw over the
// global pool's threads while the GUI thread waits for them, and on that pool
// the pieces queued behind a frame or placement job of ours, so a full-screen
// paint of 4 ms of CPU took 12-15 ms.
//
// Its threads run under Linux's idle policy (QThread::IdlePriority is
// SCHED_IDLE there): they take a core only while no ordinary thread wants it,
// and a thread of the GUI waking up takes its core back at once. At niceness
// 10, as before, a woken pool thread still kept the core it was given until
// the scheduler's next tick: on a 2-core VM the GUI thread waited up to 4.4
// ms for it, 67 times in 20 s of bench_present (perf sched:sched_switch),
// 243 ms in all. Elsewhere the pool runs at what Qt's IdlePriority gives.

class QThreadPool;

namespace ws {

QThreadPool* backgroundPool();

} // namespace ws
