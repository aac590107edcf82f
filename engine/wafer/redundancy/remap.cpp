#include "engine/wafer/redundancy/remap.h"

#include <algorithm>
#include <cstdlib>

namespace ws {

DefectSummary sumDefects(const std::vector<DefectSummary>& wafers, MeshSize usableMesh)
{
    DefectSummary t;
    for (const DefectSummary& s : wafers)
        t += s;
    t.usableCores = int64_t(wafers.size()) * usableMesh.cores();
    t.capacityLostCores = t.nominalUsableCores - t.usableCores;
    return t;
}

Expected<Remap> Remap::run(const SpareLayout& layout, const DefectMap& defects)
{
    Remap out;
    if (auto st = runInto(layout, defects, out); !st)
        return st.error();
    return out;
}

Status Remap::runInto(const SpareLayout& layout, const DefectMap& defects, Remap& out)
{
    if (defects.cols() != layout.physicalCols() || defects.rows() != layout.physicalRows())
        return makeError(ErrorCode::InvalidArgument,
                         "defect map is " + std::to_string(defects.cols()) + "x" + std::to_string(defects.rows()) +
                             " but the physical mesh is " + std::to_string(layout.physicalCols()) + "x" +
                             std::to_string(layout.physicalRows()),
                         "defects");
    out.m_layout = layout;
    out.m_summary = DefectSummary{};
    out.m_fabricToPhysical.clear();
    out.m_keptRows.clear();
    out.m_keptRowClean.clear();
    out.m_droppedRows.clear();
    out.m_unrepairable.clear();
    out.m_spareCol.resize(size_t(layout.physicalCols()));
    for (int x = 0; x < layout.physicalCols(); ++x)
        out.m_spareCol[size_t(x)] = layout.isSpareColumn(x) ? 1 : 0;
    out.m_spareRow.resize(size_t(layout.physicalRows()));
    for (int y = 0; y < layout.physicalRows(); ++y)
        out.m_spareRow[size_t(y)] = layout.isSpareRow(y) ? 1 : 0;

    if (layout.scheme() == SpareScheme::RowShift)
        out.runRowShift(defects);
    else
        out.runDieRowColumn(defects);
    out.finishStates(defects);
    return Ok{};
}

void Remap::finishStates(const DefectMap& defects)
{
    const int physCols = m_layout.physicalCols();
    const size_t n = size_t(m_layout.physicalCoreCount());
    m_states.resize(n);
    m_dx.assign(n, 0);
    m_dy.assign(n, 0);
    const std::vector<uint8_t>& dead = defects.cells();
    for (size_t i = 0; i < n; ++i)
        m_states[i] = dead[i] ? CoreState::Dead : CoreState::SpareIdle;

    m_fabricCols = m_layout.fabricCols();
    m_fabricRows = int(m_keptRows.size());
    std::vector<int> nominalX(static_cast<size_t>(m_fabricCols));
    for (int x = 0; x < m_fabricCols; ++x)
        nominalX[size_t(x)] = m_layout.nominalPhysicalX(x);

    const int top = m_layout.reservedTop();
    const int bottom = m_fabricRows - m_layout.reservedBottom();
    std::vector<uint8_t> reservedCol(static_cast<size_t>(m_fabricCols), 0);
    for (int x = 0; x < m_fabricCols; ++x)
        reservedCol[size_t(x)] = x < m_layout.reservedLeft() || x >= m_fabricCols - m_layout.reservedRight();
    const bool straightRows = m_layout.scheme() == SpareScheme::RowShift; // a logical row stays in its physical row
    int64_t sparesUsed = 0;
    int64_t shiftedCores = 0;
    for (int y = 0; y < m_fabricRows; ++y) {
        const int nominalY = m_layout.nominalPhysicalY(m_keptRows[size_t(y)]);
        const bool reservedRow = y < top || y >= bottom;
        const int32_t* hosts = m_fabricToPhysical.data() + size_t(y) * size_t(m_fabricCols);
        if (m_keptRowClean[size_t(y)]) {
            // Fast path (most rows): no displacement, no spare in use.
            for (int x = 0; x < m_fabricCols; ++x)
                m_states[size_t(hosts[x])] =
                    (reservedRow || reservedCol[size_t(x)]) ? CoreState::Reserved : CoreState::Healthy;
            continue;
        }
        for (int x = 0; x < m_fabricCols; ++x) {
            const int32_t p = hosts[x];
            const int py = straightRows ? nominalY : p / physCols;
            const int px = p - py * physCols;
            const int dx = px - nominalX[size_t(x)];
            const int dy = py - nominalY;
            m_dx[size_t(p)] = int16_t(dx);
            m_dy[size_t(p)] = int16_t(dy);
            const bool spare = m_spareCol[size_t(px)] || m_spareRow[size_t(py)];
            const bool shifted = dx != 0 || dy != 0;
            sparesUsed += spare;
            shiftedCores += shifted;
            CoreState state = shifted ? CoreState::Shifted : CoreState::Healthy;
            state = spare ? CoreState::SpareUsed : state;
            m_states[size_t(p)] = (reservedRow || reservedCol[size_t(x)]) ? CoreState::Reserved : state;
        }
    }
    DefectSummary& sum = m_summary;
    sum.sparesUsed = sparesUsed;
    sum.shiftedCores = shiftedCores;
    sum.deadCores = defects.deadCount();
    sum.droppedRows = int(m_droppedRows.size());
    sum.usableCores = usableLogicalMesh().cores();
    sum.nominalUsableCores = int64_t(m_layout.nominalUsableCols()) * m_layout.nominalUsableRows();
    sum.capacityLostCores = sum.nominalUsableCores - sum.usableCores;
}

MeshSize Remap::usableLogicalMesh() const
{
    const int cols = m_fabricCols - m_layout.reservedLeft() - m_layout.reservedRight();
    const int rows = m_fabricRows - m_layout.reservedTop() - m_layout.reservedBottom();
    if (cols <= 0 || rows <= 0)
        return {};
    return {cols, rows};
}

bool Remap::isFreeBypass(int32_t physicalIndex) const
{
    const int physCols = m_layout.physicalCols();
    return m_states[size_t(physicalIndex)] == CoreState::SpareIdle &&
           (m_spareCol[size_t(physicalIndex % physCols)] || m_spareRow[size_t(physicalIndex / physCols)]);
}

int Remap::linkHops(int x, int y, MeshAxis axis) const
{
    const MeshSize usable = usableLogicalMesh();
    const int endX = axis == MeshAxis::X ? x + 1 : x;
    const int endY = axis == MeshAxis::Y ? y + 1 : y;
    if (x < 0 || y < 0 || endX >= usable.cols || endY >= usable.rows)
        return 0;
    const int physCols = m_layout.physicalCols();
    const int32_t a = physicalOfUsable(x, y);
    const int32_t b = axis == MeshAxis::X ? physicalOfUsable(x + 1, y) : physicalOfUsable(x, y + 1);
    const int ax = a % physCols;
    const int ay = a / physCols;
    const int bx = b % physCols;
    const int by = b / physCols;
    int skipped = 0;
    int delta = 0;
    if (axis == MeshAxis::X) {
        for (int px = std::min(ax, bx) + 1; px < std::max(ax, bx); ++px)
            skipped += isFreeBypass(ay * physCols + px) ? 0 : 1;
        delta = std::abs(by - ay);
    } else {
        for (int py = std::min(ay, by) + 1; py < std::max(ay, by); ++py)
            skipped += isFreeBypass(py * physCols + ax) ? 0 : 1;
        delta = std::abs(bx - ax);
    }
    return 1 + skipped + delta;
}

HopStretch Remap::hopStretch(CoreRect region, MeshAxis axis) const
{
    HopStretch out;
    const MeshSize usable = usableLogicalMesh();
    const int x0 = std::clamp(region.x, 0, usable.cols);
    const int y0 = std::clamp(region.y, 0, usable.rows);
    const int x1 = std::clamp(region.x + std::max(region.width, 0), x0, usable.cols);
    const int y1 = std::clamp(region.y + std::max(region.height, 0), y0, usable.rows);
    const int lineLength = axis == MeshAxis::X ? x1 - x0 : y1 - y0;
    const int lines = axis == MeshAxis::X ? y1 - y0 : x1 - x0;
    if (lineLength < 2 || lines < 1)
        return out;
    double sumStretch = 0;
    out.maxStretch = 0;
    for (int line = 0; line < lines; ++line) {
        int64_t hops = 0;
        for (int i = 0; i < lineLength - 1; ++i)
            hops += axis == MeshAxis::X ? linkHops(x0 + i, y0 + line, axis) : linkHops(x0 + line, y0 + i, axis);
        out.extraHops += hops - (lineLength - 1);
        const double stretch = double(hops) / double(lineLength - 1);
        sumStretch += stretch;
        if (stretch > out.maxStretch) {
            out.maxStretch = stretch;
            out.worstLine = line;
        }
    }
    out.meanStretch = sumStretch / lines;
    return out;
}

} // namespace ws
