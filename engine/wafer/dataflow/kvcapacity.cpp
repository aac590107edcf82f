#include "engine/wafer/dataflow/kvcapacity.h"

#include <algorithm>
#include <cmath>

namespace ws {

namespace {
double sliceBytes(const LayerDims& dims, int cols, const TimingParams& p)
{
    if (dims.isMla()) // one latent and RoPE key per token, split along x
        return std::ceil(double(dims.kvCacheWidth()) / std::max(1, cols)) * p.kvBytesPerValue;
    const double kvX = std::ceil(double(dims.kvDim) / std::max(1, cols));
    return 2.0 * kvX * p.kvBytesPerValue; // K and V
}
} // namespace

KvCapacity kvCapacity(const LayerDims& dims, int cols, int rows, int64_t freeBytesPerCore, const TimingParams& params)
{
    KvCapacity c;
    c.cols = std::max(1, cols);
    c.rows = std::max(1, rows);
    c.freeBytesPerCore = std::max<int64_t>(0, freeBytesPerCore);
    c.bytesPerTokenPerCore = sliceBytes(dims, c.cols, params);
    const int64_t perRow =
        c.bytesPerTokenPerCore > 0 ? int64_t(double(c.freeBytesPerCore) / c.bytesPerTokenPerCore) : 0;
    c.concatTokens = perRow;
    c.shiftTokens = perRow * c.rows;
    c.shiftCyclesPerToken =
        params.hopCycles + std::ceil(c.bytesPerTokenPerCore / params.waveletBytes) * params.cyclesPerWavelet;
    return c;
}

double kvBytesOnFullestCore(const LayerDims& dims, int cols, int rows, int64_t context, KvPlacement placement,
                            const TimingParams& params)
{
    const double perToken = sliceBytes(dims, cols, params);
    const double ctx = double(std::max<int64_t>(0, context));
    if (placement == KvPlacement::Concat)
        return perToken * ctx;
    return perToken * std::ceil(ctx / std::max(1, rows));
}

} // namespace ws
