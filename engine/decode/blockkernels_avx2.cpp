// The block kernels of prompt processing (a tile of weight rows by a tile of tokens) built for x86-64-v3 (AVX2),
// the kernels of IsaKernels (kernels.h) that isa() chooses where the processor lacks AVX-512 VNNI: the K-quants'
// from blocktiles.h, and Q8_0's here. Each output is the one-row kernel's integers in its lanes, scaled and summed
// in its order: only the loads and the scales are shared within a tile.
#define WS_BLOCK_ISA avx2
#include "engine/decode/blocktiles.h"

namespace ws::kernels::avx2 {

namespace {

// Nine accumulators: the tile shapes from 2x3 to 4x4 ran within a few per cent of each other here (Zen 3, where the
// two integer multiplies of each product, one per cycle, are the limit).
constexpr int kQ8Rows = 3, kQ8Tokens = 3;

template <int kRows>
void q8_0Tokens(const uint8_t* rows, size_t rowBytes, const uint8_t* x, size_t xStride, int tokens, int blocks,
                float* out, size_t outStride)
{
    using Tile = void (*)(const uint8_t*, size_t, const uint8_t*, size_t, int, float*, size_t);
    static constexpr Tile kTails[kQ8Tokens] = {q8_0Tile<kRows, 1>, q8_0Tile<kRows, 2>, q8_0Tile<kRows, 3>};
    for (int t = 0; t < tokens; t += kQ8Tokens)
        kTails[std::min(kQ8Tokens, tokens - t) - 1](rows, rowBytes, x + xStride * size_t(t), xStride, blocks,
                                                    out + outStride * size_t(t), outStride);
}

} // namespace

void dotQ8_0Block(const uint8_t* rows, size_t rowBytes, int rowCount, const uint8_t* x, size_t xStride, int tokens,
                  int blocks, float* out, size_t outStride)
{
    static constexpr Q8RowTile kRowTiles[kQ8Rows] = {q8_0Tokens<1>, q8_0Tokens<2>, q8_0Tokens<3>};
    q8_0Panels(kRowTiles, rows, rowBytes, rowCount, x, xStride, tokens, blocks, out, outStride);
}

} // namespace ws::kernels::avx2
