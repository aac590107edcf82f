#include "engine/explore/layoutoptimizer.h"

namespace ws {

Expected<OptimizeResult> optimizeLayout(const ScenarioSpec& base, const OptimizeOptions& options)
{
    PlacementCache cache(16);
    OptimizeResult r;
    ScenarioSpec first = base;
    first.weightFill = 0.8;
    first.order = LayerOrder::Snake;
    first.bandsPerDevice = 0;
    // It weighs each candidate by its time per token and wafers alone: the point of each prediction.
    constexpr PredictDetail kPoint{.pointOnly = true};
    auto start = predictPlaced(first, &cache, &r.defaultLayout, kPoint);
    if (!start)
        return start.error();
    r.defaultMsPerToken = 1e3 * start->secondsPerToken;
    r.defaultWafers = start->devices;
    r.best = r.defaultLayout;
    r.bestMsPerToken = r.defaultMsPerToken;
    r.bestWafers = r.defaultWafers;
    r.candidates = 1;
    const int budget = options.maxWafers > 0 ? options.maxWafers : r.defaultWafers;
    const std::vector<ExpertLayout> experts =
        base.model.isMoe() && !options.experts.empty() ? options.experts : std::vector<ExpertLayout>{base.experts};
    const int total = int(options.fills.size() * options.orders.size() * experts.size()) * (options.maxBands + 1);
    int done = 0;
    for (ExpertLayout expertLayout : experts)
        for (double fill : options.fills)
            for (LayerOrder order : options.orders)
                for (int bands = 0; bands <= options.maxBands; ++bands) {
                    ++done;
                    if (options.progress && !options.progress(done, total))
                        return makeError(ErrorCode::Cancelled, "the optimiser was cancelled", "optimize");
                    ScenarioSpec b = base;
                    b.weightFill = fill;
                    b.order = order;
                    b.bandsPerDevice = bands;
                    b.experts = expertLayout;
                    Layout layout;
                    auto p = predictPlaced(b, &cache, &layout, kPoint);
                    if (!p || p->devices > budget)
                        continue;
                    ++r.candidates;
                    const double ms = 1e3 * p->secondsPerToken;
                    if (ms < r.bestMsPerToken) {
                        layout.origin = "optimizer";
                        r.best = std::move(layout);
                        r.bestMsPerToken = ms;
                        r.bestWafers = p->devices;
                    }
                    cache.clear(); // each candidate is placed once: keep the memory flat
                }
    return r;
}

} // namespace ws
