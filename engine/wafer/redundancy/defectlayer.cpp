#include "engine/wafer/redundancy/defectlayer.h"

#include <string>

namespace ws {

Status fillDefectLayer(MeshSnapshot& snapshot, int device, const Remap& remap)
{
    const SpareLayout& layout = remap.layout();
    int offsetX = 0;
    int offsetY = 0;
    if (snapshot.meshCols == layout.fabricCols() && snapshot.meshRows == layout.fabricRows()) {
        // the fabric itself
    } else if (snapshot.meshCols == layout.nominalUsableCols() && snapshot.meshRows == layout.nominalUsableRows()) {
        offsetX = layout.reservedLeft();
        offsetY = layout.reservedTop();
    } else {
        return makeError(ErrorCode::InvalidArgument,
                         "snapshot mesh " + std::to_string(snapshot.meshCols) + "x" +
                             std::to_string(snapshot.meshRows) + " matches neither the fabric nor the usable mesh",
                         "meshCols");
    }
    if (device < 0 || device > 4096)
        return makeError(ErrorCode::OutOfRange, "device index out of range", "device");
    if (int(snapshot.coreState.size()) <= device)
        snapshot.coreState.resize(size_t(device) + 1);
    std::vector<CoreState>& out = snapshot.coreState[size_t(device)];
    out.resize(size_t(snapshot.meshCols) * size_t(snapshot.meshRows));
    const int physCols = layout.physicalCols();
    std::vector<int> nominalX(static_cast<size_t>(snapshot.meshCols));
    for (int x = 0; x < snapshot.meshCols; ++x)
        nominalX[size_t(x)] = layout.nominalPhysicalX(x + offsetX);
    for (int y = 0; y < snapshot.meshRows; ++y) {
        const int py = layout.nominalPhysicalY(y + offsetY);
        for (int x = 0; x < snapshot.meshCols; ++x)
            out[size_t(y) * size_t(snapshot.meshCols) + size_t(x)] =
                remap.state(int32_t(py) * physCols + nominalX[size_t(x)]);
    }
    return Ok{};
}

} // namespace ws
