#pragma once
// Sweeps of a wafer layout's design space: one or two parameters (weight
// fill, context, precision, wafer count, concurrency, layer order, region
// aspect as bands per wafer, hop latency as a factor on each hop's cost) over
// given values, every point placed (placeModel with the point's options),
// taken as a layout (layoutOf) and predicted through the wafer predictor with
// that layout. Points are numbered in row-major order of the axes, so a sweep
// split into shards (contiguous index ranges, sweepShard) and merged again
// (mergeSweeps) is the unsharded sweep, byte for byte: that is what lets a
// sweep larger than one machine run as a Slurm job array or under GNU parallel.
// Formatting (CSV and JSON) lives here too, so every shard writes numbers the
// same way; the CLI only parses and prints.

#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/predict/placementcache.h"
#include "engine/predict/prediction.h"
#include "engine/spec/scenariospec.h"
#include "engine/spec/workload.h"
#include "engine/wafer/placement/layout.h"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

enum class SweepParameter
{
    Fill,
    Context,
    Precision,
    Wafers,
    Concurrency,
    Order,
    Aspect,
    HopLatency,
    Experts, // a mixture-of-experts model's expert layout: blocks, sliced
};
// "fill", "context", "precision", "wafers", "concurrency", "order", "aspect", "hop-latency", "experts"
const char* sweepParameterId(SweepParameter p);
// Every parameter a sweep takes, in the order the command line and the Sweep dock list them.
std::span<const SweepParameter> sweepParameters();

struct SweepAxis
{
    SweepParameter parameter = SweepParameter::Fill;
    std::vector<std::string> values; // as written: "0.7", "bf16", "row-major", "3"
};
// "fill=0.6:0.9:0.1" (numbers lo:hi:step) or "order=snake,row-major" (a list).
Expected<SweepAxis> parseSweepAxis(std::string_view text);

// Everything a point starts from; each axis overrides one of these.

struct SweepPoint
{
    int64_t index = 0;
    std::vector<std::string> values; // one per axis
    std::string error;               // empty when predicted
    double msPerToken = 0;
    double tokensPerSecondPerUser = 0;
    double ttftMs = 0;
    int devices = 0;
    int64_t kvCapacityTokens = 0;
    int64_t sramHeadroomBytes = 0;
};

struct SweepResult
{
    std::vector<SweepAxis> axes;
    int64_t totalPoints = 0;
    int shard = 1; // 1-based; the merged or unsharded sweep is 1 of 1
    int shards = 1;
    std::vector<SweepPoint> points;
};

// The prediction of one configuration placed as a layout: the placement options' layout through predictWafer.
// `layout` receives the layout when not null. `detail` null: the whole prediction; else its detail options (a
// sweep's points: WaferPredictOptions::noRange; the optimiser's: pointOnly).
struct PredictDetail
{
    bool noRange = false;
    bool pointOnly = false;
};
Expected<Prediction> predictPlaced(const ScenarioSpec& base, PlacementCache* cache, Layout* layout = nullptr,
                                   PredictDetail detail = {});

int64_t sweepPointCount(const std::vector<SweepAxis>& axes);
// Points [count * (shard - 1) / shards, count * shard / shards) of the sweep (shard is 1-based).
// `progress`, when given, is called after each point with (done, of this shard's points); returning false
// cancels (an error with code Cancelled).
Expected<SweepResult> runSweep(const ScenarioSpec& base, const std::vector<SweepAxis>& axes, int shard = 1,
                               int shards = 1, const std::function<bool(int64_t, int64_t)>& progress = {});
// The base with point `index`'s axis values applied (what runSweep predicted for it): to open that point's layout.
Expected<ScenarioSpec> sweepPointBase(const ScenarioSpec& base, const std::vector<SweepAxis>& axes, int64_t index);

// The Pareto front of a sweep's predicted points: indices into r.points of the points no other point beats on
// both tokens/s per user (higher is better) and wafers (fewer is better) or, with `againstKv`, KV capacity
// (more is better); sorted by that second quantity.
std::vector<size_t> paretoFront(const SweepResult& r, bool againstKv);

std::string sweepCsv(const SweepResult& r);
std::string sweepJson(const SweepResult& r);
// Shards of one sweep (all CSV or all JSON, as written by sweepCsv/sweepJson) as the unsharded sweep's text.
Expected<std::string> mergeSweeps(const std::vector<std::string>& shards);

} // namespace ws
