#pragma once
// The thread pool that runs the app's background work: JobTracker's jobs and
// the deletes of makeSharedFreedInBackground. It is the app's own, not Qt's
// global pool: Qt's raster engine splits a large fill or image draw over the
// global pool's threads while the GUI thread waits for them, and on that pool
// the pieces queued behind a frame or placement job of ours (and ran at its
// lowered niceness), so a full-screen paint of 4 ms of CPU took 12-15 ms.

class QThreadPool;

namespace ws {

QThreadPool* backgroundPool();

} // namespace ws
