#pragma once
// Layout files for the CLI (engine/wafer/placement/layoutjson.h on disk): read with a one-line error naming the
// file, written whole or not at all.

#include "engine/wafer/placement/layout.h"

#include <QString>

#include <optional>

namespace ws::cli {

std::optional<Layout> readLayoutFile(const QString& path, QString* error);
bool writeLayoutFile(const QString& path, const Layout& layout, QString* error);

} // namespace ws::cli
