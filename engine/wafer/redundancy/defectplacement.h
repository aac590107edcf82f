#pragma once
// Placement on wafers with dead cores (the CLI's --defect-rate, a scenario's
// defects). Every wafer of a multi-wafer placement has its own defects: device d
// gets the seeded draw DefectMap::random(rate, seed + d), plus the explicitly
// killed cores on that wafer, and its own remap. Placement needs one usable
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
#include "engine/wafer/redundancy/defectmap.h"
#include "engine/wafer/redundancy/remap.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ws {

struct DeadPhysicalCore
{
    int device = 0;
    PhysicalCore core; // on the physical grid, spares included
    bool operator==(const DeadPhysicalCore&) const = default;
};

// Which cores are dead on each wafer, and the spare scheme that repairs them: a random fraction (seeded per
// wafer) and explicit cores. A wafer edited by hand (the Defects dock) lists every dead core of its own in
// `cores` and is named in `exactDevices`: the random draw does not apply there, so a revived core stays alive.
// The one description of a scenario's defects: the window, render, record, the chat's wafer and predict all
// take it (placeWithDefects below, engine/scene/scene.h).
struct DefectRequest
{
    double rate = 0;   // fraction of physical cores dead at random, 0..1
    uint64_t seed = 1; // wafer d draws with seed + d
    std::vector<DeadPhysicalCore> cores;
    std::vector<int> exactDevices; // wafers whose dead cores are exactly theirs in `cores`
    SpareScheme scheme = SpareScheme::RowShift;
    int dieSpares = 2; // DieRowColumn: spare rows and columns per die (a parameter: not published)

    // Whether anything differs from a defect-free wafer with the preset's row-shift spares.
    bool any() const { return rate > 0 || !cores.empty() || scheme != SpareScheme::RowShift; }
    bool isExact(int device) const
    {
        return std::find(exactDevices.begin(), exactDevices.end(), device) != exactDevices.end();
    }
    // The wafer's spare layout under this scheme.
    Expected<SpareLayout> spareLayout(const WaferSpec& wafer) const;
    // The dead cores of `device` on `layout` (this request's spare layout).
    Expected<DefectMap> deadCores(const SpareLayout& layout, int device) const;
    // This request with `device`'s dead cores replaced by exactly those of `map` (an edit of that wafer).
    DefectRequest withDevice(int device, const DefectMap& map) const;
    bool operator==(const DefectRequest&) const = default;
};

// The largest hop stretch S_max (remap-cost option B, [WaferScope-model] in docs/sources.md) of a remap over regions,
// along rows (X) and columns (Y).
struct AxisStretch
{
    double x = 1.0;
    double y = 1.0;
    double max() const { return x > y ? x : y; }
};

// S_max of `remap` over `regions` (logical rectangles in placement coordinates), at least 1; a region not inside
// the remap's usable logical mesh is skipped (no stretch known there).
AxisStretch regionHopStretch(const Remap& remap, const std::vector<CoreRect>& regions);

struct DefectPlacement
{
    Placement placement;
    MeshSize usableMesh;                // the rectangle placement used on every device
    std::vector<DefectSummary> devices; // per device, from its own remap
    std::vector<Remap> remaps;          // per device
    // Summed over devices; usableCores = devices * usableMesh, so a wafer whose own mesh is
    // larger than the common rectangle counts its surplus as capacity lost.
    DefectSummary totals;
    // Remap cost for timing: the largest S_max over every placed region of every wafer,
    // along rows (X) and columns (Y). 1 when nothing is dead.
    double hopStretchX = 1.0;
    double hopStretchY = 1.0;
    double hopStretch() const { return hopStretchX > hopStretchY ? hopStretchX : hopStretchY; }
};

// The remap of one device's wafer (deterministic in spec, defects and device).
Expected<Remap> remapDevice(const WaferSpec& wafer, const DefectRequest& defects, int device);
Expected<Remap> remapDevice(const WaferSpec& wafer, double defectRate, uint64_t seed, int device);

Expected<DefectPlacement> placeWithDefects(const ModelConfig& model, const WaferSpec& wafer, PlacementOptions options,
                                           const DefectRequest& defects);
Expected<DefectPlacement> placeWithDefects(const ModelConfig& model, const WaferSpec& wafer, PlacementOptions options,
                                           double defectRate, uint64_t seed);

} // namespace ws
