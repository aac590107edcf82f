#pragma once
// Monte Carlo wafer yield with the real remap: draw a defect map per trial
// (Poisson at D0, or clustered with the density drawn from Gamma(alpha, D0/alpha)),
// run Remap on it, and count the wafers that keep their full logical mesh (no
// unrepairable segment, no dropped row). Unlike the segment formula this also
// sees the vertical displacement limit (delta <= 1) and the die scheme, and it
// reports the mean capacity kept. Deterministic for a seed.

#include "engine/core/error.h"
#include "engine/wafer/redundancy/defectmap.h"
#include "engine/wafer/redundancy/sparelayout.h"

#include <cstdint>

namespace ws {

struct MonteCarloOptions
{
    double defectsPerMm2 = 0.001;
    double alpha = 0; // clustering; 0 = unclustered Poisson
    ClusterScope scope = ClusterScope::Wafer;
    int trials = 1000;
    uint64_t seed = 1;
};

struct MonteCarloYield
{
    int trials = 0;
    int64_t goodWafers = 0;   // full logical mesh after remap
    double yield = 0;         // goodWafers / trials
    double standardError = 0; // sqrt(Y (1 - Y) / trials)
    double meanDeadCores = 0;
    double meanUnrepairableSegments = 0;
    double meanUsableFraction = 0; // usable cores / nominal usable cores
};

class YieldMonteCarlo
{
public:
    static Expected<MonteCarloYield> run(const SpareLayout& layout, const MonteCarloOptions& options);
};

} // namespace ws
