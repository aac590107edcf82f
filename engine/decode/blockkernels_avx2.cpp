// The block kernels of prompt processing (a tile of weight rows by a tile of tokens) built for x86-64-v3 (AVX2),
// the kernels of IsaKernels (kernels.h) that isa() chooses where the processor lacks AVX-512 VNNI: the K-quants'
// from blocktiles.h, and Q8_0's here. Each output is the one-row kernel's integers in its lanes, scaled and summed
// in its order: only the loads and the scales are shared within a tile.
#define WS_BLOCK_ISA avx2
// F32/F16: three rows by four tokens, twelve accumulators, three weights and an activation in the 16 registers.
#define WS_FLOAT_TILE_ROWS 3
#define WS_FLOAT_TILE_TOKENS 4
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

// Three rows by three tokens: q8_0Tile<3, 3>'s integers and order, with the scales as floats made once per panel
// (the tokens', [block][token], tokenScales at this tile's first token) and per row tile (the rows', [block][4]),
// a block's nine scale products made ahead for a run of blocks and read by the FMAs as broadcast loads, and the sums
// in named variables (an array of them GCC keeps in memory).
void q8_0Tile3x3(const uint8_t* rows, size_t rowBytes, const float* rowScales, const uint8_t* x, size_t xStride,
                 const float* tokenScales, size_t tokenScaleStride, int blocks, float* out, size_t outStride)
{
    constexpr int kRun = 64;
    __m256 a00 = _mm256_setzero_ps(), a01 = a00, a02 = a00, a10 = a00, a11 = a00, a12 = a00, a20 = a00, a21 = a00,
           a22 = a00;                  // [row][token]
    alignas(32) float scale[kRun][12]; // [block][token][row of 4]
    for (int b0 = 0; b0 < blocks; b0 += kRun) {
        const int n = std::min(kRun, blocks - b0);
        for (int i = 0; i < n; ++i) {
            const size_t b = size_t(b0 + i);
            const __m128 wd = _mm_loadu_ps(rowScales + 4 * b);
            const float* xd = tokenScales + tokenScaleStride * b;
            _mm256_storeu_ps(scale[i], _mm256_mul_ps(_mm256_set_m128(wd, wd),
                                                     _mm256_set_m128(_mm_set1_ps(xd[1]), _mm_set1_ps(xd[0]))));
            _mm_storeu_ps(scale[i] + 8, _mm_mul_ps(wd, _mm_set1_ps(xd[2])));
        }
        for (int i = 0; i < n; ++i) {
            const int b = b0 + i;
            auto weights = [&](int r) {
                const auto* blk = reinterpret_cast<const BlockQ8_0*>(rows + rowBytes * size_t(r)) + b;
                return q8Weights(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(blk->qs)));
            };
            const Q8Weights w0 = weights(0), w1 = weights(1), w2 = weights(2);
            auto token = [&](int t, __m256& s0, __m256& s1, __m256& s2) {
                const auto* xb = reinterpret_cast<const BlockQ8_0*>(x + xStride * size_t(t)) + b;
                const __m256i xa = q8Activation(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(xb->qs)));
                const float* sc = scale[i] + 4 * t;
                s0 = _mm256_fmadd_ps(_mm256_broadcast_ss(sc), _mm256_cvtepi32_ps(q8Lanes(w0, xa)), s0);
                s1 = _mm256_fmadd_ps(_mm256_broadcast_ss(sc + 1), _mm256_cvtepi32_ps(q8Lanes(w1, xa)), s1);
                s2 = _mm256_fmadd_ps(_mm256_broadcast_ss(sc + 2), _mm256_cvtepi32_ps(q8Lanes(w2, xa)), s2);
            };
            token(0, a00, a10, a20);
            token(1, a01, a11, a21);
            token(2, a02, a12, a22);
        }
    }
    const __m256 sums[3][3] = {{a00, a10, a20}, {a01, a11, a21}, {a02, a12, a22}};
    for (int t = 0; t < 3; ++t)
        for (int r = 0; r < 3; ++r)
            out[outStride * size_t(t) + size_t(r)] = simd::hsum8(sums[t][r]);
}

} // namespace

void dotQ8_0Block(const uint8_t* rows, size_t rowBytes, int rowCount, const uint8_t* x, size_t xStride, int tokens,
                  int blocks, float* out, size_t outStride)
{
    static constexpr Q8RowTile kRowTiles[kQ8Rows] = {q8_0Tokens<1>, q8_0Tokens<2>, q8_0Tokens<3>};
    if (rowCount < 3 || tokens < 3)
        return q8_0Panels(kRowTiles, rows, rowBytes, rowCount, x, xStride, tokens, blocks, out, outStride);
    q8_0ScaledPanels<3, 3>(q8_0Tile3x3, kRowTiles, rows, rowBytes, rowCount, x, xStride, tokens, blocks, out,
                           outStride);
}

} // namespace ws::kernels::avx2
