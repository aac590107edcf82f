#pragma once
// The dataflow of one decode token for the placement the main window shows:
// the engine's schedule of the result's scene (scheduleScene,
// engine/scene/scene.h), the constants it was timed with and their sources,
// and the KV capacity of the first layer's region under both KV layouts
// (concat vs shift).

#include "app/common/placementresult.h"
#include "engine/wafer/dataflow/kvcapacity.h"
#include "engine/wafer/dataflow/schedule.h"
#include "engine/wafer/dataflow/timingparams.h"

#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace ws {

struct DataflowSetup
{
    std::shared_ptr<const TokenSchedule> schedule;
    std::vector<ParamInfo> params; // TimingParams with sources
    std::optional<KvCapacity> kv;  // layer 0's region
    KvPlacement kvPlacement = KvPlacement::Shift;
};

std::optional<DataflowSetup> buildDataflowSetup(const PlacementResult& result, KvPlacement kv, QString* error);

} // namespace ws
