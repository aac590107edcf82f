#include "engine/wafer/redundancy/defectlayer.h"

#include <string>

namespace ws {

Expected<CellToCore> CellToCore::of(int meshCols, int meshRows, const SpareLayout& layout)
{
    CellToCore c;
    c.m_layout = &layout;
    if (meshCols == layout.fabricCols() && meshRows == layout.fabricRows())
        return c; // the fabric itself
    if (meshCols == layout.nominalUsableCols() && meshRows == layout.nominalUsableRows()) {
        c.m_offsetX = layout.reservedLeft();
        c.m_offsetY = layout.reservedTop();
        return c;
    }
    return makeError(ErrorCode::InvalidArgument,
                     "snapshot mesh " + std::to_string(meshCols) + "x" + std::to_string(meshRows) +
                         " matches neither the fabric nor the usable mesh",
                     "meshCols");
}

int32_t CellToCore::physicalIndex(int cellX, int cellY) const
{
    const int px = physicalX(cellX);
    const int py = physicalY(cellY);
    if (px < 0 || py < 0 || px >= m_layout->physicalCols() || py >= m_layout->physicalRows())
        return -1;
    return int32_t(py) * m_layout->physicalCols() + px;
}

Status fillDefectLayer(MeshSnapshot& snapshot, int device, const Remap& remap)
{
    const auto cells = CellToCore::of(snapshot.meshCols, snapshot.meshRows, remap.layout());
    if (!cells)
        return cells.error();
    if (device < 0 || device > 4096)
        return makeError(ErrorCode::OutOfRange, "device index out of range", "device");
    if (int(snapshot.coreState.size()) <= device)
        snapshot.coreState.resize(size_t(device) + 1);
    std::vector<CoreState>& out = snapshot.coreState[size_t(device)];
    out.resize(size_t(snapshot.meshCols) * size_t(snapshot.meshRows));
    const int physCols = remap.layout().physicalCols();
    std::vector<int> nominalX(static_cast<size_t>(snapshot.meshCols));
    for (int x = 0; x < snapshot.meshCols; ++x)
        nominalX[size_t(x)] = cells->physicalX(x);
    for (int y = 0; y < snapshot.meshRows; ++y) {
        const int py = cells->physicalY(y);
        for (int x = 0; x < snapshot.meshCols; ++x)
            out[size_t(y) * size_t(snapshot.meshCols) + size_t(x)] =
                remap.state(int32_t(py) * physCols + nominalX[size_t(x)]);
    }
    return Ok{};
}

} // namespace ws
