#include "engine/explore/layoutcompare.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace ws {

namespace {
// The quantities in the order of PredictionDelta::quantities, each read from a prediction in predict --json's unit.
std::vector<std::pair<const char*, double>> quantitiesOf(const Prediction& p)
{
    return {{"tokens_per_second_per_user", p.tokensPerSecondPerUser},
            {"ttft_ms", 1e3 * p.ttftSeconds},
            {"ms_per_token", 1e3 * p.secondsPerToken},
            {"devices", double(p.devices)},
            {"sram_headroom_bytes", double(p.sramHeadroomBytes)},
            {"kv_capacity_tokens", double(p.kvCapacityTokens)},
            {"max_concurrency", double(p.maxConcurrency)},
            {"aggregate_tokens_per_second", p.aggregateTokensPerSecond}};
}
} // namespace

PredictionDelta comparePredictions(const Prediction& a, const Prediction& b)
{
    PredictionDelta d;
    const auto qa = quantitiesOf(a);
    const auto qb = quantitiesOf(b);
    for (size_t i = 0; i < qa.size(); ++i)
        d.quantities.push_back({qa[i].first, qa[i].second, qb[i].second});
    std::map<std::string, std::pair<double, double>> phases;
    for (const PhaseTime& t : a.breakdown)
        phases[t.id].first += 1e3 * t.seconds;
    for (const PhaseTime& t : b.breakdown)
        phases[t.id].second += 1e3 * t.seconds;
    for (const auto& [id, ms] : phases)
        d.phasesMs.push_back({id, ms.first, ms.second});
    return d;
}

namespace {
MeshDifference emptyLike(const MeshSnapshot& a, const MeshSnapshot& b, MeshDifference::Kind kind)
{
    MeshDifference d;
    d.kind = kind;
    if (a.meshCols != b.meshCols || a.meshRows != b.meshRows)
        return d;
    d.meshCols = b.meshCols;
    d.meshRows = b.meshRows;
    d.deviceCount = b.deviceCount;
    d.values.assign(size_t(b.deviceCount), std::vector<float>(size_t(b.meshCols) * size_t(b.meshRows), 0.0f));
    return d;
}

void findLargest(MeshDifference& d)
{
    for (const auto& device : d.values)
        for (float v : device)
            d.largest = std::max(d.largest, double(std::fabs(v)));
}
} // namespace

MeshDifference sramDifference(const MeshSnapshot& a, const MeshSnapshot& b)
{
    MeshDifference d = emptyLike(a, b, MeshDifference::Kind::SramBytes);
    const size_t cores = size_t(d.meshCols) * size_t(d.meshRows);
    for (size_t dev = 0; dev < d.values.size(); ++dev) {
        const std::vector<float>* fa = dev < a.sramFraction.size() ? &a.sramFraction[dev] : nullptr;
        const std::vector<float>& fb = b.sramFraction[dev];
        if (fb.size() != cores)
            continue;
        for (size_t i = 0; i < cores; ++i) {
            const double usedA = fa && fa->size() == cores ? double((*fa)[i]) * double(a.sramBytesPerCore) : 0.0;
            d.values[dev][i] = float(double(fb[i]) * double(b.sramBytesPerCore) - usedA);
        }
    }
    findLargest(d);
    return d;
}

std::vector<double> layerTimesMs(const TokenSchedule& s)
{
    std::vector<double> first;
    std::vector<double> last;
    for (const Phase& p : s.phases) {
        if (p.layer < 0)
            continue;
        const size_t l = size_t(p.layer);
        if (l >= first.size()) {
            first.resize(l + 1, -1);
            last.resize(l + 1, 0);
        }
        first[l] = first[l] < 0 ? p.startCycle : std::min(first[l], p.startCycle);
        last[l] = std::max(last[l], p.endCycle);
    }
    std::vector<double> ms(first.size(), 0.0);
    for (size_t l = 0; l < first.size(); ++l)
        if (first[l] >= 0 && s.clockHz > 0)
            ms[l] = 1e3 * (last[l] - first[l]) / s.clockHz;
    return ms;
}

MeshDifference regionTimeDifference(const MeshSnapshot& a, const TokenSchedule& ta, const MeshSnapshot& b,
                                    const TokenSchedule& tb)
{
    MeshDifference d = emptyLike(a, b, MeshDifference::Kind::RegionTimeMs);
    if (d.values.empty())
        return d;
    const std::vector<double> msA = layerTimesMs(ta);
    const std::vector<double> msB = layerTimesMs(tb);
    for (const MeshRegion& r : b.regions) {
        if (r.layerIndex < 0 || r.device < 0 || r.device >= d.deviceCount)
            continue;
        const size_t l = size_t(r.layerIndex);
        const double delta = (l < msB.size() ? msB[l] : 0.0) - (l < msA.size() ? msA[l] : 0.0);
        std::vector<float>& values = d.values[size_t(r.device)];
        for (int y = std::max(0, r.y); y < std::min(d.meshRows, r.y + r.height); ++y)
            for (int x = std::max(0, r.x); x < std::min(d.meshCols, r.x + r.width); ++x)
                values[size_t(y) * size_t(d.meshCols) + size_t(x)] = float(delta);
    }
    findLargest(d);
    return d;
}

} // namespace ws
