#pragma once
// The JSON of `waferscope-cli execute` for one mesh engine run: cycles, critical path, phases (engine and
// closed-form cycles), link totals with the busiest links, the busiest cores; the calibrated closed forms beside.

#include "engine/hardware/hardwarespec.h"
#include "engine/wafer/mesh/meshengine.h"

#include <QJsonObject>

namespace ws::cli {

QJsonObject meshRunJson(const MeshRun& run);

// Adds to each phase of `out` (from meshRunJson) the cycles of the closed forms as the predictions use them
// (the shipped WaferLLM calibration: fitted c_mac, c_0, beta), and their total; `layer` -1: the whole token.
void addCalibratedClosedForms(QJsonObject& out, const Placement& placement, const ModelConfig& model,
                              const WaferSpec& wafer, int64_t context, int layer);

} // namespace ws::cli
