#pragma once
// Redundancy remap: from a defect map on the physical grid to the logical mesh
// that software (placement) sees. The map is one-to-one from logical cores to
// healthy physical cores and is recomputed from scratch in O(physical cores).
//
// RowShift scheme (after Cerebras' patent US 11,328,208 [Cerebras-patent];
// [WaferScope-model] in docs/sources.md): in every physical row
// each segment of n primary + s spare cores gives its n logical cores the
// segment's healthy cores in order, skipping dead ones, so a core right of k dead
// cores is displaced by k (k <= s). A segment with more than s dead cores is
// unrepairable. A vertical link joins the same logical column in two adjacent
// logical rows; its displacement delta = |shift(x, y) - shift(x, y')| must be
// <= 1 (one diagonal link). With s >= 2 a row may step over healthy cores (spend a
// spare early) to stay within one position of its neighbours (remaprowshift.cpp).
//
// Capacity lost: the logical mesh stays rectangular, so a physical row with an
// unrepairable segment is dropped from it (vertical skip links, patent claim 1
// (4)/(5), join the rows above and below), and so is a row whose vertical links
// to the last kept row would need delta > 1. The logical fabric then has
// fabricCols x (fabricRows - droppedRows) cores; usableLogicalMesh() removes the
// reserved memcpy border. DieRowColumn scheme: a die whose dead cores cannot be
// covered by its spare rows and columns drops its whole band of rows.
//
// Remap cost (option B of [WaferScope-model]): a logical link costs hops = 1 + skipped + delta,
// where skipped counts the physical cores passed over (dead cores, cores of
// dropped rows or retired lines; idle spares are bypassed free) and delta is the
// displacement across the link. hopStretch() gives S_line = sum(hops) / (P - 1)
// per line of a region and its maximum, so the allreduce timing can use alpha * S_max.

#include "engine/core/error.h"
#include "engine/core/fieldwise.h"
#include "engine/wafer/placement/meshsnapshot.h"
#include "engine/wafer/placement/regioncut.h"
#include "engine/wafer/redundancy/defectmap.h"
#include "engine/wafer/redundancy/sparelayout.h"

#include <cstdint>
#include <tuple>
#include <vector>

namespace ws {

enum class MeshAxis
{
    X,
    Y
};

struct MeshSize
{
    int cols = 0;
    int rows = 0;
    int64_t cores() const { return int64_t(cols) * rows; }
    bool operator==(const MeshSize&) const = default;
};

// The four numbers the CLI reports, plus what they cost. Plain values: can be compared and summed.
struct DefectSummary
{
    int64_t deadCores = 0;            // dead physical cores
    int64_t sparesUsed = 0;           // spare-position cores that host a logical core
    int64_t unrepairableSegments = 0; // segments (RowShift) or dies (DieRowColumn) the spares cannot repair
    int64_t usableCores = 0;          // usableLogicalMesh() cols * rows
    int64_t nominalUsableCores = 0;   // the same with no defects
    int64_t capacityLostCores = 0;    // nominalUsableCores - usableCores
    int64_t shiftedCores = 0;         // logical cores away from their nominal physical position
    int droppedRows = 0;              // fabric rows removed from the logical mesh
    int displacementConflicts = 0;    // of those, rows dropped for a vertical displacement > 1

    static constexpr auto fields() // every count, summed over wafers by += (engine/core/fieldwise.h)
    {
        using S = DefectSummary;
        return std::tuple{&S::deadCores,    &S::sparesUsed,         &S::unrepairableSegments,
                          &S::usableCores,  &S::nominalUsableCores, &S::capacityLostCores,
                          &S::shiftedCores, &S::droppedRows,        &S::displacementConflicts};
    }
};

// Totals over wafers placed on one common usable rectangle: the counts summed, but usableCores =
// wafers x usableMesh, so a wafer whose own mesh is larger counts its surplus as capacity lost.
DefectSummary sumDefects(const std::vector<DefectSummary>& wafers, MeshSize usableMesh);

struct HopStretch
{
    double maxStretch = 1.0;  // S_max over the lines of the region
    double meanStretch = 1.0; // mean S_line
    int worstLine = -1;       // region-relative index of the line with S_max (-1: no links)
    int64_t extraHops = 0;    // sum over links of skipped + delta
};

class Remap
{
public:
    Remap() = default;
    static Expected<Remap> run(const SpareLayout& layout, const DefectMap& defects);
    // The same, reusing out's buffers (Monte Carlo, the editor).
    static Status runInto(const SpareLayout& layout, const DefectMap& defects, Remap& out);

    const SpareLayout& layout() const { return m_layout; }
    const DefectSummary& summary() const { return m_summary; }

    // Logical fabric after the remap (reserved border included).
    int fabricCols() const { return m_fabricCols; }
    int fabricRows() const { return m_fabricRows; }
    // The rectangle placement may use: fabric minus the reserved border; 0 x 0 when nothing is left.
    MeshSize usableLogicalMesh() const;

    // Physical core index (y * physicalCols + x) hosting a logical core.
    int32_t physicalOfFabric(int x, int y) const { return m_fabricToPhysical[size_t(y) * size_t(m_fabricCols) + x]; }
    int32_t physicalOfUsable(int x, int y) const
    {
        return physicalOfFabric(x + m_layout.reservedLeft(), y + m_layout.reservedTop());
    }

    // Per physical core: what it is, and for a core hosting a logical core its
    // displacement from that core's nominal position (for arrows).
    CoreState state(int32_t physicalIndex) const { return m_states[size_t(physicalIndex)]; }
    int displacementX(int32_t physicalIndex) const { return m_dx[size_t(physicalIndex)]; }
    int displacementY(int32_t physicalIndex) const { return m_dy[size_t(physicalIndex)]; }
    const std::vector<CoreState>& states() const { return m_states; }

    // Nominal fabric rows that were dropped, and the physical rectangles of unrepairable segments/dies.
    const std::vector<int>& droppedFabricRows() const { return m_droppedRows; }
    const std::vector<PhysicalRect>& unrepairableRects() const { return m_unrepairable; }

    // Option-B hop stretch over a usable-mesh region: lines along `axis` (X: rows, Y: columns).
    HopStretch hopStretch(CoreRect region, MeshAxis axis) const;
    // hops(link) for the link from usable (x, y) to its +1 neighbour along axis; 0 when there is no such link.
    int linkHops(int x, int y, MeshAxis axis) const;

private:
    void runRowShift(const DefectMap& defects);
    void runDieRowColumn(const DefectMap& defects);
    void finishStates(const DefectMap& defects);
    bool isFreeBypass(int32_t physicalIndex) const;

    SpareLayout m_layout;
    DefectSummary m_summary;
    int m_fabricCols = 0;
    int m_fabricRows = 0;
    std::vector<int32_t> m_fabricToPhysical; // (fabricRows, fabricCols) -> physical index
    std::vector<CoreState> m_states;         // (physicalRows, physicalCols)
    std::vector<int16_t> m_dx;               // (physicalRows, physicalCols), physical - nominal x
    std::vector<int16_t> m_dy;               // (physicalRows, physicalCols), physical - nominal y
    std::vector<int> m_keptRows;             // fabric row -> nominal fabric row it stands for
    std::vector<uint8_t> m_keptRowClean;     // (fabricRows): 1 = every core at its nominal position
    std::vector<int> m_droppedRows;
    std::vector<uint8_t> m_spareCol; // (physicalCols): 1 = spare-only column
    std::vector<uint8_t> m_spareRow; // (physicalRows): 1 = spare-only row
    std::vector<PhysicalRect> m_unrepairable;
};

} // namespace ws
