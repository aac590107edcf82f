#pragma once
// The layout optimiser: searches region shapes (bands of layer regions per
// wafer), layer order, weight fill and, for a mixture-of-experts model, where
// its experts sit (engine/wafer/placement/expertlayout.h) for the lowest time per token, every
// candidate placed by the placer (so under the SRAM limit by construction,
// and checked again) and predicted through the wafer predictor with that
// layout, within a wafer budget. It starts from the default placement (fill
// 0.8, snake order, the squarest bands, the base's expert layout), which is the first candidate, so the
// result is never slower than the default; a candidate replaces the best only
// when strictly faster.

#include "engine/core/error.h"
#include "engine/explore/layoutsweep.h"

#include <functional>
#include <vector>

namespace ws {

struct OptimizeOptions
{
    int maxWafers = 0; // 0: as many as the default placement uses
    std::vector<double> fills{0.8, 0.6, 0.65, 0.7, 0.75, 0.85, 0.9, 0.95};
    std::vector<LayerOrder> orders{LayerOrder::Snake, LayerOrder::RowMajor, LayerOrder::ColumnMajor};
    int maxBands = 8; // bands per wafer tried: 0 (the squarest) and 1..maxBands
    // Expert layouts tried for a mixture-of-experts model (a dense model keeps the base's).
    std::vector<ExpertLayout> experts{ExpertLayout::Blocks, ExpertLayout::Sliced};
    // Called after each candidate with (done, total); returning false cancels (an error with code Cancelled).
    std::function<bool(int, int)> progress;
};

struct OptimizeResult
{
    Layout defaultLayout;
    Layout best;
    double defaultMsPerToken = 0;
    double bestMsPerToken = 0;
    int defaultWafers = 0;
    int bestWafers = 0;
    int candidates = 0; // placed and predicted
};

// `base` gives the model, hardware and workload (its fill, order and bands are the default's; its expert layout
// is the default's too).
Expected<OptimizeResult> optimizeLayout(const ScenarioSpec& base, const OptimizeOptions& options = {});

} // namespace ws
