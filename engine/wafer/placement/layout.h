#pragma once
// A layout is a placement as data: which rectangle of which wafer holds each
// transformer layer, in which order the layers follow each other, which layer
// regions the token embedding and the LM head are sliced over, the weight
// fill and the precision of each tensor group. The placer reports the layout
// it chose (layoutOf); placeLayout places exactly a given one, so a layout
// saved as JSON (layoutjson.h), edited by hand (layoutedit.h) or found by the
// optimiser reproduces the same per-core bytes.
//
// checkLayout refuses, with one line, a layout that does not fit the model or
// the hardware (layer count, model or wafer id, mesh) or whose regions leave
// the mesh or overlap; a layout that places but puts more on some cores than
// their SRAM holds is accepted and flagged (overCapacity, per region, and
// coreOverflowBytes per core).

#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/wafer/placement/placement.h"

#include <string>
#include <vector>

namespace ws {

struct LayoutRegion
{
    int device = 0;
    CoreRect rect; // usable-mesh coordinates
    bool operator==(const LayoutRegion&) const = default;
};

struct Layout : PlacementChoices
{
    std::string origin; // where it came from: "placer", "file", "edit", "optimizer"
    std::string modelId;
    std::string hardwareId; // the wafer preset
    GroupPrecisions precisions;
    int deviceCount = 1;
    std::vector<LayoutRegion> layers; // one per transformer layer, in layer order
    std::vector<int> embeddingLayers; // layers whose regions hold the untied token embedding (empty when tied)
    std::vector<int> headLayers;      // layers whose regions hold the LM head (the tied table) and final norm
    std::vector<std::string> notes;   // how it was chosen (the placer's notes); placeLayout passes them on
    bool operator==(const Layout&) const = default;
};

// The layout a placement has (pipelined placements; tensor-parallel ones give full-mesh regions and the tables
// on the last layer).
Layout layoutOf(const Placement& placement, const std::string& modelId, const std::string& hardwareId);

// One region of a layout on more SRAM than its cores have.
struct RegionOverflow
{
    int layer = -1;
    int device = 0;
    int64_t maxCoreBytes = 0;  // the fullest core of the region
    int64_t overflowBytes = 0; // maxCoreBytes - SRAM per core
};

// Empty when the layout fits `model` on `hardware` as a geometry; else one line saying why not.
std::string layoutMismatch(const Layout& layout, const ModelConfig& model, const HardwareSpec& hardware);
// Geometry only: regions inside the mesh, none empty, none overlapping on a device (pipelined), tables on
// existing layers. Empty when fine.
std::string layoutGeometryError(const Layout& layout);

// The placement of exactly `layout` (refused when layoutMismatch or layoutGeometryError say so).
Expected<Placement> placeLayout(const ModelConfig& model, const HardwareSpec& hardware, const Layout& layout);

// Regions whose fullest core needs more than a core's SRAM.
std::vector<RegionOverflow> overCapacity(const Placement& placement);
// Bytes over SRAM on the core at usable (x, y) of a device (0 when it fits).
int64_t coreOverflowBytes(const Placement& placement, int device, int x, int y);

// Each weight element of the model on exactly one core: every matrix's vocabulary/row slices partition its
// rows, every vector is whole, every tile grid maps onto distinct cores of its region, and the bytes add up to
// the model's. Empty when it holds, else what breaks it.
std::string conservationError(const Placement& placement, const ModelConfig& model);

} // namespace ws
