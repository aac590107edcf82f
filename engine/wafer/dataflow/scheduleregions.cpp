#include "engine/wafer/dataflow/scheduleregions.h"

#include <algorithm>

namespace ws {

namespace {
// The region that holds the largest slice of a table (rows of the vocabulary).
const PlacedRegion* largestSlice(const Placement& p, TensorKind kind, int64_t* rows)
{
    const PlacedRegion* best = nullptr;
    *rows = 0;
    for (const PlacedRegion& r : p.regions)
        for (const RegionTensor& t : r.tensors)
            if (t.kind == kind && t.rows > *rows) {
                *rows = t.rows;
                best = &r;
            }
    return best;
}
} // namespace

ScheduleRegions scheduleRegionsFromPlacement(const Placement& p)
{
    ScheduleRegions s;
    s.meshCols = p.fabricCols;
    s.meshRows = p.fabricRows;
    s.deviceCount = p.deviceCount;
    s.experts = p.experts;
    auto toMesh = [&](const PlacedRegion& r) {
        return RegionRef{r.device, {r.rect.x + p.originX, r.rect.y + p.originY, r.rect.width, r.rect.height}};
    };
    int layers = 0;
    for (const PlacedRegion& r : p.regions)
        layers = std::max(layers, r.layer + 1);
    s.layers.resize(size_t(layers));
    std::vector<bool> seen(size_t(layers), false);
    for (const PlacedRegion& r : p.regions)
        if (r.layer >= 0 && !seen[size_t(r.layer)]) {
            s.layers[size_t(r.layer)] = toMesh(r);
            seen[size_t(r.layer)] = true;
        }
    int64_t rows = 0;
    if (const PlacedRegion* e = largestSlice(p, TensorKind::TokenEmbedding, &rows))
        s.embedding = toMesh(*e);
    else if (!s.layers.empty())
        s.embedding = s.layers.front();
    if (const PlacedRegion* h = largestSlice(p, TensorKind::Output, &rows)) {
        s.lmHead = toMesh(*h);
        s.lmHeadVocabRows = rows;
    } else if (const PlacedRegion* t = largestSlice(p, TensorKind::TokenEmbedding, &rows)) {
        s.lmHead = toMesh(*t); // tied: the table is the LM head
        s.lmHeadVocabRows = rows;
    } else if (!s.layers.empty()) {
        s.lmHead = s.layers.back();
    }
    return s;
}

int64_t kvBytesAvailablePerCore(const Placement& p)
{
    int64_t worst = -1;
    for (const PlacedRegion& r : p.regions) {
        if (r.layer < 0 || r.rect.cores() <= 0)
            continue;
        const int64_t used = regionMaxCoreBytes(r, p.programBytesPerCore);
        const int64_t kvPerCore = (r.kvBytes() + r.rect.cores() - 1) / r.rect.cores();
        const int64_t available = p.sramBytesPerCore - used + kvPerCore;
        worst = worst < 0 ? available : std::min(worst, available);
    }
    return std::max<int64_t>(0, worst);
}

} // namespace ws
