#pragma once
// Placement on wafers with dead cores (the CLI's --defect-rate). Every wafer of a
// multi-wafer placement has its own defects: device d gets the seeded draw
// DefectMap::random(rate, seed + d) and its own remap. Placement needs one usable
// rectangle per device, so it uses the smallest usable logical mesh any of the
// wafers offers. The device count depends on that mesh and the mesh on the count,
// so this draws, places and redraws until both settle (both only move one way).
//
// --defect-rate is the fraction of physical cores that are dead, 0..1 (the CLI
// accepts 0..0.5); a density D0 per mm² is the yield model's input instead.

#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/wafer/placement/placer.h"
#include "engine/wafer/redundancy/remap.h"

#include <cstdint>
#include <vector>

namespace ws {

struct DefectPlacement
{
    Placement placement;
    MeshSize usableMesh;                // the rectangle placement used on every device
    std::vector<DefectSummary> devices; // per device, from its own remap
    // Summed over devices; usableCores = devices * usableMesh, so a wafer whose own mesh is
    // larger than the common rectangle counts its surplus as capacity lost.
    DefectSummary totals;
    // Remap cost for timing (facts §6.6 option B): the largest S_max over every placed
    // region of every wafer, along rows (X) and columns (Y). 1 when nothing is dead.
    double hopStretchX = 1.0;
    double hopStretchY = 1.0;
    double hopStretch() const { return hopStretchX > hopStretchY ? hopStretchX : hopStretchY; }
};

// Fills hopStretchX/Y of a placement made with these defects (recomputes each wafer's remap).
Status measureHopStretch(const WaferSpec& wafer, double defectRate, uint64_t seed, DefectPlacement& placed);

// The remap of one device's wafer (deterministic in spec, rate, seed and device).
Expected<Remap> remapDevice(const WaferSpec& wafer, double defectRate, uint64_t seed, int device);

Expected<DefectPlacement> placeWithDefects(const ModelConfig& model, const WaferSpec& wafer,
                                           PlacementOptions options, double defectRate, uint64_t seed);

} // namespace ws
