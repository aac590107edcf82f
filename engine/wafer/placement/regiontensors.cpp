#include "engine/wafer/placement/regiontensors.h"

#include <algorithm>

namespace ws {

namespace {
bool inputAlongY(TensorKind k)
{
    switch (k) {
    case TensorKind::AttnO:
    case TensorKind::FfnDown:
    case TensorKind::ExpertDown:
    case TensorKind::SharedDown:
        return false;
    default:
        return true;
    }
}

} // namespace

RegionTensor regionTensor(const TensorShape& t, Precision p)
{
    RegionTensor r;
    r.kind = t.kind;
    r.layer = t.layer;
    if (t.isVector()) {
        r.vector = true;
        r.rows = 1;
        r.inValues = t.cols * t.count;
        r.inBlocks = r.inValues;
        r.blockBytes = vectorBytesPerValue(p);
        return r;
    }
    const PrecisionBlock b = precisionBlock(p);
    r.blockValues = b.values;
    r.blockBytes = b.bytes;
    r.inputAlongY = inputAlongY(t.kind);
    const int64_t blocksPerRow = (t.cols + b.values - 1) / b.values;
    r.stackedExperts = t.count;
    r.activeExperts = t.activeCount;
    r.stackedAlongInput = t.kind == TensorKind::ExpertDown;
    if (t.kind == TensorKind::ExpertDown) {
        // Experts stacked along the input: each expert's FFN slice is a contiguous input range.
        r.rows = t.rows;
        r.inValues = t.cols * t.count;
        r.inBlocks = blocksPerRow * t.count;
    } else {
        // Stacked along the output (gate/up experts), or a plain matrix (count 1).
        r.rows = t.rows * t.count;
        r.inValues = t.cols;
        r.inBlocks = blocksPerRow;
    }
    return r;
}

// Largest bytes one core needs for a tensor: its tile plus its fp32 buffers
// (input slice and output partial sums), as Placement counts them.
int64_t maxTileBytes(const RegionTensor& t, const CoreRect& r)
{
    const TileGrid g = tileGrid(t, r);
    const int64_t rows = (t.rows + g.outParts - 1) / g.outParts;
    const int64_t blocks = (t.inBlocks + g.inParts - 1) / g.inParts;
    return t.tileBytesOnCore(rows, blocks);
}

// Picks the tile grid with the smallest largest tile: the plain 2-D split, or
// one folded so that the input splits into parts of whole blocks (TileGrid).
void chooseGrid(RegionTensor& t, const CoreRect& r)
{
    const int64_t lines = t.inputAlongY ? r.height : r.width;
    t.inGroups = 0;
    t.fold = 1;
    int64_t best = maxTileBytes(t, r);
    RegionTensor c = t;
    auto consider = [&](int64_t groups, int64_t fold) {
        if (groups < 1 || fold < 1 || groups * fold > lines)
            return;
        c.inGroups = groups;
        c.fold = fold;
        const int64_t bytes = maxTileBytes(c, r);
        if (bytes < best) {
            best = bytes;
            t.inGroups = groups;
            t.fold = fold;
        }
    };
    for (int64_t fold = 2; fold <= 8; ++fold)
        consider(lines / fold, fold);
    for (int64_t k = 1; k <= 8; ++k) {
        const int64_t groups = (t.inBlocks + k - 1) / k;
        consider(groups, lines / std::max<int64_t>(1, groups));
    }
}

// Dense matrices keep WaferLLM's alternating axes (no transposes between
// GEMVs); a stack of experts is routed, not chained, so it takes whichever
// orientation gives the smaller largest tile on this rectangle.
void layoutTensors(std::vector<RegionTensor>& tensors, const CoreRect& rect)
{
    for (RegionTensor& t : tensors) {
        if (t.vector)
            continue;
        chooseGrid(t, rect);
        if (t.stackedExperts <= 1)
            continue;
        RegionTensor flipped = t;
        flipped.inputAlongY = !t.inputAlongY;
        chooseGrid(flipped, rect);
        if (maxTileBytes(flipped, rect) < maxTileBytes(t, rect))
            t = flipped;
    }
}

} // namespace ws
