#pragma once
// Closed-form yield models ([Yield-models] in docs/sources.md). A die of area A (mm²) at a
// mean defect density D0 (defects per mm²) works with probability:
//   Poisson            Y = exp(-A D0)
//   Murphy             Y = ((1 - exp(-A D0)) / (A D0))^2
//   Seeds              Y = 1 / (1 + A D0)
//   negative binomial  Y = (1 + A D0 / alpha)^-alpha   (alpha: clustering; inf = Poisson, 1 = Seeds)
// A redundant wafer works when every row segment of n primary + s spare cores has
// at most s dead cores; with p = 1 - exp(-D0 a_c) per core of area a_c:
//   P_seg_ok = sum_{k=0..s} C(n+s, k) p^k (1-p)^(n+s-k),   Y_wafer = P_seg_ok^N_seg,
//   E[dead]  = p N_phys.
// The segment failure probability is summed over the tail k > s directly, not as
// 1 - P_seg_ok, so values like 2e-8 keep their digits.

#include "engine/wafer/redundancy/sparelayout.h"

#include <cstdint>

namespace ws {

enum class YieldFormula
{
    Poisson,
    Murphy,
    Seeds,
    NegativeBinomial
};

struct SegmentYield
{
    double coreFailureProbability = 0;    // p
    double segmentFailureProbability = 0; // 1 - P_seg_ok (for a full n + s segment)
    double waferYield = 1;                // Y_wafer
    double expectedDeadCores = 0;         // p * N_phys
    int64_t segments = 0;                 // N_seg
    int64_t physicalCores = 0;            // N_phys
};

class YieldModel
{
public:
    static double poisson(double areaMm2, double defectsPerMm2);
    static double murphy(double areaMm2, double defectsPerMm2);
    static double seeds(double areaMm2, double defectsPerMm2);
    static double negativeBinomial(double areaMm2, double defectsPerMm2, double alpha);
    static double evaluate(YieldFormula formula, double areaMm2, double defectsPerMm2, double alpha);

    static double coreFailureProbability(double coreAreaMm2, double defectsPerMm2);
    // P(more than spareCores of primaryCores + spareCores cores are dead), each dead with probability p.
    static double segmentFailureProbability(int primaryCores, int spareCores, double p);
    // N_seg segments of n + s cores.
    static SegmentYield redundantWafer(int64_t segments, int primaryCores, int spareCores, double coreAreaMm2,
                                       double defectsPerMm2);
    // The RowShift layout's own segments (a shorter last segment per row is counted as such).
    static SegmentYield redundantWafer(const SpareLayout& layout, double defectsPerMm2);
};

} // namespace ws
