#pragma once
// Data tables for export from the engine's results: predictions (one row per
// system, with the workload they answer and the preset sources they rest on),
// a prediction's per-phase breakdown of one token, and the wafer's per-token
// dataflow schedule (every phase with its cores and cycles).

#include "app/export/datatable.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/predict/prediction.h"
#include "engine/spec/workload.h"

#include <vector>

namespace ws {

struct TokenSchedule;

class PredictionTables
{
public:
    // `hardware` supplies the sources (field -> citation) of each system, matched by id.
    static DataTable predictions(const std::vector<Prediction>& predictions, const Workload& workload,
                                 const std::vector<HardwareSpec>& hardware);
    static DataTable breakdown(const Prediction& prediction);
    static DataTable schedule(const TokenSchedule& schedule);
    static QJsonObject workloadJson(const Workload& workload);
};

} // namespace ws
