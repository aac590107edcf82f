#include "app/cli/cliutil.h"
#include "app/cli/commands.h"

namespace ws::cli {

int runRender(const QStringList& args)
{
    Q_UNUSED(args);
    return fail(QStringLiteral("'render' is not available in this build yet"));
}

} // namespace ws::cli
