// Remap::runRowShift: the Cerebras-like row shift within n + s segments (see remap.h).
//
// Each row's shift along x, shift(x) = physical x - nominal x, is a non-decreasing
// step function in every segment, 0..s. Greedy (skip dead cores only) gives each
// row its smallest shifts, but two adjacent rows may then differ by more than the
// one position a diagonal link reaches (with s >= 2). Rows may also skip healthy
// cores on purpose, spending a spare early, to follow a neighbour: so the shifts are
// raised to the lower envelope L(y) = max(shift(y), L(y -+ 1) - 1) and each row is
// re-fitted (the smallest feasible shifts >= L, stepping over dead cores), until
// nothing changes. A row that cannot be fitted within s spares is dropped. A final
// pass checks every vertical link and drops any row still in conflict.

#include "engine/wafer/redundancy/remap.h"

#include <algorithm>
#include <cstdlib>

namespace ws {

namespace {

struct RowShiftContext
{
    const SpareLayout& layout;
    const std::vector<int32_t>& nominal; // (fabricCols): nominal physical x
    int fabricCols = 0;
    int spares = 0;
};

// Smallest feasible shifts >= shift[] in place (per segment, stepping over dead cores).
// Returns false when a segment would need more than s spares; sets changed if any value rose.
bool fitRow(const RowShiftContext& c, const uint8_t* deadRow, int8_t* shift, bool& changed)
{
    const int primary = c.layout.segmentPrimaryCores();
    for (int j = 0; j < c.layout.segmentsPerRow(); ++j) {
        const int first = j * primary;
        const int end = first + c.layout.segmentPrimaryCount(j);
        int sh = 0;
        for (int x = first; x < end; ++x) {
            sh = std::max(sh, int(shift[x]));
            while (sh <= c.spares && deadRow[c.nominal[size_t(x)] + sh])
                ++sh;
            if (sh > c.spares)
                return false;
            if (sh != shift[x]) {
                shift[x] = int8_t(sh);
                changed = true;
            }
        }
    }
    return true;
}

} // namespace

void Remap::runRowShift(const DefectMap& defects)
{
    const int physCols = m_layout.physicalCols();
    const int fabricCols = m_layout.fabricCols();
    const int segments = m_layout.segmentsPerRow();
    const int spares = m_layout.segmentSpareCores();
    std::vector<int32_t> nominal(static_cast<size_t>(fabricCols));
    for (int x = 0; x < fabricCols; ++x)
        nominal[size_t(x)] = m_layout.nominalPhysicalX(x);
    const RowShiftContext ctx{m_layout, nominal, fabricCols, spares};
    const uint8_t* dead = defects.cells().data();
    auto deadRow = [&](int y) { return dead + size_t(y) * size_t(physCols); };

    // 1. Unrepairable segments drop their row; the others get greedy shifts.
    std::vector<int> rows;      // candidate physical rows, top to bottom
    std::vector<int8_t> shifts; // (candidates, fabricCols)
    shifts.reserve(size_t(fabricCols) * size_t(m_layout.physicalRows()));
    std::vector<uint8_t> dropped(static_cast<size_t>(m_layout.physicalRows()), 0);
    for (int y = 0; y < m_layout.physicalRows(); ++y) {
        const uint8_t* row = deadRow(y);
        bool ok = true;
        int deadInRow = 0;
        for (int j = 0; j < segments; ++j) {
            const int start = m_layout.segmentPhysicalStart(j);
            const int width = m_layout.segmentPrimaryCount(j) + spares;
            int deadInSegment = 0;
            for (int p = start; p < start + width; ++p)
                deadInSegment += row[p];
            deadInRow += deadInSegment;
            if (deadInSegment > spares) {
                ok = false;
                ++m_summary.unrepairableSegments;
                m_unrepairable.push_back({start, y, width, 1});
            }
        }
        if (!ok) {
            dropped[size_t(y)] = 1;
            continue;
        }
        rows.push_back(y);
        shifts.resize(shifts.size() + size_t(fabricCols), 0);
        if (deadInRow > 0) {
            bool changed = false;
            fitRow(ctx, row, shifts.data() + shifts.size() - size_t(fabricCols), changed);
        }
    }

    // 2. Smooth: raise shifts so adjacent rows differ by <= 1, refit, repeat (values only rise, <= s).
    //    A row only constrains a neighbour where its shift is >= 2, so rows whose maximum shift is
    //    below 2 are skipped: on a real wafer almost all of them.
    if (spares >= 2) {
        auto at = [&](size_t k) { return shifts.data() + k * size_t(fabricCols); };
        auto rowMax = [&](size_t k) { return int(*std::max_element(at(k), at(k) + fabricCols)); };
        std::vector<int> maxShift(rows.size());
        std::vector<uint8_t> raisedRow(rows.size());
        for (size_t k = 0; k < rows.size(); ++k)
            maxShift[k] = rowMax(k);
        auto lift = [&](size_t k, size_t from) {
            if (maxShift[from] < 2 || maxShift[from] - 1 <= 0)
                return;
            int8_t* cur = at(k);
            const int8_t* src = at(from);
            bool raised = false;
            for (int x = 0; x < fabricCols; ++x) {
                const int8_t need = int8_t(src[x] - 1);
                raised |= need > cur[x];
                cur[x] = std::max(cur[x], need);
            }
            if (raised) {
                raisedRow[k] = 1;
                maxShift[k] = std::max(maxShift[k], maxShift[from] - 1);
            }
        };
        const int maxRounds = 4 * (spares + 1);
        for (int round = 0; round < maxRounds && rows.size() > 1; ++round) {
            const size_t n = rows.size();
            std::fill(raisedRow.begin(), raisedRow.end(), uint8_t(0));
            for (size_t k = 1; k < n; ++k)
                lift(k, k - 1);
            for (size_t k = n - 1; k-- > 0;)
                lift(k, k + 1);
            if (std::find(raisedRow.begin(), raisedRow.end(), uint8_t(1)) == raisedRow.end())
                break;
            size_t keep = 0;
            for (size_t k = 0; k < n; ++k) {
                if (raisedRow[k]) {
                    bool changed = false;
                    if (!fitRow(ctx, deadRow(rows[k]), at(k), changed)) {
                        dropped[size_t(rows[k])] = 1;
                        ++m_summary.displacementConflicts;
                        continue;
                    }
                    if (changed)
                        maxShift[k] = rowMax(k);
                }
                if (keep != k) {
                    std::copy(at(k), at(k) + fabricCols, at(keep));
                    rows[keep] = rows[k];
                    maxShift[keep] = maxShift[k];
                }
                ++keep;
            }
            rows.resize(keep);
            maxShift.resize(keep);
            raisedRow.resize(keep);
            shifts.resize(keep * size_t(fabricCols));
        }
    }

    // 3. Check every vertical link against the last kept row; emit the map.
    m_fabricToPhysical.resize(size_t(fabricCols) * rows.size());
    int32_t* out = m_fabricToPhysical.data();
    const int8_t* above = nullptr;
    for (size_t k = 0; k < rows.size(); ++k) {
        const int8_t* cur = shifts.data() + k * size_t(fabricCols);
        bool ok = true;
        bool clean = true;
        for (int x = 0; x < fabricCols; ++x) {
            clean &= cur[x] == 0;
            ok &= !above || std::abs(cur[x] - above[x]) <= 1;
        }
        if (!ok) {
            dropped[size_t(rows[k])] = 1;
            ++m_summary.displacementConflicts;
            continue;
        }
        const int32_t base = int32_t(rows[k]) * physCols;
        for (int x = 0; x < fabricCols; ++x)
            *out++ = base + nominal[size_t(x)] + cur[x];
        above = cur;
        m_keptRows.push_back(rows[k]);
        m_keptRowClean.push_back(clean ? 1 : 0);
    }
    m_fabricToPhysical.resize(size_t(out - m_fabricToPhysical.data()));
    for (int y = 0; y < m_layout.physicalRows(); ++y)
        if (dropped[size_t(y)])
            m_droppedRows.push_back(y);
}

} // namespace ws
