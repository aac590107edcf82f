#include "engine/perf/defectcost.h"

#include "engine/perf/waferpredictor.h"
#include "engine/wafer/defectmap.h"
#include "engine/wafer/remaplayout.h"

#include <algorithm>

namespace ws {

Expected<WaferDefectCost> waferDefectCost(const ModelConfig& model, const HardwareSpec& hw, const Workload& w,
                                          double deadFraction, uint64_t seed)
{
    if (hw.kind != HardwareKind::Wafer)
        return makeError(ErrorCode::InvalidArgument, "defects apply to wafers only", "defect-rate");
    if (!(deadFraction >= 0.0 && deadFraction <= 1.0))
        return makeError(ErrorCode::InvalidArgument, "defect rate must be a fraction of cores from 0 to 1",
                         "defect-rate");
    auto layout = RemapLayout::fromSpec(hw.wafer);
    if (!layout)
        return layout.error();
    auto map = DefectMap::random(*layout, deadFraction, seed);
    if (!map)
        return map.error();
    auto remap = Remap::run(*layout, *map);
    if (!remap)
        return remap.error();
    WaferDefectCost cost;
    cost.summary = remap->summary();
    const MeshSize usable = remap->usableLogicalMesh();
    if (usable.cols <= 0 || usable.rows <= 0)
        return makeError(ErrorCode::OutOfRange, "the defects leave no usable mesh", "defect-rate");
    cost.usableCols = usable.cols;
    cost.usableRows = usable.rows;
    WaferPredictOptions o;
    o.usableCols = usable.cols;
    o.usableRows = usable.rows;
    auto setup = prepareWafer(model, hw, w, o);
    if (!setup)
        return setup.error();
    for (const RegionRef& r : setup->layout.layers) {
        const LogicalRect rect{r.rect.x - hw.wafer.reservedLeftCols, r.rect.y - hw.wafer.reservedTopRows,
                               r.rect.width, r.rect.height};
        if (rect.x < 0 || rect.y < 0 || rect.x + rect.width > usable.cols || rect.y + rect.height > usable.rows)
            continue; // a region outside the remapped mesh (span fallback): no stretch known
        cost.hopStretch = std::max({cost.hopStretch, remap->hopStretch(rect, MeshAxis::X).maxStretch,
                                    remap->hopStretch(rect, MeshAxis::Y).maxStretch});
    }
    return cost;
}

} // namespace ws
