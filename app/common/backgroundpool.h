#pragma once
// The thread pool that runs the app's background work: JobTracker's jobs and
// the deletes of makeSharedFreedInBackground. It is the app's own, not Qt's
// global pool: Qt's raster engine splits a large fill or image draw over the
// global pool's threads while the GUI thread waits for them, and on that pool
// the pieces queued behind a frame or placement job of ours, so a full-screen
// paint of 4 ms of CPU took 12-15 ms.
//
// Its threads run below the GUI thread but are never starved: on Linux each
// one, at its first job (runBelowTheGui), takes the batch policy at niceness 10.
// - Niceness 10 weighs a pool thread at about a tenth of the GUI thread's.
// - SCHED_BATCH keeps a pool thread that wakes for a new job from preempting
//   the GUI thread; it waits for the scheduler's tick instead.
// - Not SCHED_IDLE, tried before (e4a5aa8): an idle-policy thread runs only
//   while nothing else on the machine wants a core. With a build of any
//   niceness on both cores, the Dataflow dock's frames were never prepared
//   (tst_windowlayout: no new frame in 400 ms) and a placement would wait for
//   the build to end.
// Elsewhere the pool runs at Qt's default priority.

class QThreadPool;

namespace ws {

QThreadPool* backgroundPool();

// Called first by every job of the pool (JobTracker, makeSharedFreedInBackground): lowers the calling thread as
// above, once per thread. On a thread of another pool, or off Linux, it does nothing.
void runBelowTheGui();

} // namespace ws
