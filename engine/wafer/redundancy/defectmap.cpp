#include "engine/wafer/redundancy/defectmap.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace ws {

namespace {

Status checkDensity(const SpareLayout& layout, double defectsPerMm2)
{
    if (!std::isfinite(defectsPerMm2) || defectsPerMm2 < 0 || defectsPerMm2 > 1e3)
        return makeError(ErrorCode::OutOfRange, "defect density must be 0..1000 per mm²", "D0");
    if (!(layout.coreAreaMm2() > 0))
        return makeError(ErrorCode::InvalidArgument, "the hardware preset gives no core area", "coreAreaMm2");
    return Ok{};
}

// Marks each core of rect dead with probability p, in O(hits) by geometric gaps.
void bernoulliRect(DefectMap& map, PhysicalRect rect, double p, DefectRng& rng)
{
    if (!(p > 0) || rect.width <= 0 || rect.height <= 0)
        return;
    const int64_t cells = int64_t(rect.width) * rect.height;
    if (p >= 1.0) {
        for (int64_t i = 0; i < cells; ++i)
            map.setDead(rect.x + int(i % rect.width), rect.y + int(i / rect.width), true);
        return;
    }
    const double logQ = std::log1p(-p);
    double pos = rng.geometricGap(logQ);
    while (pos < double(cells)) {
        const auto i = int64_t(pos);
        map.setDead(rect.x + int(i % rect.width), rect.y + int(i / rect.width), true);
        pos += 1.0 + rng.geometricGap(logQ);
    }
}

double coreDeathProbability(const SpareLayout& layout, double defectsPerMm2)
{
    return -std::expm1(-defectsPerMm2 * layout.coreAreaMm2());
}

} // namespace

DefectMap::DefectMap(int physicalCols, int physicalRows)
    : m_cols(std::max(physicalCols, 0)), m_rows(std::max(physicalRows, 0)), m_dead(size_t(int64_t(m_cols) * m_rows), 0)
{
}

DefectMap DefectMap::forLayout(const SpareLayout& layout)
{
    return DefectMap(layout.physicalCols(), layout.physicalRows());
}

void DefectMap::setDead(int64_t index, bool dead)
{
    uint8_t& cell = m_dead[size_t(index)];
    if (cell == uint8_t(dead))
        return;
    cell = uint8_t(dead);
    m_deadCount += dead ? 1 : -1;
}

void DefectMap::clear()
{
    std::fill(m_dead.begin(), m_dead.end(), uint8_t(0));
    m_deadCount = 0;
}

std::vector<int32_t> DefectMap::unite(const DefectMap& other)
{
    std::vector<int32_t> changed;
    if (other.m_cols != m_cols || other.m_rows != m_rows)
        return changed;
    for (size_t i = 0; i < m_dead.size(); ++i) {
        if (other.m_dead[i] && !m_dead[i]) {
            m_dead[i] = 1;
            changed.push_back(int32_t(i));
        }
    }
    m_deadCount += int64_t(changed.size());
    return changed;
}

std::vector<int32_t> DefectMap::deadIndices() const
{
    std::vector<int32_t> out;
    out.reserve(size_t(m_deadCount));
    for (size_t i = 0; i < m_dead.size(); ++i)
        if (m_dead[i])
            out.push_back(int32_t(i));
    return out;
}

Status DefectMap::fillRandom(DefectMap& map, double rate, DefectRng& rng)
{
    if (!std::isfinite(rate) || rate < 0 || rate > 1)
        return makeError(ErrorCode::OutOfRange, "defect rate must be a fraction 0..1 of the physical cores",
                         "defect-rate");
    map.clear();
    const int64_t n = map.coreCount();
    const auto k = std::min<int64_t>(n, std::llround(rate * double(n)));
    // Rejection sampling touches ~1.4k cells for k <= n/2; above that, draw the survivors instead.
    const bool drawSurvivors = k > n / 2;
    if (drawSurvivors) {
        std::fill(map.m_dead.begin(), map.m_dead.end(), uint8_t(1));
        map.m_deadCount = n;
    }
    const int64_t draws = drawSurvivors ? n - k : k;
    for (int64_t done = 0; done < draws;) {
        const auto i = int64_t(rng.below(uint64_t(n)));
        if (map.isDead(i) == drawSurvivors) {
            map.setDead(i, !drawSurvivors);
            ++done;
        }
    }
    return Ok{};
}

Status DefectMap::fillPoisson(DefectMap& map, const SpareLayout& layout, double defectsPerMm2, DefectRng& rng)
{
    if (auto st = checkDensity(layout, defectsPerMm2); !st)
        return st;
    map.clear();
    bernoulliRect(map, {0, 0, map.cols(), map.rows()}, coreDeathProbability(layout, defectsPerMm2), rng);
    return Ok{};
}

Status DefectMap::fillClustered(DefectMap& map, const SpareLayout& layout, double defectsPerMm2, double alpha,
                                ClusterScope scope, DefectRng& rng)
{
    if (auto st = checkDensity(layout, defectsPerMm2); !st)
        return st;
    if (!std::isfinite(alpha) || alpha <= 0 || alpha > 1e6)
        return makeError(ErrorCode::OutOfRange, "clustering alpha must be a positive number", "alpha");
    map.clear();
    if (defectsPerMm2 == 0)
        return Ok{};
    const double scale = defectsPerMm2 / alpha;
    if (scope == ClusterScope::Wafer) {
        const double density = rng.gamma(alpha, scale);
        bernoulliRect(map, {0, 0, map.cols(), map.rows()}, coreDeathProbability(layout, density), rng);
        return Ok{};
    }
    for (int dy = 0; dy < layout.diesY(); ++dy) {
        for (int dx = 0; dx < layout.diesX(); ++dx) {
            const double density = rng.gamma(alpha, scale);
            bernoulliRect(map, layout.dieRect(dx, dy), coreDeathProbability(layout, density), rng);
        }
    }
    return Ok{};
}

Expected<DefectMap> DefectMap::random(const SpareLayout& layout, double rate, uint64_t seed)
{
    DefectMap map = forLayout(layout);
    DefectRng rng(seed);
    if (auto st = fillRandom(map, rate, rng); !st)
        return st.error();
    return map;
}

Expected<DefectMap> DefectMap::poisson(const SpareLayout& layout, double defectsPerMm2, uint64_t seed)
{
    DefectMap map = forLayout(layout);
    DefectRng rng(seed);
    if (auto st = fillPoisson(map, layout, defectsPerMm2, rng); !st)
        return st.error();
    return map;
}

Expected<DefectMap> DefectMap::clustered(const SpareLayout& layout, double defectsPerMm2, double alpha,
                                         ClusterScope scope, uint64_t seed)
{
    DefectMap map = forLayout(layout);
    DefectRng rng(seed);
    if (auto st = fillClustered(map, layout, defectsPerMm2, alpha, scope, rng); !st)
        return st.error();
    return map;
}

Expected<DefectMap> DefectMap::fromCores(const SpareLayout& layout, const std::vector<PhysicalCore>& cores)
{
    DefectMap map = forLayout(layout);
    for (const PhysicalCore& c : cores) {
        if (!map.contains(c.x, c.y))
            return makeError(ErrorCode::OutOfRange,
                             "core (" + std::to_string(c.x) + ", " + std::to_string(c.y) +
                                 ") is outside the physical mesh " + std::to_string(map.cols()) + "x" +
                                 std::to_string(map.rows()),
                             "cores");
        map.setDead(c.x, c.y, true);
    }
    return map;
}

Expected<DefectMap> DefectMap::die(const SpareLayout& layout, int dieX, int dieY)
{
    if (dieX < 0 || dieY < 0 || dieX >= layout.diesX() || dieY >= layout.diesY())
        return makeError(ErrorCode::OutOfRange,
                         "die (" + std::to_string(dieX) + ", " + std::to_string(dieY) + ") is outside the " +
                             std::to_string(layout.diesX()) + "x" + std::to_string(layout.diesY()) + " dies",
                         "die");
    DefectMap map = forLayout(layout);
    const PhysicalRect r = layout.dieRect(dieX, dieY);
    for (int y = r.y; y < r.y + r.height; ++y)
        for (int x = r.x; x < r.x + r.width; ++x)
            map.setDead(x, y, true);
    return map;
}

} // namespace ws
