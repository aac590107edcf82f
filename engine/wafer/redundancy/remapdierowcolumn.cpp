// Remap::runDieRowColumn: classical spare rows and columns per die (see remap.h).
// Covering a die's dead cores with at most R rows and C columns is NP-complete in
// general (LaForge 1991, [Spare-rows-columns] in docs/sources.md); this uses the usual must-repair rule
// (a line with more dead cores than spares of the other kind must go) followed by
// a greedy choice of the line that covers the most dead cores.

#include "engine/wafer/redundancy/remap.h"

#include <optional>

namespace ws {

namespace {

struct DieCover
{
    std::vector<int> rows; // physical rows (die-local) hosting logical rows 0..h-1
    std::vector<int> cols; // physical columns (die-local) hosting logical columns 0..w-1
};

struct DeadPoint
{
    int x = 0;
    int y = 0;
    bool covered = false;
};

std::optional<DieCover> coverDie(const DefectMap& defects, PhysicalRect rect, int logicalCols, int logicalRows,
                                 DieSpares spares)
{
    std::vector<DeadPoint> points;
    std::vector<int> rowCount(size_t(rect.height), 0);
    std::vector<int> colCount(size_t(rect.width), 0);
    for (int y = 0; y < rect.height; ++y) {
        const uint8_t* row = defects.cells().data() + size_t(rect.y + y) * size_t(defects.cols()) + size_t(rect.x);
        for (int x = 0; x < rect.width; ++x) {
            if (row[x]) {
                points.push_back({x, y, false});
                ++rowCount[size_t(y)];
                ++colCount[size_t(x)];
            }
        }
    }
    std::vector<uint8_t> rowRetired(size_t(rect.height), 0);
    std::vector<uint8_t> colRetired(size_t(rect.width), 0);
    int rowsLeft = spares.spareRows;
    int colsLeft = spares.spareCols;
    auto uncovered = int64_t(points.size());
    auto retire = [&](bool isRow, int line) {
        (isRow ? rowRetired : colRetired)[size_t(line)] = 1;
        (isRow ? rowsLeft : colsLeft) -= 1;
        for (DeadPoint& p : points) {
            if (!p.covered && (isRow ? p.y : p.x) == line) {
                p.covered = true;
                --rowCount[size_t(p.y)];
                --colCount[size_t(p.x)];
                --uncovered;
            }
        }
    };
    while (uncovered > 0) {
        bool forced = false;
        for (int y = 0; y < rect.height; ++y) {
            if (rowCount[size_t(y)] > colsLeft) {
                if (rowsLeft == 0)
                    return std::nullopt;
                retire(true, y);
                forced = true;
            }
        }
        for (int x = 0; x < rect.width; ++x) {
            if (colCount[size_t(x)] > rowsLeft) {
                if (colsLeft == 0)
                    return std::nullopt;
                retire(false, x);
                forced = true;
            }
        }
        if (forced || uncovered == 0)
            continue;
        int bestRow = -1;
        int bestCol = -1;
        for (int y = 0; rowsLeft > 0 && y < rect.height; ++y)
            if (bestRow < 0 || rowCount[size_t(y)] > rowCount[size_t(bestRow)])
                bestRow = y;
        for (int x = 0; colsLeft > 0 && x < rect.width; ++x)
            if (bestCol < 0 || colCount[size_t(x)] > colCount[size_t(bestCol)])
                bestCol = x;
        if (bestRow < 0 && bestCol < 0)
            return std::nullopt;
        const bool useRow =
            bestCol < 0 ||
            (bestRow >= 0 && (rowCount[size_t(bestRow)] > colCount[size_t(bestCol)] ||
                              (rowCount[size_t(bestRow)] == colCount[size_t(bestCol)] && rowsLeft >= colsLeft)));
        retire(useRow, useRow ? bestRow : bestCol);
    }
    DieCover cover;
    for (int y = 0; y < rect.height && int(cover.rows.size()) < logicalRows; ++y)
        if (!rowRetired[size_t(y)])
            cover.rows.push_back(y);
    for (int x = 0; x < rect.width && int(cover.cols.size()) < logicalCols; ++x)
        if (!colRetired[size_t(x)])
            cover.cols.push_back(x);
    return cover;
}

} // namespace

void Remap::runDieRowColumn(const DefectMap& defects)
{
    const int physCols = m_layout.physicalCols();
    const int fabricCols = m_layout.fabricCols();
    const int diesX = m_layout.diesX();
    m_fabricToPhysical.reserve(size_t(fabricCols) * size_t(m_layout.fabricRows()));
    std::vector<int> dieOfCol(static_cast<size_t>(fabricCols));
    std::vector<int> localCol(static_cast<size_t>(fabricCols)); // column inside its die
    for (int d = 0; d < diesX; ++d) {
        for (int x = m_layout.dieFabricColStart(d); x < m_layout.dieFabricColStart(d + 1); ++x) {
            dieOfCol[size_t(x)] = d;
            localCol[size_t(x)] = x - m_layout.dieFabricColStart(d);
        }
    }

    std::vector<DieCover> band(static_cast<size_t>(diesX));
    std::vector<PhysicalRect> rects(static_cast<size_t>(diesX));
    for (int by = 0; by < m_layout.diesY(); ++by) {
        const int rowStart = m_layout.dieFabricRowStart(by);
        const int logicalRows = m_layout.dieFabricRowStart(by + 1) - rowStart;
        bool bandOk = true;
        for (int bx = 0; bx < diesX; ++bx) {
            const PhysicalRect rect = m_layout.dieRect(bx, by);
            rects[size_t(bx)] = rect;
            const int logicalCols = m_layout.dieFabricColStart(bx + 1) - m_layout.dieFabricColStart(bx);
            auto cover = coverDie(defects, rect, logicalCols, logicalRows, m_layout.dieSpares());
            if (!cover) {
                bandOk = false;
                ++m_summary.unrepairableSegments;
                m_unrepairable.push_back(rect);
                continue;
            }
            band[size_t(bx)] = std::move(*cover);
        }
        for (int r = 0; r < logicalRows; ++r) {
            if (!bandOk) {
                m_droppedRows.push_back(rowStart + r);
                continue;
            }
            m_keptRows.push_back(rowStart + r);
            m_keptRowClean.push_back(0);
            for (int x = 0; x < fabricCols; ++x) {
                const int bx = dieOfCol[size_t(x)];
                const PhysicalRect& rect = rects[size_t(bx)];
                const DieCover& c = band[size_t(bx)];
                const int px = rect.x + c.cols[size_t(localCol[size_t(x)])];
                const int py = rect.y + c.rows[size_t(r)];
                m_fabricToPhysical.push_back(int32_t(py) * physCols + px);
            }
        }
    }
}

} // namespace ws
