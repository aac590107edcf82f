#include "engine/wafer/redundancy/yieldcurves.h"

#include "engine/wafer/redundancy/yieldmodel.h"
#include "engine/wafer/redundancy/yieldmontecarlo.h"

#include <cmath>

namespace ws {

namespace {

double logSpaced(double lo, double hi, int i, int n)
{
    if (n < 2)
        return lo;
    return std::exp(std::log(lo) + (std::log(hi) - std::log(lo)) * double(i) / double(n - 1));
}

} // namespace

Expected<YieldCurves> computeYieldCurves(const YieldCurveRequest& r)
{
    if (!(r.minDefectsPerMm2 > 0) || !(r.maxDefectsPerMm2 > r.minDefectsPerMm2) || !std::isfinite(r.maxDefectsPerMm2) ||
        r.maxDefectsPerMm2 > 1e3)
        return makeError(ErrorCode::OutOfRange, "defect density range must be 0 < min < max <= 1000 per mm²", "D0");
    if (r.points < 2 || r.points > 10000 || r.monteCarloPoints < 0 || r.monteCarloPoints > 1000)
        return makeError(ErrorCode::OutOfRange, "2..10000 curve points and 0..1000 Monte Carlo points", "points");
    if (!(r.alpha > 0) || !std::isfinite(r.alpha))
        return makeError(ErrorCode::OutOfRange, "clustering alpha must be a positive number", "alpha");
    if (r.layout.physicalCoreCount() == 0)
        return makeError(ErrorCode::InvalidArgument, "no spare layout given", "layout");
    const double area = r.areaMm2 > 0 ? r.areaMm2 : r.layout.physicalAreaMm2();
    if (!(area > 0) || !std::isfinite(area))
        return makeError(ErrorCode::InvalidArgument, "die area must be positive", "areaMm2");

    YieldCurves c;
    c.areaMm2 = area;
    c.alpha = r.alpha;
    c.spareFraction = r.layout.spareFraction();
    c.segmentPrimaryCores = r.layout.segmentPrimaryCores();
    c.segmentSpareCores = r.layout.segmentSpareCores();
    const bool segments = r.layout.scheme() == SpareScheme::RowShift && r.layout.coreAreaMm2() > 0;
    for (int i = 0; i < r.points; ++i) {
        const double d0 = logSpaced(r.minDefectsPerMm2, r.maxDefectsPerMm2, i, r.points);
        c.defectsPerMm2.push_back(d0);
        c.poisson.push_back(YieldModel::poisson(area, d0));
        c.murphy.push_back(YieldModel::murphy(area, d0));
        c.seeds.push_back(YieldModel::seeds(area, d0));
        c.negativeBinomial.push_back(YieldModel::negativeBinomial(area, d0, r.alpha));
        if (segments)
            c.redundantWafer.push_back(YieldModel::redundantWafer(r.layout, d0).waferYield);
    }
    for (int i = 0; i < r.monteCarloPoints; ++i) {
        MonteCarloOptions o;
        o.defectsPerMm2 = logSpaced(r.minDefectsPerMm2, r.maxDefectsPerMm2, i, r.monteCarloPoints);
        o.trials = r.monteCarloTrials;
        o.seed = r.seed + uint64_t(i);
        const auto mc = YieldMonteCarlo::run(r.layout, o);
        if (!mc)
            return mc.error();
        c.monteCarlo.push_back({o.defectsPerMm2, mc->yield, mc->standardError, mc->meanUsableFraction});
    }
    return c;
}

} // namespace ws
