#pragma once
// Which physical cores of one wafer are dead. A wafer always has some: defects
// land on the silicon at a density D0 (defects per mm²) and a core with at least
// one defect is dead. The map covers the physical grid of a SpareLayout (primary
// and spare cores), one byte per core, row-major (index = y * cols + x).
//
// Ways to fill it (all deterministic for a seed):
// - random(rate): exactly round(rate * physical cores) distinct dead cores,
//   uniformly placed. This is what the CLI's --defect-rate means.
// - poisson(D0): every core dies independently with p = 1 - exp(-D0 * coreArea),
//   the Poisson defect model ([Yield-models], [WaferScope-model] in docs/sources.md).
// - clustered(D0, alpha): the density itself is drawn per wafer or per die from
//   Gamma(alpha, D0 / alpha), then Poisson as above: the negative-binomial model.
// - a core list (the UI's clicks and brushes) or a whole die.

#include "engine/core/error.h"
#include "engine/wafer/redundancy/defectrng.h"
#include "engine/wafer/redundancy/sparelayout.h"

#include <cstdint>
#include <vector>

namespace ws {

struct PhysicalCore
{
    int x = 0;
    int y = 0;
    bool operator==(const PhysicalCore&) const = default;
};

enum class ClusterScope
{
    Wafer,
    Die
};

class DefectMap
{
public:
    DefectMap() = default;
    DefectMap(int physicalCols, int physicalRows);
    static DefectMap forLayout(const SpareLayout& layout);

    // Generators: a fresh map for the layout's physical grid.
    static Expected<DefectMap> random(const SpareLayout& layout, double rate, uint64_t seed);
    static Expected<DefectMap> poisson(const SpareLayout& layout, double defectsPerMm2, uint64_t seed);
    static Expected<DefectMap> clustered(const SpareLayout& layout, double defectsPerMm2, double alpha,
                                         ClusterScope scope, uint64_t seed);
    static Expected<DefectMap> fromCores(const SpareLayout& layout, const std::vector<PhysicalCore>& cores);
    static Expected<DefectMap> die(const SpareLayout& layout, int dieX, int dieY);

    // The same draws into an existing map (cleared first); no allocation when the size matches.
    // Monte Carlo uses these.
    static Status fillRandom(DefectMap& map, double rate, DefectRng& rng);
    static Status fillPoisson(DefectMap& map, const SpareLayout& layout, double defectsPerMm2, DefectRng& rng);
    static Status fillClustered(DefectMap& map, const SpareLayout& layout, double defectsPerMm2, double alpha,
                                ClusterScope scope, DefectRng& rng);

    int cols() const { return m_cols; }
    int rows() const { return m_rows; }
    int64_t coreCount() const { return int64_t(m_cols) * m_rows; }
    int64_t deadCount() const { return m_deadCount; }
    bool contains(int x, int y) const { return x >= 0 && y >= 0 && x < m_cols && y < m_rows; }

    bool isDead(int64_t index) const { return m_dead[size_t(index)] != 0; }
    bool isDead(int x, int y) const { return isDead(int64_t(y) * m_cols + x); }
    void setDead(int64_t index, bool dead);
    void setDead(int x, int y, bool dead) { setDead(int64_t(y) * m_cols + x, dead); }
    void toggle(int64_t index) { setDead(index, !isDead(index)); }
    void clear();

    // Marks every core dead that is dead in `other` (same size); returns the cores that changed.
    std::vector<int32_t> unite(const DefectMap& other);
    std::vector<int32_t> deadIndices() const;
    const std::vector<uint8_t>& cells() const { return m_dead; }

    bool operator==(const DefectMap& other) const
    {
        return m_cols == other.m_cols && m_rows == other.m_rows && m_dead == other.m_dead;
    }

private:
    int m_cols = 0;
    int m_rows = 0;
    int64_t m_deadCount = 0;
    std::vector<uint8_t> m_dead; // (rows, cols): 1 = dead
};

} // namespace ws
