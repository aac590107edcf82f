// Remap::runRowShift: the Cerebras-like row shift within n + s segments (see remap.h).

#include "engine/wafer/remap.h"

#include <cstdlib>
#include <utility>

namespace ws {

void Remap::runRowShift(const DefectMap& defects)
{
    const int physCols = m_layout.physicalCols();
    const int fabricCols = m_layout.fabricCols();
    const int segments = m_layout.segmentsPerRow();
    const int spares = m_layout.segmentSpareCores();
    const int primary = m_layout.segmentPrimaryCores();
    m_fabricToPhysical.reserve(size_t(fabricCols) * size_t(m_layout.fabricRows()));

    std::vector<int32_t> host(static_cast<size_t>(fabricCols));  // physical x of each logical x in this row
    std::vector<int32_t> above(static_cast<size_t>(fabricCols)); // the same for the last kept row
    bool haveAbove = false;
    const uint8_t* dead = defects.cells().data();
    for (int y = 0; y < m_layout.physicalRows(); ++y) {
        const uint8_t* row = dead + size_t(y) * size_t(physCols);
        bool ok = true;
        for (int j = 0; j < segments; ++j) {
            const int start = m_layout.segmentPhysicalStart(j);
            const int width = m_layout.segmentPrimaryCount(j) + spares;
            int deadInSegment = 0;
            for (int p = start; p < start + width; ++p)
                deadInSegment += row[p];
            if (deadInSegment > spares) {
                ok = false;
                ++m_summary.unrepairableSegments;
                m_unrepairable.push_back({start, y, width, 1});
            }
        }
        if (ok) {
            for (int j = 0; j < segments; ++j) {
                const int count = m_layout.segmentPrimaryCount(j);
                int32_t* out = host.data() + size_t(j) * size_t(primary);
                int p = m_layout.segmentPhysicalStart(j);
                for (int i = 0; i < count; ++p) {
                    if (!row[p])
                        out[i++] = p;
                }
            }
            if (haveAbove) {
                for (int x = 0; x < fabricCols; ++x) {
                    if (std::abs(host[size_t(x)] - above[size_t(x)]) > 1) {
                        ok = false;
                        ++m_summary.displacementConflicts;
                        break;
                    }
                }
            }
        }
        if (!ok) {
            m_droppedRows.push_back(y);
            continue;
        }
        const int32_t base = int32_t(y) * physCols;
        for (int x = 0; x < fabricCols; ++x)
            m_fabricToPhysical.push_back(base + host[size_t(x)]);
        std::swap(host, above);
        haveAbove = true;
        m_keptRows.push_back(y);
    }
}

} // namespace ws
