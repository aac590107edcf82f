#pragma once
// Large engine results freed off the GUI thread. A mesh engine's run of one
// layer holds hundreds of megabytes of per-core state; whoever lets go of it
// last (the Dataflow dock, the inspector, a frame in flight) would spend
// 15-20 ms in free() and munmap on the GUI thread, seen when a tour turned from
// an engine layer back to the whole token. makeSharedFreedInBackground gives a
// shared_ptr whose deleter hands the object to the app's background pool; with
// no application (or pool) left it deletes in place.

#include "app/common/backgroundpool.h"
#include "app/common/threadhandoff.h"

#include <QCoreApplication>
#include <QThreadPool>

#include <memory>
#include <utility>

namespace ws {

template <typename T, typename... Args> std::shared_ptr<const T> makeSharedFreedInBackground(Args&&... args)
{
    return std::shared_ptr<const T>(new T(std::forward<Args>(args)...), [](const T* object) {
        QThreadPool* pool = QCoreApplication::instance() ? backgroundPool() : nullptr;
        if (!pool) {
            delete object;
            return;
        }
        handoff::release(object); // the last holder's work happens before the pooled delete
        pool->start([object] {
            handoff::acquire(object);
            runBelowTheGui();
            delete object;
        });
    });
}

} // namespace ws
