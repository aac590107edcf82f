#pragma once
// A whole placement timed by the mesh engine one region shape at a time.
// Executing every layer of a 70B-class model core by core takes about a
// second a layer, but layers whose regions have the same size and the same
// KV, and whose hop onwards lands at the same offset in a region of the same
// size (or crosses to the next wafer), run the same events shifted in space (a table slice the placer parked in a
// region's free SRAM is not part of the layer's work): the engine executes
// the first layer of each such shape (with its hop onwards) and counts it
// once per layer of the shape. The layers' sum is the token's time in the
// layer regions (embedding and LM head aside), beside the closed forms timed
// with the same unit costs. This is what the layout explorer asks of a
// hand-edited layout: a region made narrower or taller changes its shape,
// and the engine says what that costs.

#include "engine/core/error.h"
#include "engine/model/modelconfig.h"
#include "engine/wafer/mesh/meshparams.h"
#include "engine/wafer/placement/placement.h"

#include <functional>
#include <vector>

namespace ws {

struct MeshShapeTiming
{
    int width = 0; // cores
    int height = 0;
    bool crossesWafer = false; // the hop onwards goes to the next wafer
    std::vector<int> layers;   // the layers of this shape, ascending; the first one was executed
    double engineCycles = 0;   // the executed layer's, hop onwards included
    double closedFormCycles = 0;
};

struct MeshLayoutTiming
{
    std::vector<MeshShapeTiming> shapes;
    double engineCycles = 0; // over every layer
    double closedFormCycles = 0;
    double clockHz = 0;
};

// `progress(done, total)` after each executed shape; returning false stops with a Cancelled error.
Expected<MeshLayoutTiming> timeLayersByShape(const Placement& placement, const ModelConfig& model,
                                             const MeshParams& params, int64_t context,
                                             const std::function<bool(int, int)>& progress = {});

} // namespace ws
