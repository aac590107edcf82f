#include "engine/wafer/redundancy/defectplacement.h"

#include <algorithm>
#include <string>

namespace ws {

AxisStretch regionHopStretch(const Remap& remap, const std::vector<CoreRect>& regions)
{
    AxisStretch s;
    const MeshSize usable = remap.usableLogicalMesh();
    for (const CoreRect& r : regions) {
        if (r.x < 0 || r.y < 0 || r.x + r.width > usable.cols || r.y + r.height > usable.rows)
            continue;
        s.x = std::max(s.x, remap.hopStretch(r, MeshAxis::X).maxStretch);
        s.y = std::max(s.y, remap.hopStretch(r, MeshAxis::Y).maxStretch);
    }
    return s;
}

Expected<SpareLayout> DefectRequest::spareLayout(const WaferSpec& wafer) const
{
    if (scheme == SpareScheme::RowShift)
        return SpareLayout::fromSpec(wafer);
    if (dieSpares < 0)
        return makeError(ErrorCode::InvalidArgument, "spare rows and columns per die cannot be negative", "dieSpares");
    return SpareLayout::dieRowColumnFromSpec(wafer, DieSpares{dieSpares, dieSpares});
}

Expected<DefectMap> DefectRequest::deadCores(const SpareLayout& layout, int device) const
{
    auto defects = isExact(device) ? Expected<DefectMap>(DefectMap::forLayout(layout))
                                   : DefectMap::random(layout, rate, seed + uint64_t(device));
    if (!defects)
        return defects.error();
    std::vector<PhysicalCore> killed;
    for (const DeadPhysicalCore& dead : cores)
        if (dead.device == device)
            killed.push_back(dead.core);
    if (!killed.empty()) {
        auto explicitMap = DefectMap::fromCores(layout, killed);
        if (!explicitMap)
            return explicitMap.error();
        defects->unite(*explicitMap);
    }
    return defects;
}

DefectRequest DefectRequest::withDevice(int device, const DefectMap& map) const
{
    DefectRequest out = *this;
    std::erase_if(out.cores, [device](const DeadPhysicalCore& c) { return c.device == device; });
    for (const int32_t index : map.deadIndices())
        out.cores.push_back({device, PhysicalCore{index % map.cols(), index / map.cols()}});
    if (!out.isExact(device)) {
        out.exactDevices.push_back(device);
        std::sort(out.exactDevices.begin(), out.exactDevices.end());
    }
    return out;
}

Expected<Remap> remapDevice(const WaferSpec& wafer, const DefectRequest& request, int device)
{
    auto layout = request.spareLayout(wafer);
    if (!layout)
        return layout.error();
    auto defects = request.deadCores(*layout, device);
    if (!defects)
        return defects.error();
    return Remap::run(*layout, *defects);
}

Expected<Remap> remapDevice(const WaferSpec& wafer, double defectRate, uint64_t seed, int device)
{
    return remapDevice(wafer, DefectRequest{defectRate, seed, {}}, device);
}

Expected<DefectPlacement> placeWithDefects(const ModelConfig& model, const WaferSpec& wafer, PlacementOptions options,
                                           const DefectRequest& defects)
{
    DefectPlacement out;
    auto addDevice = [&]() -> Status {
        const int device = int(out.devices.size());
        auto remap = remapDevice(wafer, defects, device);
        if (!remap)
            return remap.error();
        const MeshSize mesh = remap->usableLogicalMesh();
        if (mesh.cores() == 0) {
            const DefectSummary& s = remap->summary();
            return makeError(ErrorCode::OutOfRange,
                             "defects leave no usable cores on wafer " + std::to_string(device + 1) + " (" +
                                 std::to_string(s.deadCores) + " dead, " + std::to_string(s.unrepairableSegments) +
                                 " unrepairable segments, " + std::to_string(s.droppedRows) + " of " +
                                 std::to_string(wafer.meshRows) + " rows lost)",
                             "defect-rate");
        }
        out.usableMesh = out.devices.empty() ? mesh
                                             : MeshSize{std::min(out.usableMesh.cols, mesh.cols),
                                                        std::min(out.usableMesh.rows, mesh.rows)};
        out.devices.push_back(remap->summary());
        out.remaps.push_back(std::move(*remap));
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
    out.remaps.erase(out.remaps.begin() + std::min<std::ptrdiff_t>(out.placement.deviceCount, out.remaps.size()),
                     out.remaps.end());
    out.totals = sumDefects(out.devices, out.usableMesh);
    if (defects.any()) {
        std::vector<CoreRect> regions;
        for (int device = 0; device < int(out.remaps.size()); ++device) {
            regions.clear();
            for (const PlacedRegion& region : out.placement.regions)
                if (region.device == device)
                    regions.push_back(region.rect);
            const AxisStretch s = regionHopStretch(out.remaps[size_t(device)], regions);
            out.hopStretchX = std::max(out.hopStretchX, s.x);
            out.hopStretchY = std::max(out.hopStretchY, s.y);
        }
    }
    return out;
}

Expected<DefectPlacement> placeWithDefects(const ModelConfig& model, const WaferSpec& wafer, PlacementOptions options,
                                           double defectRate, uint64_t seed)
{
    return placeWithDefects(model, wafer, std::move(options), DefectRequest{defectRate, seed, {}});
}

} // namespace ws
