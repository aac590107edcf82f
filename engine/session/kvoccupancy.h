#pragma once
// The KV layer of a live conversation: the placement reserves each layer's KV
// cache for the whole context (a region's KV tokens split over its rows, each
// row's tokens over the K|V columns, meshsnapshotbuilder.h); while a
// conversation runs only the tokens it has so far are in the cache. The
// snapshot returned is `base` with its KV layer filled row by row, in token
// order, up to `tokens` (window-capped per layer); every other layer is as in
// `base`. Rebuilding is a copy of the snapshot, so callers rebuild when the
// count has moved by kvOccupancyStep() tokens.

#include "engine/wafer/placement/meshsnapshot.h"
#include "engine/wafer/placement/placement.h"

#include <cstdint>
#include <memory>

namespace ws {

std::shared_ptr<const MeshSnapshot> withKvOccupancy(std::shared_ptr<const MeshSnapshot> base,
                                                    const Placement& placement, int64_t tokens);

// Tokens between two visibly different KV layers: a quarter of the fewest tokens one KV row of a region holds
// (at least 1).
int64_t kvOccupancyStep(const Placement& placement);

// KV bytes the cache holds with `tokens` tokens over every region of `placement` (the sum the snapshot's KV
// layer shows, in bytes).
int64_t kvBytesHeld(const Placement& placement, int64_t tokens);

} // namespace ws
