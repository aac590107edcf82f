#include "engine/wafer/placement/draftplacement.h"

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
                             std::to_string(share.usableCores()) + " usable cores of one wafer (" +
                             std::to_string(hi) + " x " + std::to_string(share.usableRows) +
                             ") at weight fill " + std::to_string(options.weightFill),
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
    target.notes.push_back("speculative decoding: the draft model holds the " + std::to_string(share.columns) +
                           " x " + std::to_string(share.usableRows) + " cores at the left edge of wafer 0 (" +
                           std::to_string(share.cores()) + " of " + std::to_string(share.usableCores()) +
                           "), next to the target's first layer; the target is placed on the other " +
                           std::to_string(share.targetColumns()) + " columns");
    return target;
}

Expected<DraftedPlacement> placeWithDraft(const ModelConfig& target, const ModelConfig& draft, const WaferSpec& wafer,
                                          const PlacementOptions& targetOptions, const PlacementOptions& draftOptions)
{
    PlacementOptions shared = draftOptions;
    shared.usableCols = targetOptions.usableCols;
    shared.usableRows = targetOptions.usableRows;
    auto share = draftShare(draft, wafer, shared);
    if (!share)
        return share.error();
    auto placedDraft = placeModel(draft, wafer, draftStripOptions(draftOptions, *share));
    if (!placedDraft)
        return placedDraft.error();
    auto placedTarget = placeModel(target, wafer, targetRestOptions(targetOptions, *share));
    if (!placedTarget)
        return makeError(ErrorCode::OutOfRange,
                         "the target and the draft model do not fit together: " + draft.id + " needs " +
                             std::to_string(share->cores()) + " cores, leaving " +
                             std::to_string(share->usableCores() - share->cores()) + " of " +
                             std::to_string(share->usableCores()) + " usable cores per wafer for " + target.id +
                             ", and " + placedTarget.error().text,
                         "draft");
    DraftedPlacement out;
    out.share = *share;
    out.draft = std::move(*placedDraft);
    out.target = besideDraft(std::move(*placedTarget), *share);
    return out;
}

void addDraftToSnapshot(MeshSnapshot& s, const Placement& draft, const DraftShare& share, int firstDevice)
{
    if (s.deviceCount <= 0)
        return;
    const MeshSnapshot d = buildMeshSnapshot(draft, 0, 1);
    if (d.meshCols != s.meshCols || d.meshRows != s.meshRows || d.deviceCount != 1)
        return;
    std::vector<uint16_t> ownerOf(d.owners.size(), 0);
    for (size_t i = 1; i < d.owners.size() && s.owners.size() < 65535; ++i) {
        ownerOf[i] = uint16_t(s.owners.size());
        MeshOwner o = d.owners[i];
        o.draft = true;
        s.owners.push_back(std::move(o));
    }
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
            for (MeshRegion r : d.regions) {
                r.device = k;
                r.draft = true;
                r.label = "draft " + r.label;
                s.regions.push_back(std::move(r));
            }
    }
}

} // namespace ws
