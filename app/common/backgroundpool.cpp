#include "app/common/backgroundpool.h"

#include <QThreadPool>

namespace ws {

Q_GLOBAL_STATIC(QThreadPool, theBackgroundPool)

QThreadPool* backgroundPool()
{
    return theBackgroundPool();
}

} // namespace ws
