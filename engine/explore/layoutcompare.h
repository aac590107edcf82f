#pragma once
// The differences B - A between two predictions (two layouts of a model): what
// `waferscope-cli compare` prints and what the window's compare table shows,
// both from comparePredictions, so the two can never disagree. Each quantity
// keeps its id (the key `predict --json` prints it under), both values and
// the difference; the time per token by phase is compared phase by phase over
// the phases either prediction has (a phase one lacks counts as 0 there).

#include "engine/predict/prediction.h"
#include "engine/wafer/dataflow/schedule.h"
#include "engine/wafer/placement/meshsnapshot.h"

#include <string>
#include <vector>

namespace ws {

struct ComparedQuantity
{
    std::string id; // "tokens_per_second_per_user", "ttft_ms", ... or a phase id
    double a = 0;
    double b = 0;
    double delta() const { return b - a; }
};

struct PredictionDelta
{
    // tokens_per_second_per_user, ttft_ms, ms_per_token, devices, sram_headroom_bytes, kv_capacity_tokens,
    // max_concurrency, aggregate_tokens_per_second, in that order.
    std::vector<ComparedQuantity> quantities;
    std::vector<ComparedQuantity> phasesMs; // ms per token by phase, sorted by phase id
};

PredictionDelta comparePredictions(const Prediction& a, const Prediction& b);

// The difference layer of two layouts on the same mesh: one signed value per core of B's wafers, B - A.
struct MeshDifference
{
    enum class Kind
    {
        SramBytes,
        RegionTimeMs
    };
    Kind kind = Kind::SramBytes;
    int meshCols = 0;
    int meshRows = 0;
    int deviceCount = 0;                    // B's
    std::vector<std::vector<float>> values; // [device][core] row-major; a wafer A lacks counts as empty there
    double largest = 0;                     // the largest |value| (0: the layouts agree everywhere)
};

// Bytes used per core, B - A (from each snapshot's SRAM fraction and core SRAM). Empty (no devices) when the
// two snapshots are of different meshes.
MeshDifference sramDifference(const MeshSnapshot& a, const MeshSnapshot& b);
// Per transformer layer, the time of one token in its region (first phase start to last phase end of that layer,
// in ms), B - A, drawn over every core of B's region of that layer. Empty when the meshes differ.
MeshDifference regionTimeDifference(const MeshSnapshot& a, const TokenSchedule& ta, const MeshSnapshot& b,
                                    const TokenSchedule& tb);
// The time in ms each transformer layer's phases span in one token (index = layer; 0 for a layer with no phase).
std::vector<double> layerTimesMs(const TokenSchedule& schedule);

} // namespace ws
