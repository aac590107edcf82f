// prepareWafer (engine/predict/waferpredictor.h): the placement (through the cache, around dead cores or a given
// layout) and the calibrated constants a wafer prediction times, apart from the prediction itself.
#include "engine/calibration/wafercalibration.h"
#include "engine/predict/speculative.h"
#include "engine/predict/stackkernel.h"
#include "engine/predict/waferpredictor.h"
#include "engine/wafer/dataflow/kvcapacity.h"
#include "engine/wafer/dataflow/scheduleregions.h"
#include "engine/wafer/dataflow/spannedregions.h"
#include "engine/wafer/placement/placer.h"
#include "engine/wafer/redundancy/defectplacement.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

namespace ws {
namespace {
WaferDefects defectsFrom(const DefectPlacement& d, const DefectRequest& request)
{
    WaferDefects out;
    out.applied = true;
    out.defectRate = request.rate;
    out.seed = request.seed;
    out.deadCores = d.totals.deadCores;
    out.sparesUsed = d.totals.sparesUsed;
    out.unrepairableSegments = d.totals.unrepairableSegments;
    out.usableCores = d.totals.usableCores;
    out.usableCols = d.usableMesh.cols;
    out.usableRows = d.usableMesh.rows;
    out.hopStretch = d.hopStretch();
    return out;
}

// A model no placement holds (MoE spanning wafers) with dead cores: wafers are drawn
// as placeWithDefects draws them (wafer d with seed + d) until the span's wafer count
// and the smallest usable mesh settle. No regions are placed, so no hop stretch is known.
Expected<std::pair<SpannedRegions, WaferDefects>> spanWithDefects(const ModelConfig& model, const WaferSpec& wafer,
                                                                  const Workload& w, double weightFill,
                                                                  ExpertLayout experts, const DefectRequest& request)
{
    DefectPlacement d;
    SpannedRegions span;
    for (int round = 0; round < 64; ++round) {
        auto remap = remapDevice(wafer, request, int(d.devices.size()));
        if (!remap)
            return remap.error();
        const MeshSize mesh = remap->usableLogicalMesh();
        if (mesh.cores() == 0)
            return makeError(ErrorCode::OutOfRange,
                             "defects leave no usable cores on wafer " + std::to_string(d.devices.size() + 1),
                             "defect-rate");
        d.usableMesh = d.devices.empty()
                           ? mesh
                           : MeshSize{std::min(d.usableMesh.cols, mesh.cols), std::min(d.usableMesh.rows, mesh.rows)};
        d.devices.push_back(remap->summary());
        span = spanWafers(model, wafer, w.precision, w.contextTokens, weightFill, d.usableMesh.cols, d.usableMesh.rows,
                          experts);
        if (span.devicesNeeded <= int(d.devices.size()))
            break;
    }
    d.devices.resize(size_t(std::max(1, span.devicesNeeded)));
    d.totals = sumDefects(d.devices, d.usableMesh);
    return std::make_pair(std::move(span), defectsFrom(d, request));
}
} // namespace

PlacementOptions waferPlacementOptions(const Workload& w, const WaferPredictOptions& o)
{
    PlacementOptions po;
    po.precision = w.precision;
    po.contextTokens = w.contextTokens;
    po.weightFill = o.weightFill;
    po.experts = o.experts;
    po.usableCols = o.usableCols;
    po.usableRows = o.usableRows;
    return po;
}

Expected<WaferSetup> prepareWafer(const ModelConfig& model, const HardwareSpec& hw, const Workload& w,
                                  const WaferPredictOptions& o)
{
    if (hw.kind != HardwareKind::Wafer)
        return makeError(ErrorCode::InvalidArgument, "hardware '" + hw.id + "' is not a wafer", "hardware");
    const auto& cal = shippedWaferCalibration();
    if (!cal)
        return cal.error();
    WaferSetup s;
    s.profile = cal->profile;
    s.calibrationResidual = cal->fit.maxAbsRelativeResidual;
    s.params = cal->params;
    s.params.applyHardware(hw.wafer);
    if (o.clockHz > 0)
        s.params.clockHz = o.clockHz;
    applyKernelFactor(s.params, o.kernelFactor, hw.wafer);
    s.params.kvBytesPerValue = std::min(2.0, bitsPerParameter(w.precision) / 8.0);
    if (!(o.hopStretch >= 1.0) || !std::isfinite(o.hopStretch))
        return makeError(ErrorCode::InvalidArgument, "hop stretch must be at least 1", "hopStretch");
    s.params.hopCycles *= o.hopStretch;

    PlacementOptions po = waferPlacementOptions(w, o);
    if (!(o.defects.rate >= 0.0 && o.defects.rate <= 1.0))
        return makeError(ErrorCode::InvalidArgument, "defect rate must be a fraction of cores from 0 to 1",
                         "defect-rate");
    std::optional<PlacementCache> ownCache; // the chooser's placements, reused for the target's below
    PlacementCache* cache = o.placements;
    if (w.speculative.enabled && w.speculative.draftModel) { // the draft's own cores: a strip or its own wafer
        if (!cache)
            cache = &ownCache.emplace(32);
        if (Status placed = placeDraftHome(s, model, hw, w, o, cache); !placed)
            return placed.error();
        po = targetHomeOptions(po, s.draftHome->home);
    }
    std::shared_ptr<const Expected<Placement>> cached;
    if (o.placedLayout) {
        if (o.defects.any())
            return makeError(ErrorCode::Unsupported, "a given layout cannot be placed around defects", "layout");
        if (o.placedLayoutPlacement && *o.placedLayoutPlacement) {
            cached = o.placedLayoutPlacement;
        } else {
            auto placed = placeLayout(model, hw, *o.placedLayout);
            if (!placed)
                return placed.error();
            cached = std::make_shared<const Expected<Placement>>(std::move(*placed));
        }
        s.overCapacity = overCapacity(**cached);
    } else if (o.defects.any()) {
        // One code path with the scene and `waferscope-cli place`: every wafer its own map and remap.
        auto placed = placeWithDefects(model, hw.wafer, po, o.defects);
        if (placed) {
            s.defects = defectsFrom(*placed, o.defects);
            s.params.hopCycles *= placed->hopStretch();
            cached = std::make_shared<const Expected<Placement>>(std::move(placed->placement));
        } else if (placed.error().field == "defect-rate" || !model.isMoe()) {
            return placed.error();
        } else {
            cached = std::make_shared<const Expected<Placement>>(placed.error());
        }
    } else {
        cached = placeThrough(cache, model, hw.wafer, po);
    }
    const Expected<Placement>& placement = *cached;
    if (placement) {
        s.layout = scheduleRegionsFromPlacement(*placement);
        s.devicesNeeded = placement->deviceCount;
        s.kvBytesPerCore = kvBytesAvailablePerCore(*placement);
        s.sramHeadroomBytes = placement->sramTotalBytes() - placement->sramUsedBytes();
        s.layoutNotes = placement->notes;
        if (s.draftHome) { // the target's wafers, and the draft's own after them
            s.draftHome->home.targetDevices = placement->deviceCount;
            s.devicesNeeded = s.draftHome->home.devices();
        }
    } else if (model.isMoe()) {
        const int cols = o.usableCols > 0 ? o.usableCols : hw.wafer.meshCols - hw.wafer.reservedCols;
        const int rows = o.usableRows > 0 ? o.usableRows : hw.wafer.meshRows - hw.wafer.reservedRows;
        SpannedRegions span;
        if (o.defects.any()) {
            auto spanned = spanWithDefects(model, hw.wafer, w, o.weightFill, o.experts, o.defects);
            if (!spanned)
                return spanned.error();
            span = std::move(spanned->first);
            s.defects = spanned->second;
        } else {
            span = spanWafers(model, hw.wafer, w.precision, w.contextTokens, o.weightFill, cols, rows, o.experts);
        }
        s.layout = span.schedule;
        s.devicesNeeded = span.devicesNeeded;
        s.kvBytesPerCore = span.kvBytesPerCore;
        s.layoutNotes = {"placement: " + placement.error().text, span.note};
        if (s.defects.applied)
            s.layoutNotes.push_back(
                "defects: no layer regions placed, so the remap's hop stretch is not known; 1 assumed");
    } else {
        return placement.error();
    }
    if (o.layout) {
        s.layout = *o.layout;
        s.devicesNeeded = std::max(1, o.layout->deviceCount);
    }
    if (s.layout.layers.empty())
        return makeError(ErrorCode::InvalidArgument, "the placement has no layer regions", "layers");
    if (o.devices > 0 && o.devices < s.devicesNeeded)
        return makeError(ErrorCode::OutOfRange,
                         model.id + " needs " + std::to_string(s.devicesNeeded) + " " + hw.id + " wafers at " +
                             std::string(precisionId(w.precision)) + " and " + std::to_string(w.contextTokens) +
                             " tokens of context; " + std::to_string(o.devices) + " given",
                         "devices");
    return s;
}

} // namespace ws
