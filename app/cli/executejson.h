#pragma once
// The JSON of `waferscope-cli execute` for one mesh engine run: cycles, critical path, phases (engine and
// closed-form cycles), link totals with the busiest links, the busiest cores.

#include "engine/wafer/mesh/meshengine.h"

#include <QJsonObject>

namespace ws::cli {

QJsonObject meshRunJson(const MeshRun& run);

} // namespace ws::cli
