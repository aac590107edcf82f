#pragma once
// The JSON object `waferscope-cli predict --json` prints for one prediction; `compare` differences two of them.

#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/predict/prediction.h"
#include "engine/spec/workload.h"

#include <QJsonArray>
#include <QJsonObject>

namespace ws::cli {

QJsonObject predictionJson(const ModelConfig& model, const HardwareSpec& hardware, const Workload& workload,
                           const Prediction& prediction, const QJsonArray& notes);

} // namespace ws::cli
