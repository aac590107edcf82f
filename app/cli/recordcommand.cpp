#include "app/cli/cliutil.h"
#include "app/cli/commands.h"

namespace ws::cli {

int runRecord(const QStringList& args)
{
    Q_UNUSED(args);
    return fail(QStringLiteral("'record' is not available in this build yet"));
}

} // namespace ws::cli
