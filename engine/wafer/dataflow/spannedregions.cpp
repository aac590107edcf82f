#include "engine/wafer/dataflow/spannedregions.h"

#include "engine/model/modelshape.h"

#include <algorithm>
#include <cmath>

namespace ws {

SpannedRegions spanWafers(const ModelConfig& model, const WaferSpec& w, Precision precision, int64_t contextTokens,
                          double weightFill, int cols, int rows, ExpertLayout experts)
{
    const ModelShape shape(model);
    const CoreRect full{w.reservedLeftCols, w.reservedTopRows, cols, rows};
    const double cores = double(cols) * rows;
    const double waferBudget = weightFill * double(w.sramBytesPerCore) * cores;
    const int kvValueBytes = bitsPerParameter(precision) >= 16 ? 2 : 1;
    SpannedRegions out;
    ScheduleRegions& s = out.schedule;
    s.meshCols = w.meshCols;
    s.meshRows = w.meshRows;
    s.experts = experts;
    int device = 0;
    s.embedding = {device++, full};
    double worstPerCore = 0;
    s.expertRegions.resize(size_t(model.layers));
    for (int l = 0; l < model.layers; ++l) {
        const double weights = double(shape.layerBytes(l, precision));
        const double kv = double(shape.layerKvBytes(l, contextTokens, kvValueBytes));
        const int wafers = std::max(1, int(std::ceil((weights + kv) / waferBudget)));
        s.layers.push_back({device, full});
        worstPerCore = std::max(worstPerCore, weights / (double(wafers) * cores));
        if (model.isMoeLayer(l) && wafers > 1) {
            const int experts = model.expertCount + model.sharedExpertCount;
            const int perWafer = (experts + wafers - 1) / wafers;
            const std::vector<CoreRect> tiles = expertTiles(full, perWafer);
            for (int e = 0; e < experts; ++e)
                s.expertRegions[size_t(l)].push_back({device + e / perWafer, tiles[size_t(e % perWafer)]});
        }
        device += wafers;
    }
    s.lmHead = model.tiedEmbeddings ? s.embedding : RegionRef{device++, full};
    s.deviceCount = device;
    out.devicesNeeded = device;
    out.kvBytesPerCore =
        std::max<int64_t>(0, w.sramBytesPerCore - w.programBytesPerCore - int64_t(std::ceil(worstPerCore)));
    out.note = "a layer is bigger than one wafer, which the placement does not handle: each layer takes whole "
               "wafers, its experts spread over them (an upper bound on the wafer count)";
    return out;
}

} // namespace ws
