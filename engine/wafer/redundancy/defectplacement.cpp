#include "engine/wafer/redundancy/defectplacement.h"

#include <algorithm>
#include <string>

namespace ws {

Expected<Remap> remapDevice(const WaferSpec& wafer, double defectRate, uint64_t seed, int device)
{
    auto layout = SpareLayout::fromSpec(wafer);
    if (!layout)
        return layout.error();
    auto defects = DefectMap::random(*layout, defectRate, seed + uint64_t(device));
    if (!defects)
        return defects.error();
    return Remap::run(*layout, *defects);
}

Expected<DefectPlacement> placeWithDefects(const ModelConfig& model, const WaferSpec& wafer,
                                           PlacementOptions options, double defectRate, uint64_t seed)
{
    DefectPlacement out;
    auto addDevice = [&]() -> Status {
        const int device = int(out.devices.size());
        auto remap = remapDevice(wafer, defectRate, seed, device);
        if (!remap)
            return remap.error();
        const MeshSize mesh = remap->usableLogicalMesh();
        if (mesh.cores() == 0) {
            const DefectSummary& s = remap->summary();
            return makeError(ErrorCode::OutOfRange,
                             "defects leave no usable cores on wafer " + std::to_string(device) + " (" +
                                 std::to_string(s.deadCores) + " dead, " +
                                 std::to_string(s.unrepairableSegments) + " unrepairable segments, " +
                                 std::to_string(s.droppedRows) + " of " + std::to_string(wafer.meshRows) +
                                 " rows lost)",
                             "defect-rate");
        }
        out.usableMesh = out.devices.empty()
                             ? mesh
                             : MeshSize{std::min(out.usableMesh.cols, mesh.cols), std::min(out.usableMesh.rows, mesh.rows)};
        out.devices.push_back(remap->summary());
        return Ok{};
    };
    if (auto st = addDevice(); !st)
        return st.error();
    for (int round = 0;; ++round) {
        options.usableCols = out.usableMesh.cols;
        options.usableRows = out.usableMesh.rows;
        auto placement = placeModel(model, wafer, options);
        if (!placement)
            return placement.error();
        const int needed = placement->deviceCount;
        if (needed <= int(out.devices.size()) || round >= 64) {
            out.placement = std::move(*placement);
            break;
        }
        while (int(out.devices.size()) < needed) {
            if (auto st = addDevice(); !st)
                return st.error();
        }
    }
    // Only the devices the placement uses count.
    out.devices.resize(size_t(out.placement.deviceCount));
    DefectSummary& t = out.totals;
    for (const DefectSummary& s : out.devices) {
        t.deadCores += s.deadCores;
        t.sparesUsed += s.sparesUsed;
        t.unrepairableSegments += s.unrepairableSegments;
        t.shiftedCores += s.shiftedCores;
        t.droppedRows += s.droppedRows;
        t.displacementConflicts += s.displacementConflicts;
        t.nominalUsableCores += s.nominalUsableCores;
    }
    t.usableCores = int64_t(out.devices.size()) * out.usableMesh.cores();
    t.capacityLostCores = t.nominalUsableCores - t.usableCores;
    if (defectRate > 0) {
        if (auto st = measureHopStretch(wafer, defectRate, seed, out); !st)
            return st.error();
    }
    return out;
}

Status measureHopStretch(const WaferSpec& wafer, double defectRate, uint64_t seed, DefectPlacement& placed)
{
    placed.hopStretchX = 1.0;
    placed.hopStretchY = 1.0;
    for (int device = 0; device < placed.placement.deviceCount; ++device) {
        auto remap = remapDevice(wafer, defectRate, seed, device);
        if (!remap)
            return remap.error();
        for (const PlacedRegion& region : placed.placement.regions) {
            if (region.device != device)
                continue;
            const LogicalRect rect{region.rect.x, region.rect.y, region.rect.width, region.rect.height};
            placed.hopStretchX = std::max(placed.hopStretchX, remap->hopStretch(rect, MeshAxis::X).maxStretch);
            placed.hopStretchY = std::max(placed.hopStretchY, remap->hopStretch(rect, MeshAxis::Y).maxStretch);
        }
    }
    return Ok{};
}

} // namespace ws
