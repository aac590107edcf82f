#pragma once
// The physical layout behind a wafer's logical mesh. Software sees a defect-free
// logical fabric of fabricCols x fabricRows cores (the preset's meshCols x
// meshRows, the SDK "fabric dims"); the silicon has more cores than that, the
// spares, so that dead cores can be skipped. Two spare schemes are modelled:
//
// - RowShift (Cerebras-like: [Cerebras-yield], [Cerebras-patent], [WaferScope-model] in docs/sources.md): each physical
//   row is cut into segments of n primary + s spare cores (n, s from the preset:
//   segmentPrimaryCores, segmentSpareCores). The s spares sit at the right end
//   of their segment. A row's logical cores take the segment's healthy cores in
//   order, so every core right of a dead one shifts right by one position.
// - DieRowColumn (classical spare rows and columns, [Spare-rows-columns]): each reticle
//   die (diesX x diesY) carries dieSpareRows extra rows at its bottom and
//   dieSpareCols extra columns at its right; a die is repaired by retiring whole
//   rows and columns that hold dead cores. For comparison only.
//
// Coordinates: physical cores are indexed row-major, index = y * physicalCols + x.
// Fabric (logical) coordinates include the memcpy/I-O border (reservedCols,
// reservedRows of the preset, reservedLeftCols/reservedTopRows of it on the
// left/top; when those are 0 the larger half goes left/top, as the SDK's offsets
// 4,1 for 7 and 2 reserved lines); the "usable" mesh that placement uses excludes
// it. With no defects it is WaferSpec::usableCols() x usableRows().

#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"

#include <cstdint>

namespace ws {

enum class SpareScheme
{
    RowShift,
    DieRowColumn
};

struct PhysicalRect
{
    int x = 0;
    int y = 0;
    int width = 0;
    int height = 0;
};

// Spares per die for the DieRowColumn comparison scheme (not in WaferSpec).
struct DieSpares
{
    int spareRows = 0; // extra physical rows per die
    int spareCols = 0; // extra physical columns per die
};

class SpareLayout
{
public:
    SpareLayout() = default;

    // Reads meshCols/meshRows, reservedCols/reservedRows, segmentPrimaryCores,
    // segmentSpareCores, diesX/diesY and coreAreaMm2 from the preset. A preset
    // without segments (segmentPrimaryCores == 0) has one segment per row and no spares.
    static Expected<SpareLayout> fromSpec(const WaferSpec& spec);
    // The same wafer with spare rows/columns per die instead of row segments.
    static Expected<SpareLayout> dieRowColumnFromSpec(const WaferSpec& spec, DieSpares spares);
    // The same wafer with a different row-segment layout (n primary + s spare cores).
    static Expected<SpareLayout> rowShiftFromSpec(const WaferSpec& spec, int primaryCores, int spareCores);

    // Row segments with about the given spare fraction s / (n + s) (0 = no spares), s spares each:
    // n = round(s (1 - f) / f). For yield studies over the spare fraction.
    static Expected<SpareLayout> rowShiftForSpareFraction(const WaferSpec& spec, double spareFraction,
                                                          int sparesPerSegment = 1);

    // Direct construction (tests, the yield panel): fabric size, segment layout, no reserved border.
    static Expected<SpareLayout> rowShift(int fabricCols, int fabricRows, int primaryCores, int spareCores,
                                          double coreAreaMm2, int diesX = 1, int diesY = 1);
    static Expected<SpareLayout> dieRowColumn(int fabricCols, int fabricRows, int diesX, int diesY, DieSpares spares,
                                              double coreAreaMm2);

    SpareScheme scheme() const { return m_scheme; }
    int fabricCols() const { return m_fabricCols; }
    int fabricRows() const { return m_fabricRows; }
    int physicalCols() const { return m_physicalCols; }
    int physicalRows() const { return m_physicalRows; }
    int64_t physicalCoreCount() const { return int64_t(m_physicalCols) * m_physicalRows; }
    double coreAreaMm2() const { return m_coreAreaMm2; }
    double physicalAreaMm2() const { return m_coreAreaMm2 * double(physicalCoreCount()); }

    int reservedLeft() const { return m_reservedLeft; }
    int reservedRight() const { return m_reservedRight; }
    int reservedTop() const { return m_reservedTop; }
    int reservedBottom() const { return m_reservedBottom; }
    // The usable mesh when nothing is dead (fabric minus the reserved border).
    int nominalUsableCols() const;
    int nominalUsableRows() const;

    // RowShift geometry.
    int segmentPrimaryCores() const { return m_segmentPrimary; }
    int segmentSpareCores() const { return m_segmentSpare; }
    int segmentsPerRow() const { return m_segmentsPerRow; }
    int64_t segmentCount() const { return int64_t(m_segmentsPerRow) * m_fabricRows; }
    // Primary cores of segment j (the last one may be shorter).
    int segmentPrimaryCount(int segment) const;
    int segmentPhysicalStart(int segment) const { return segment * (m_segmentPrimary + m_segmentSpare); }

    // Dies (both schemes; RowShift splits the physical grid evenly).
    int diesX() const { return m_diesX; }
    int diesY() const { return m_diesY; }
    DieSpares dieSpares() const { return m_dieSpares; }
    PhysicalRect dieRect(int dieX, int dieY) const;
    // Fabric columns/rows [first, end) of die column dieX / die row dieY (DieRowColumn).
    int dieFabricColStart(int dieX) const;
    int dieFabricRowStart(int dieY) const;

    // Fraction of physical cores that are spares.
    double spareFraction() const;

    // Physical position a fabric core takes when nothing is dead.
    int nominalPhysicalX(int fabricX) const;
    int nominalPhysicalY(int fabricY) const;
    // True where a physical column/row holds spares only (no nominal fabric core).
    bool isSpareColumn(int physicalX) const;
    bool isSpareRow(int physicalY) const;

private:
    SpareLayout(SpareScheme scheme, int fabricCols, int fabricRows, int diesX, int diesY, double coreAreaMm2);
    Status finish();
    // `layout` with the preset's reserved border (an error when the border leaves no usable cores).
    static Expected<SpareLayout> withReservedBorder(Expected<SpareLayout> layout, const WaferSpec& spec);
    void setReserved(const WaferSpec& spec);

    SpareScheme m_scheme = SpareScheme::RowShift;
    int m_fabricCols = 0;
    int m_fabricRows = 0;
    int m_physicalCols = 0;
    int m_physicalRows = 0;
    int m_reservedLeft = 0;
    int m_reservedRight = 0;
    int m_reservedTop = 0;
    int m_reservedBottom = 0;
    int m_segmentPrimary = 0;
    int m_segmentSpare = 0;
    int m_segmentsPerRow = 0;
    int m_diesX = 1;
    int m_diesY = 1;
    DieSpares m_dieSpares;
    double m_coreAreaMm2 = 0;
};

} // namespace ws
