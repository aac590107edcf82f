#include "engine/wafer/placement/draftplacement.h"

#include "engine/core/numbertext.h"
#include "engine/wafer/placement/meshsnapshotbuilder.h"

#include <algorithm>
#include <string>

namespace ws {

namespace {
int usableColsOf(const WaferSpec& wafer, const PlacementOptions& o)
{
    return o.usableCols > 0 ? o.usableCols : wafer.usableCols();
}
int usableRowsOf(const WaferSpec& wafer, const PlacementOptions& o)
{
    return o.usableRows > 0 ? o.usableRows : wafer.usableRows();
}
} // namespace

const char* draftHomeId(DraftHomeKind kind)
{
    return kind == DraftHomeKind::OwnWafer ? "own_wafer" : "strip";
}

PlacementOptions draftHomeOptions(PlacementOptions options, const DraftHome& home)
{
    return draftStripOptions(std::move(options), home.share);
}

PlacementOptions targetHomeOptions(PlacementOptions options, const DraftHome& home)
{
    return home.ownWafer() ? options : targetRestOptions(std::move(options), home.share);
}

DraftHome ownWaferHome(const WaferSpec& wafer, const PlacementOptions& options, int targetDevices)
{
    DraftHome home;
    home.kind = DraftHomeKind::OwnWafer;
    home.share.usableCols = usableColsOf(wafer, options);
    home.share.usableRows = usableRowsOf(wafer, options);
    home.share.columns = home.share.usableCols;
    home.targetDevices = targetDevices;
    return home;
}

PlacementOptions draftStripOptions(PlacementOptions options, const DraftShare& share)
{
    options.usableCols = share.columns;
    options.usableRows = share.usableRows;
    options.maxDevices = 1;
    options.fitSubMesh = false;
    return options;
}

PlacementOptions targetRestOptions(PlacementOptions options, const DraftShare& share)
{
    options.usableCols = share.targetColumns();
    options.usableRows = share.usableRows;
    options.fitSubMesh = false;
    return options;
}

Expected<DraftShare> draftShare(const ModelConfig& draft, const WaferSpec& wafer, const PlacementOptions& options,
                                const DraftFits& fits)
{
    DraftShare share;
    share.usableCols = usableColsOf(wafer, options);
    share.usableRows = usableRowsOf(wafer, options);
    if (share.usableCols < 2 || share.usableRows < 1)
        return makeError(ErrorCode::InvalidArgument, "the usable mesh has no room for a draft model beside the target",
                         "draft");
    const DraftFits place = fits ? fits : [&](const PlacementOptions& o) {
        auto placed = placeModel(draft, wafer, o);
        return placed && placed->deviceCount == 1;
    };
    auto holds = [&](int columns) {
        DraftShare s = share;
        s.columns = columns;
        return place(draftStripOptions(options, s));
    };
    // Columns leave at least one for the target. Bisection: the fewest that hold the draft.
    int lo = 1;
    int hi = share.usableCols - 1;
    if (!holds(hi)) {
        DraftShare whole = share;
        whole.columns = hi;
        return makeError(ErrorCode::OutOfRange,
                         draft.id + " does not fit as a draft model on " + std::to_string(whole.cores()) + " of the " +
                             std::to_string(share.usableCores()) + " usable cores of one wafer (" + std::to_string(hi) +
                             " x " + std::to_string(share.usableRows) + ") at weight fill " +
                             toStringC(options.weightFill),
                         "draft");
    }
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (holds(mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    share.columns = lo;
    return share;
}

Placement besideDraft(Placement target, const DraftShare& share)
{
    target.originX += share.columns;
    target.fabricCols = std::max(target.fabricCols, target.originX + target.usableCols);
    target.notes.push_back("speculative decoding: the draft model holds the " + std::to_string(share.columns) + " x " +
                           std::to_string(share.usableRows) + " cores at the left edge of wafer 0 (" +
                           std::to_string(share.cores()) + " of " + std::to_string(share.usableCores()) +
                           "), next to the target's first layer; the target is placed on the other " +
                           std::to_string(share.targetColumns()) + " columns");
    return target;
}

Expected<DraftedPlacement> placeWithDraft(const ModelConfig& target, const ModelConfig& draft, const WaferSpec& wafer,
                                          const PlacementOptions& targetOptions, const PlacementOptions& draftOptions,
                                          const DraftHome& home, const PlaceModel& placeFn)
{
    const PlaceModel place =
        placeFn ? placeFn : [&](const ModelConfig& m, const PlacementOptions& o) { return placeModel(m, wafer, o); };
    auto placedDraft = place(draft, draftHomeOptions(draftOptions, home));
    if (!placedDraft)
        return placedDraft.error();
    auto placedTarget = place(target, targetHomeOptions(targetOptions, home));
    if (!placedTarget && !home.ownWafer())
        return makeError(ErrorCode::OutOfRange,
                         "the target and the draft model do not fit together: " + draft.id + " needs " +
                             std::to_string(home.share.cores()) + " cores, leaving " +
                             std::to_string(home.share.usableCores() - home.share.cores()) + " of " +
                             std::to_string(home.share.usableCores()) + " usable cores per wafer for " + target.id +
                             ", and " + placedTarget.error().text,
                         "draft");
    if (!placedTarget)
        return placedTarget.error();
    DraftedPlacement out;
    out.home = home;
    out.home.targetDevices = placedTarget->deviceCount;
    out.draft = std::move(*placedDraft);
    if (home.ownWafer()) {
        out.target = std::move(*placedTarget);
        out.target.notes.push_back("speculative decoding: the draft model has a wafer of its own (wafer " +
                                   std::to_string(out.home.draftDevice() + 1) + ", its " +
                                   std::to_string(home.share.cores()) + " usable cores) after the target's " +
                                   std::to_string(out.home.targetDevices) +
                                   "; its proposals cross one wafer link to the target's first layer");
    } else {
        out.target = besideDraft(std::move(*placedTarget), home.share);
    }
    return out;
}

namespace {
// The draft's owners appended to the snapshot's; the index of each of the draft snapshot's owners.
std::vector<uint16_t> appendDraftOwners(MeshSnapshot& s, const MeshSnapshot& d)
{
    std::vector<uint16_t> ownerOf(d.owners.size(), 0);
    for (size_t i = 1; i < d.owners.size() && s.owners.size() < 65535; ++i) {
        ownerOf[i] = uint16_t(s.owners.size());
        MeshOwner o = d.owners[i];
        o.draft = true;
        s.owners.push_back(std::move(o));
    }
    return ownerOf;
}

void appendDraftRegions(MeshSnapshot& s, const MeshSnapshot& d, int device)
{
    for (MeshRegion r : d.regions) {
        r.device = device;
        r.draft = true;
        r.label = "draft " + r.label;
        s.regions.push_back(std::move(r));
    }
}

// Its own wafer: the draft's snapshot as one more device.
void addDraftWafer(MeshSnapshot& s, const MeshSnapshot& d)
{
    const std::vector<uint16_t> ownerOf = appendDraftOwners(s, d);
    const size_t cores = size_t(s.meshCols) * size_t(s.meshRows);
    std::vector<uint16_t> owner = d.owner[0];
    for (uint16_t& o : owner)
        o = o < ownerOf.size() ? ownerOf[o] : 0;
    s.owner.push_back(std::move(owner));
    s.sramFraction.push_back(d.sramFraction[0]);
    s.kvFraction.push_back(d.kvFraction[0]);
    const bool states = !s.coreState.empty() || !d.coreState.empty();
    if (states) {
        s.coreState.resize(size_t(s.deviceCount));
        s.coreState.push_back(d.coreState.empty() ? std::vector<CoreState>(cores, CoreState::Healthy) : d.coreState[0]);
    }
    s.overflowBytes.resize(size_t(s.deviceCount));
    s.overflowBytes.push_back(d.overflowBytes.empty() ? std::vector<uint32_t>{} : d.overflowBytes[0]);
    appendDraftRegions(s, d, s.deviceCount);
    ++s.deviceCount;
}
} // namespace

void addDraftToSnapshot(MeshSnapshot& s, const Placement& draft, const DraftHome& home, int firstDevice)
{
    if (s.deviceCount <= 0)
        return;
    const MeshSnapshot d = buildMeshSnapshot(draft, 0, 1);
    if (d.meshCols != s.meshCols || d.meshRows != s.meshRows || d.deviceCount != 1)
        return;
    if (home.ownWafer()) {
        if (firstDevice + s.deviceCount == home.draftDevice())
            addDraftWafer(s, d);
        return;
    }
    const DraftShare& share = home.share;
    const std::vector<uint16_t> ownerOf = appendDraftOwners(s, d);
    const size_t cores = size_t(s.meshCols) * size_t(s.meshRows);
    for (int k = 0; k < s.deviceCount; ++k) {
        const bool holdsDraft = firstDevice + k == 0;
        auto& state = s.coreState[size_t(k)];
        for (int y = draft.originY; y < draft.originY + share.usableRows; ++y)
            for (int x = draft.originX; x < draft.originX + share.columns; ++x) {
                const size_t f = size_t(y) * size_t(s.meshCols) + size_t(x);
                if (f >= cores)
                    continue;
                if (state.size() == cores)
                    state[f] = CoreState::Healthy;
                if (!holdsDraft)
                    continue;
                s.sramFraction[size_t(k)][f] = d.sramFraction[0][f];
                s.kvFraction[size_t(k)][f] = d.kvFraction[0][f];
                s.owner[size_t(k)][f] = ownerOf[d.owner[0][f]];
                if (!d.overflowBytes[0].empty()) {
                    if (s.overflowBytes[size_t(k)].empty())
                        s.overflowBytes[size_t(k)].assign(cores, 0);
                    s.overflowBytes[size_t(k)][f] = d.overflowBytes[0][f];
                }
            }
        if (holdsDraft)
            appendDraftRegions(s, d, k);
    }
}

} // namespace ws
