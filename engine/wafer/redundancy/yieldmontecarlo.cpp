#include "engine/wafer/redundancy/yieldmontecarlo.h"

#include "engine/wafer/redundancy/remap.h"

#include <cmath>

namespace ws {

Expected<MonteCarloYield> YieldMonteCarlo::run(const SpareLayout& layout, const MonteCarloOptions& options)
{
    if (options.trials < 1 || options.trials > 10'000'000)
        return makeError(ErrorCode::OutOfRange, "Monte Carlo needs 1..10000000 trials", "trials");
    DefectMap map = DefectMap::forLayout(layout);
    Remap remap;
    DefectRng rng(options.seed);
    MonteCarloYield out;
    out.trials = options.trials;
    double usable = 0;
    for (int t = 0; t < options.trials; ++t) {
        Status st = options.alpha > 0 ? DefectMap::fillClustered(map, layout, options.defectsPerMm2, options.alpha,
                                                                 options.scope, rng)
                                      : DefectMap::fillPoisson(map, layout, options.defectsPerMm2, rng);
        if (!st)
            return st.error();
        if (auto r = Remap::runInto(layout, map, remap); !r)
            return r.error();
        const DefectSummary& s = remap.summary();
        out.goodWafers += s.capacityLostCores == 0 && s.droppedRows == 0 ? 1 : 0;
        out.meanDeadCores += double(s.deadCores);
        out.meanUnrepairableSegments += double(s.unrepairableSegments);
        usable += s.nominalUsableCores > 0 ? double(s.usableCores) / double(s.nominalUsableCores) : 0.0;
    }
    const double n = options.trials;
    out.yield = double(out.goodWafers) / n;
    out.standardError = std::sqrt(out.yield * (1.0 - out.yield) / n);
    out.meanDeadCores /= n;
    out.meanUnrepairableSegments /= n;
    out.meanUsableFraction = usable / n;
    return out;
}

} // namespace ws
