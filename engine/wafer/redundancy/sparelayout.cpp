#include "engine/wafer/redundancy/sparelayout.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace ws {

namespace {

constexpr int kMaxMeshSide = 1 << 16;
constexpr int64_t kMaxPhysicalCores = int64_t(1) << 30; // int32 indices with room to spare
constexpr int kMaxSpares = 4096;                        // displacements fit int16
constexpr int kMaxSegmentSpares = 100;                  // row shifts fit int8

Error layoutError(std::string text, std::string field)
{
    return makeError(ErrorCode::OutOfRange, std::move(text), std::move(field));
}

int evenSplit(int index, int total, int parts)
{
    return int(int64_t(index) * total / parts);
}

// Part p with evenSplit(p) <= v < evenSplit(p + 1).
int partOf(int v, int total, int parts)
{
    int p = std::clamp(int(int64_t(v) * parts / std::max(total, 1)), 0, parts - 1);
    while (p + 1 < parts && evenSplit(p + 1, total, parts) <= v)
        ++p;
    while (p > 0 && evenSplit(p, total, parts) > v)
        --p;
    return p;
}

} // namespace

Expected<SpareLayout> SpareLayout::fromSpec(const WaferSpec& spec)
{
    const int n = spec.segmentPrimaryCores > 0 ? spec.segmentPrimaryCores : std::max(spec.meshCols, 1);
    const int s = spec.segmentPrimaryCores > 0 ? spec.segmentSpareCores : 0;
    return rowShiftFromSpec(spec, n, s);
}

Expected<SpareLayout> SpareLayout::withReservedBorder(Expected<SpareLayout> layout, const WaferSpec& spec)
{
    if (!layout)
        return layout;
    if (spec.reservedCols < 0 || spec.reservedRows < 0 || spec.reservedCols >= spec.meshCols ||
        spec.reservedRows >= spec.meshRows)
        return layoutError("reserved border leaves no usable cores", "reservedCols");
    layout->setReserved(spec);
    return layout;
}

Expected<SpareLayout> SpareLayout::rowShiftFromSpec(const WaferSpec& spec, int primaryCores, int spareCores)
{
    auto layout = rowShift(spec.meshCols, spec.meshRows, primaryCores, spareCores, spec.coreAreaMm2,
                           std::max(spec.diesX, 1), std::max(spec.diesY, 1));
    return withReservedBorder(std::move(layout), spec);
}

Expected<SpareLayout> SpareLayout::rowShiftForSpareFraction(const WaferSpec& spec, double spareFraction,
                                                            int sparesPerSegment)
{
    if (!std::isfinite(spareFraction) || spareFraction < 0 || spareFraction >= 0.5)
        return layoutError("spare fraction must be 0 <= f < 0.5", "spareFraction");
    if (sparesPerSegment < 1 || sparesPerSegment > kMaxSegmentSpares)
        return layoutError("spares per segment must be 1.." + std::to_string(kMaxSegmentSpares), "segmentSpareCores");
    if (spareFraction == 0)
        return rowShiftFromSpec(spec, std::max(spec.meshCols, 1), 0);
    const double n = std::round(sparesPerSegment * (1.0 - spareFraction) / spareFraction);
    const int primary = int(std::clamp(n, 1.0, double(std::max(spec.meshCols, 1))));
    return rowShiftFromSpec(spec, primary, sparesPerSegment);
}

Expected<SpareLayout> SpareLayout::dieRowColumnFromSpec(const WaferSpec& spec, DieSpares spares)
{
    auto layout = dieRowColumn(spec.meshCols, spec.meshRows, std::max(spec.diesX, 1), std::max(spec.diesY, 1), spares,
                               spec.coreAreaMm2);
    return withReservedBorder(std::move(layout), spec);
}

SpareLayout::SpareLayout(SpareScheme scheme, int fabricCols, int fabricRows, int diesX, int diesY, double coreAreaMm2)
    : m_scheme(scheme), m_fabricCols(fabricCols), m_fabricRows(fabricRows), m_diesX(diesX), m_diesY(diesY),
      m_coreAreaMm2(coreAreaMm2)
{
}

Expected<SpareLayout> SpareLayout::rowShift(int fabricCols, int fabricRows, int primaryCores, int spareCores,
                                            double coreAreaMm2, int diesX, int diesY)
{
    SpareLayout l(SpareScheme::RowShift, fabricCols, fabricRows, diesX, diesY, coreAreaMm2);
    l.m_segmentPrimary = primaryCores;
    l.m_segmentSpare = spareCores;
    if (primaryCores < 1 || primaryCores > kMaxMeshSide)
        return layoutError("segment needs at least one primary core", "segmentPrimaryCores");
    if (spareCores < 0 || spareCores > kMaxSegmentSpares)
        return layoutError("spare cores per segment must be 0.." + std::to_string(kMaxSegmentSpares),
                           "segmentSpareCores");
    if (auto st = l.finish(); !st)
        return st.error();
    return l;
}

Expected<SpareLayout> SpareLayout::dieRowColumn(int fabricCols, int fabricRows, int diesX, int diesY, DieSpares spares,
                                                double coreAreaMm2)
{
    SpareLayout l(SpareScheme::DieRowColumn, fabricCols, fabricRows, diesX, diesY, coreAreaMm2);
    l.m_dieSpares = spares;
    if (spares.spareRows < 0 || spares.spareCols < 0 || spares.spareRows > kMaxSpares || spares.spareCols > kMaxSpares)
        return layoutError("spare rows/columns per die must be 0.." + std::to_string(kMaxSpares), "dieSpares");
    if (auto st = l.finish(); !st)
        return st.error();
    return l;
}

Status SpareLayout::finish()
{
    if (m_fabricCols < 1 || m_fabricRows < 1 || m_fabricCols > kMaxMeshSide || m_fabricRows > kMaxMeshSide)
        return layoutError("mesh size must be 1.." + std::to_string(kMaxMeshSide) + " cores per side", "meshCols");
    if (!(m_coreAreaMm2 >= 0) || !std::isfinite(m_coreAreaMm2))
        return layoutError("core area must be a non-negative number", "coreAreaMm2");
    if (m_diesX < 1 || m_diesY < 1 || m_diesX > m_fabricCols || m_diesY > m_fabricRows)
        return layoutError("dies must be at least 1 and at most one per core", "diesX");
    if (m_scheme == SpareScheme::RowShift) {
        m_segmentsPerRow = (m_fabricCols + m_segmentPrimary - 1) / m_segmentPrimary;
        const int last = m_fabricCols - (m_segmentsPerRow - 1) * m_segmentPrimary;
        m_physicalCols = (m_segmentsPerRow - 1) * (m_segmentPrimary + m_segmentSpare) + last + m_segmentSpare;
        m_physicalRows = m_fabricRows;
    } else {
        m_segmentsPerRow = 0;
        m_physicalCols = m_fabricCols + m_diesX * m_dieSpares.spareCols;
        m_physicalRows = m_fabricRows + m_diesY * m_dieSpares.spareRows;
    }
    if (m_physicalCols > kMaxMeshSide * 2 || m_physicalRows > kMaxMeshSide * 2 ||
        physicalCoreCount() > kMaxPhysicalCores)
        return layoutError("physical mesh too large", "segmentSpareCores");
    return Ok{};
}

void SpareLayout::setReserved(const WaferSpec& spec)
{
    // Offsets from the preset; without them, the larger half first (the SDK's (4, 1) for 7 and 2 lines).
    const bool haveOffsets = spec.reservedLeftCols > 0 || spec.reservedTopRows > 0;
    m_reservedLeft =
        haveOffsets ? std::min(spec.reservedLeftCols, spec.reservedCols) : spec.reservedCols - spec.reservedCols / 2;
    m_reservedRight = spec.reservedCols - m_reservedLeft;
    m_reservedTop =
        haveOffsets ? std::min(spec.reservedTopRows, spec.reservedRows) : spec.reservedRows - spec.reservedRows / 2;
    m_reservedBottom = spec.reservedRows - m_reservedTop;
}

int SpareLayout::nominalUsableCols() const
{
    return std::max(0, m_fabricCols - m_reservedLeft - m_reservedRight);
}

int SpareLayout::nominalUsableRows() const
{
    return std::max(0, m_fabricRows - m_reservedTop - m_reservedBottom);
}

int SpareLayout::segmentPrimaryCount(int segment) const
{
    if (segment < 0 || segment >= m_segmentsPerRow)
        return 0;
    return std::min(m_segmentPrimary, m_fabricCols - segment * m_segmentPrimary);
}

int SpareLayout::dieFabricColStart(int dieX) const
{
    return evenSplit(std::clamp(dieX, 0, m_diesX), m_fabricCols, m_diesX);
}

int SpareLayout::dieFabricRowStart(int dieY) const
{
    return evenSplit(std::clamp(dieY, 0, m_diesY), m_fabricRows, m_diesY);
}

PhysicalRect SpareLayout::dieRect(int dieX, int dieY) const
{
    if (dieX < 0 || dieY < 0 || dieX >= m_diesX || dieY >= m_diesY)
        return {};
    PhysicalRect r;
    if (m_scheme == SpareScheme::RowShift) {
        r.x = evenSplit(dieX, m_physicalCols, m_diesX);
        r.width = evenSplit(dieX + 1, m_physicalCols, m_diesX) - r.x;
        r.y = evenSplit(dieY, m_physicalRows, m_diesY);
        r.height = evenSplit(dieY + 1, m_physicalRows, m_diesY) - r.y;
    } else {
        r.x = dieFabricColStart(dieX) + dieX * m_dieSpares.spareCols;
        r.width = dieFabricColStart(dieX + 1) - dieFabricColStart(dieX) + m_dieSpares.spareCols;
        r.y = dieFabricRowStart(dieY) + dieY * m_dieSpares.spareRows;
        r.height = dieFabricRowStart(dieY + 1) - dieFabricRowStart(dieY) + m_dieSpares.spareRows;
    }
    return r;
}

double SpareLayout::spareFraction() const
{
    const double physical = double(physicalCoreCount());
    return physical > 0 ? 1.0 - double(m_fabricCols) * m_fabricRows / physical : 0.0;
}

int SpareLayout::nominalPhysicalX(int fabricX) const
{
    if (m_scheme == SpareScheme::RowShift)
        return segmentPhysicalStart(fabricX / m_segmentPrimary) + fabricX % m_segmentPrimary;
    return fabricX + partOf(fabricX, m_fabricCols, m_diesX) * m_dieSpares.spareCols;
}

int SpareLayout::nominalPhysicalY(int fabricY) const
{
    if (m_scheme == SpareScheme::RowShift)
        return fabricY;
    return fabricY + partOf(fabricY, m_fabricRows, m_diesY) * m_dieSpares.spareRows;
}

bool SpareLayout::isSpareColumn(int physicalX) const
{
    if (m_scheme == SpareScheme::RowShift) {
        const int period = m_segmentPrimary + m_segmentSpare;
        return physicalX % period >= segmentPrimaryCount(physicalX / period);
    }
    const int width = m_fabricCols / m_diesX + m_dieSpares.spareCols;
    int die = std::clamp(physicalX / std::max(width, 1), 0, m_diesX - 1);
    while (die + 1 < m_diesX && dieRect(die + 1, 0).x <= physicalX)
        ++die;
    while (die > 0 && dieRect(die, 0).x > physicalX)
        --die;
    const PhysicalRect r = dieRect(die, 0);
    return physicalX - r.x >= r.width - m_dieSpares.spareCols;
}

bool SpareLayout::isSpareRow(int physicalY) const
{
    if (m_scheme == SpareScheme::RowShift)
        return false;
    const int height = m_fabricRows / m_diesY + m_dieSpares.spareRows;
    int die = std::clamp(physicalY / std::max(height, 1), 0, m_diesY - 1);
    while (die + 1 < m_diesY && dieRect(0, die + 1).y <= physicalY)
        ++die;
    while (die > 0 && dieRect(0, die).y > physicalY)
        --die;
    const PhysicalRect r = dieRect(0, die);
    return physicalY - r.y >= r.height - m_dieSpares.spareRows;
}

} // namespace ws
