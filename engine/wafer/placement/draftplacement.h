#pragma once
// The draft model of speculative decoding on the wafer: its own region of
// cores beside the target's.
//
// Where: a full-height strip of columns at the left edge of wafer 0, as
// narrow as still holds every layer of the draft, its KV at the context and
// its tables at the weight fill (the fewest columns, found by bisection on the
// placer); the target is placed by the placer on the remaining columns, which
// start right of the strip. Why there: a full-height strip is the one cut that
// leaves the target a rectangle, so the target's placement is the placer's own
// on a narrower mesh (its layout, JSON and cache entries are those of an
// ordinary placement); and every layer order starts the target's layer 0 at
// the left edge (band 0 runs from x = 0), so the draft's proposals enter the
// target's first layer across one shared edge. All wafers of a placement share
// one usable mesh, so on wafers after the first the strip stays idle.
//
// Or a wafer of its own (DraftHome::OwnWafer): one more device after the
// target's, the draft on its whole usable mesh and the target placed exactly
// as without a draft. Which home a prediction uses is engine/predict/
// speculative.h chooseDraftHome's choice (fewest wafers, then the fastest).
//
// The two placements stay two values: the draft's (on columns x 0..W of the
// usable mesh, origin the spec's) and the target's (usable columns W.., its
// originX moved right by W), so the fabric coordinates of both are the
// wafer's and each one's coreDetail answers for its own cores.

#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/wafer/placement/meshsnapshot.h"
#include "engine/wafer/placement/placement.h"
#include "engine/wafer/placement/placer.h"

#include <functional>

namespace ws {

struct DraftShare
{
    int columns = 0;    // the strip's width
    int usableCols = 0; // the usable mesh the target and the draft share (per wafer)
    int usableRows = 0;
    long long cores() const { return static_cast<long long>(columns) * usableRows; }
    long long usableCores() const { return static_cast<long long>(usableCols) * usableRows; }
    int targetColumns() const { return usableCols - columns; }
    bool operator==(const DraftShare&) const = default;
};

// Where the draft model decodes: a strip of columns at the left of wafer 0 beside the target, or a wafer of its
// own after the target's wafers.
enum class DraftHomeKind
{
    Strip,
    OwnWafer
};
const char* draftHomeId(DraftHomeKind kind); // "strip", "own_wafer"

struct DraftHome
{
    DraftHomeKind kind = DraftHomeKind::Strip;
    // Strip: the strip (columns) beside the target. OwnWafer: columns = usableCols, the whole usable mesh.
    DraftShare share;
    int targetDevices = 0; // the target's wafers (0: not known yet)
    bool ownWafer() const { return kind == DraftHomeKind::OwnWafer; }
    int devices() const { return targetDevices + (ownWafer() ? 1 : 0); }
    int draftDevice() const { return ownWafer() ? targetDevices : 0; }
    long long draftCores() const { return share.cores(); }
    bool operator==(const DraftHome&) const = default;
};
// The home's draft options (one wafer: the strip or the whole mesh) and the target's (the rest beside a strip;
// unchanged on its own wafers).
PlacementOptions draftHomeOptions(PlacementOptions options, const DraftHome& home);
PlacementOptions targetHomeOptions(PlacementOptions options, const DraftHome& home);
DraftHome ownWaferHome(const WaferSpec& wafer, const PlacementOptions& options, int targetDevices);

// Whether the draft places on one wafer with these options (the caller's placer, e.g. through a cache).
using DraftFits = std::function<bool(const PlacementOptions&)>;

// The narrowest strip that holds `draft` placed with `options` (their usable mesh is the whole one to share;
// 0: the spec's). An error naming the cores needed and available when even all but one column do not hold it.
// `fits` defaults to placeModel.
Expected<DraftShare> draftShare(const ModelConfig& draft, const WaferSpec& wafer, const PlacementOptions& options,
                                const DraftFits& fits = {});

// The draft's options (usable mesh = the strip, one wafer) and the target's (usable mesh = the rest).
PlacementOptions draftStripOptions(PlacementOptions options, const DraftShare& share);
PlacementOptions targetRestOptions(PlacementOptions options, const DraftShare& share);

// The target's placement moved right of the strip (originX + columns; its usable coordinates unchanged).
Placement besideDraft(Placement target, const DraftShare& share);

struct DraftedPlacement
{
    Placement target; // besideDraft on a strip; as without a draft beside its own wafer
    Placement draft;
    DraftHome home;
};

// Both placed at `home`: the draft on its strip (the target on the rest) or on its own wafer (the target on
// its whole mesh). When the target does not fit beside a strip, the error names the draft's cores, the cores
// left and the placer's reason.
// `place` places one model (default: placeModel; e.g. through a cache).
using PlaceModel = std::function<Expected<Placement>(const ModelConfig&, const PlacementOptions&)>;
Expected<DraftedPlacement> placeWithDraft(const ModelConfig& target, const ModelConfig& draft, const WaferSpec& wafer,
                                          const PlacementOptions& targetOptions, const PlacementOptions& draftOptions,
                                          const DraftHome& home, const PlaceModel& place = {});

// Paints the draft's cores into the target's snapshot of devices [firstDevice, ...): SRAM, KV, owners and
// regions marked as the draft's (MeshOwner::draft, MeshRegion::draft; region labels "draft L3"). A strip: on
// wafer 0, and on later wafers the strip shows as healthy idle cores. Its own wafer: appended as one more
// device when the snapshot ends at the target's last wafer.
void addDraftToSnapshot(MeshSnapshot& snapshot, const Placement& draft, const DraftHome& home, int firstDevice = 0);

} // namespace ws
