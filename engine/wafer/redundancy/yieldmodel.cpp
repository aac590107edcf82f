#include "engine/wafer/redundancy/yieldmodel.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ws {

double YieldModel::poisson(double areaMm2, double defectsPerMm2)
{
    return std::exp(-areaMm2 * defectsPerMm2);
}

double YieldModel::murphy(double areaMm2, double defectsPerMm2)
{
    const double x = areaMm2 * defectsPerMm2;
    if (x < 1e-12)
        return 1.0 - x; // series: ((1 - e^-x)/x)^2 = 1 - x + O(x^2)
    const double f = -std::expm1(-x) / x;
    return f * f;
}

double YieldModel::seeds(double areaMm2, double defectsPerMm2)
{
    return 1.0 / (1.0 + areaMm2 * defectsPerMm2);
}

double YieldModel::negativeBinomial(double areaMm2, double defectsPerMm2, double alpha)
{
    if (!(alpha > 0) || std::isinf(alpha))
        return poisson(areaMm2, defectsPerMm2);
    return std::exp(-alpha * std::log1p(areaMm2 * defectsPerMm2 / alpha));
}

double YieldModel::evaluate(YieldFormula formula, double areaMm2, double defectsPerMm2, double alpha)
{
    switch (formula) {
    case YieldFormula::Poisson:
        return poisson(areaMm2, defectsPerMm2);
    case YieldFormula::Murphy:
        return murphy(areaMm2, defectsPerMm2);
    case YieldFormula::Seeds:
        return seeds(areaMm2, defectsPerMm2);
    case YieldFormula::NegativeBinomial:
        return negativeBinomial(areaMm2, defectsPerMm2, alpha);
    }
    return 0.0;
}

double YieldModel::coreFailureProbability(double coreAreaMm2, double defectsPerMm2)
{
    return -std::expm1(-coreAreaMm2 * defectsPerMm2);
}

double YieldModel::segmentFailureProbability(int primaryCores, int spareCores, double p)
{
    const int m = primaryCores + spareCores;
    const int first = spareCores + 1;
    if (first > m || !(p > 0))
        return 0.0;
    if (p >= 1.0)
        return 1.0;
    const double logP = std::log(p);
    const double logQ = std::log1p(-p);
    // term(k) = C(m, k) p^k (1-p)^(m-k); the recurrence term(k+1) = term(k) (m-k)/(k+1) p/(1-p).
    const double logFirst = std::lgamma(m + 1.0) - std::lgamma(first + 1.0) - std::lgamma(m - first + 1.0) +
                            first * logP + (m - first) * logQ;
    double term = std::exp(logFirst);
    double sum = 0;
    const double ratio = p / (1.0 - p);
    for (int k = first; k <= m; ++k) {
        sum += term;
        const double next = term * double(m - k) / double(k + 1) * ratio;
        if (next < sum * 1e-18 && double(k) > double(m) * p)
            break; // past the mode and negligible
        term = next;
    }
    return std::min(sum, 1.0);
}

SegmentYield YieldModel::redundantWafer(int64_t segments, int primaryCores, int spareCores, double coreAreaMm2,
                                        double defectsPerMm2)
{
    SegmentYield y;
    y.segments = segments;
    y.physicalCores = segments * (primaryCores + spareCores);
    y.coreFailureProbability = coreFailureProbability(coreAreaMm2, defectsPerMm2);
    y.segmentFailureProbability = segmentFailureProbability(primaryCores, spareCores, y.coreFailureProbability);
    y.waferYield = std::exp(double(segments) * std::log1p(-y.segmentFailureProbability));
    y.expectedDeadCores = y.coreFailureProbability * double(y.physicalCores);
    return y;
}

SegmentYield YieldModel::redundantWafer(const SpareLayout& layout, double defectsPerMm2)
{
    const int n = layout.segmentPrimaryCores();
    const int s = layout.segmentSpareCores();
    const int perRow = layout.segmentsPerRow();
    SegmentYield y = redundantWafer(int64_t(perRow) * layout.fabricRows(), n, s, layout.coreAreaMm2(), defectsPerMm2);
    const int last = layout.segmentPrimaryCount(perRow - 1);
    if (layout.scheme() == SpareScheme::RowShift && last != n && perRow > 0) {
        // Rows end in a shorter segment: (perRow - 1) full segments and one of last + s cores per row.
        const double pFull = y.segmentFailureProbability;
        const double pLast = segmentFailureProbability(last, s, y.coreFailureProbability);
        const double rows = layout.fabricRows();
        y.waferYield = std::exp(rows * ((perRow - 1) * std::log1p(-pFull) + std::log1p(-pLast)));
    }
    y.physicalCores = layout.physicalCoreCount();
    y.expectedDeadCores = y.coreFailureProbability * double(y.physicalCores);
    return y;
}

} // namespace ws
