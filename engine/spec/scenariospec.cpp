#include "engine/spec/scenariospec.h"

namespace ws {

PlacementOptions placementOptions(const ScenarioSpec& spec)
{
    PlacementOptions o;
    o.strategy = spec.strategy;
    o.experts = spec.experts;
    o.precision = spec.workload.precision;
    o.contextTokens = spec.workload.contextTokens;
    o.weightFill = spec.weightFill;
    o.fitSubMesh = spec.fitSubMesh;
    o.order = spec.order;
    o.bandsPerDevice = spec.bandsPerDevice;
    return o;
}

} // namespace ws
