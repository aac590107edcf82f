#pragma once
// KV cache placement inside a layer region, as in WaferLLM (§4.3, Table 5).
// A core's KV tile holds a slice of the KV width along x and a slice of the
// sequence along y. Concat (PagedAttention style) appends every new token to
// the last row of cores, so one row fills up and does all the attention work:
// capacity = one row's worth. Shift passes each row's oldest slice to the row
// above whenever all rows are equal, spreading the sequence over every row:
// capacity = rows x one row's worth, at a cost of one neighbour hop plus the
// slice's wavelets per token. WaferLLM measured 382 vs 137,548 tokens for
// LLaMA3-8B on 360 x 360 cores: a ratio of 360, the row count.

#include "engine/wafer/dataflow/layerwork.h"
#include "engine/wafer/dataflow/timingparams.h"

#include <cstdint>

namespace ws {

struct KvCapacity
{
    int cols = 0;
    int rows = 0;
    double bytesPerTokenPerCore = 0; // K and V slice of one token on one core of a row
    int64_t freeBytesPerCore = 0;    // SRAM left for KV after weights and buffers
    int64_t concatTokens = 0;
    int64_t shiftTokens = 0;
    double shiftCyclesPerToken = 0; // alpha + the slice's wavelets (rows move in parallel)

    int64_t tokens(KvPlacement placement) const { return placement == KvPlacement::Shift ? shiftTokens : concatTokens; }
};

KvCapacity kvCapacity(const LayerDims& dims, int cols, int rows, int64_t freeBytesPerCore, const TimingParams& params);

// KV bytes held by the fullest core of the region after `context` tokens.
double kvBytesOnFullestCore(const LayerDims& dims, int cols, int rows, int64_t context, KvPlacement placement,
                            const TimingParams& params);

} // namespace ws
