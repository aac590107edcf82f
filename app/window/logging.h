#pragma once
// The application's one log stream: spdlog with a coloured console sink on
// stderr (stdout stays free for output that scripts read). Qt's own messages
// (qDebug, qWarning, ...) are routed into it, tagged with their category.
// Info and above by default; --verbose shows debug messages too.

namespace ws {

void setupLogging(bool verbose);

} // namespace ws
