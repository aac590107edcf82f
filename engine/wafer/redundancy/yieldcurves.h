#pragma once
// Yield against defect density, as the yield panel draws it: the four classical
// models for a die of area A (by default the whole wafer without redundancy),
// the redundant wafer's segment formula for a spare layout ([Yield-models]
// in docs/sources.md), and Monte Carlo points that draw defects and run the real remap
// (YieldMonteCarlo). Computing the Monte Carlo points takes time (a few ms per
// trial on a full wafer): run it off the GUI thread. Deterministic for a seed.

#include "engine/core/error.h"
#include "engine/wafer/redundancy/sparelayout.h"

#include <cstdint>
#include <vector>

namespace ws {

struct YieldCurveRequest
{
    double areaMm2 = 0; // die area for the classical models; 0 = the layout's physical area
    double alpha = 2.0; // negative-binomial clustering
    double minDefectsPerMm2 = 1e-4;
    double maxDefectsPerMm2 = 1e-2;
    int points = 61;          // log-spaced D0 samples, >= 2
    SpareLayout layout;       // spare layout for the segment formula and Monte Carlo
    int monteCarloPoints = 0; // log-spaced D0 values with Monte Carlo (0 = none)
    int monteCarloTrials = 200;
    uint64_t seed = 1;
};

struct YieldMonteCarloPoint
{
    double defectsPerMm2 = 0;
    double yield = 0;
    double standardError = 0;
    double usableFraction = 0; // mean usable cores / nominal
};

// One row per D0 sample; every vector has the same length as defectsPerMm2.
struct YieldCurves
{
    double areaMm2 = 0;
    double alpha = 0;
    double spareFraction = 0;
    int segmentPrimaryCores = 0;
    int segmentSpareCores = 0;
    std::vector<double> defectsPerMm2;
    std::vector<double> poisson;
    std::vector<double> murphy;
    std::vector<double> seeds;
    std::vector<double> negativeBinomial;
    std::vector<double> redundantWafer; // segment formula (RowShift layouts; empty otherwise)
    std::vector<YieldMonteCarloPoint> monteCarlo;
};

Expected<YieldCurves> computeYieldCurves(const YieldCurveRequest& request);

} // namespace ws
