#pragma once
// How the tensors of a layer (or a vocabulary slice of a table) become
// RegionTensors on a rectangle: which axis carries the input (WaferLLM's
// alternation: q, k, v, gate, up, router and the tables take the input along
// y; o and down along x, so consecutive GEMVs need no transpose), how stacked
// experts are laid out, and which tile grid (plain or folded, see TileGrid)
// keeps the fullest core smallest.

#include "engine/model/modelshape.h"
#include "engine/wafer/placement/placement.h"

#include <vector>

namespace ws {

// A whole tensor as one RegionTensor (rows not yet sliced, default grid).
RegionTensor regionTensor(const TensorShape& t, Precision p);

// Largest bytes one core needs for a tensor on a rectangle: tile plus fp32 buffers.
int64_t maxTileBytes(const RegionTensor& t, const CoreRect& r);

// Sets t's grid (inGroups, fold) to the one with the smallest maxTileBytes.
void chooseGrid(RegionTensor& t, const CoreRect& r);

// chooseGrid for every matrix; stacked experts also take the better orientation.
void layoutTensors(std::vector<RegionTensor>& tensors, const CoreRect& rect);

} // namespace ws
