// The block kernels of prompt processing (a tile of weight rows by a tile of tokens) built for x86-64-v3 (AVX2),
// the kernels of IsaKernels (kernels.h) that isa() chooses where the processor lacks AVX-512 VNNI: the K-quants'
// from blocktiles.h, and Q8_0's here. Each output is the one-row kernel's integers in its lanes, scaled and summed
// in its order: only the loads and the scales are shared within a tile.
#define WS_BLOCK_ISA avx2
#include "engine/decode/blocktiles.h"

namespace ws::kernels::avx2 {

namespace {

// kRows rows by kTokens tokens of Q8_0, over all blocks: per block and pair, dotQ8_0's lanes (dotI8Lanes: the
// weight's magnitude times the activation with the weight's sign, byte pairs summed in 16 bits, then in 32), and
// acc = fma(d_w * d_x, float(lanes), acc); hsum8 at the end. A weight's magnitude and scale are formed once per
// block for the tile's tokens, an activation's load and scale once for its rows.
template <int kRows, int kTokens>
void q8_0Tile(const uint8_t* rows, size_t rowBytes, const uint8_t* x, size_t xStride, int blocks, float* out,
              size_t outStride)
{
    __m256 acc[kRows][kTokens];
    for (int r = 0; r < kRows; ++r)
        for (int t = 0; t < kTokens; ++t)
            acc[r][t] = _mm256_setzero_ps();
    const __m256i ones = _mm256_set1_epi16(1);
    for (int b = 0; b < blocks; ++b) {
        __m256i w[kRows], magnitude[kRows];
        __m256 wd[kRows];
        for (int r = 0; r < kRows; ++r) {
            const auto* blk = reinterpret_cast<const BlockQ8_0*>(rows + rowBytes * size_t(r)) + b;
            w[r] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(blk->qs));
            magnitude[r] = _mm256_sign_epi8(w[r], w[r]);
            wd[r] = _mm256_set1_ps(simd::f16(blk->d));
        }
        for (int t = 0; t < kTokens; ++t) {
            const auto* xb = reinterpret_cast<const BlockQ8_0*>(x + xStride * size_t(t)) + b;
            const __m256i xq = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xb->qs));
            const __m256 xd = _mm256_set1_ps(simd::f16(xb->d));
            for (int r = 0; r < kRows; ++r) {
                const __m256i dot16 = _mm256_maddubs_epi16(magnitude[r], _mm256_sign_epi8(xq, w[r]));
                const __m256 lanes = _mm256_cvtepi32_ps(_mm256_madd_epi16(ones, dot16));
                acc[r][t] = _mm256_fmadd_ps(_mm256_mul_ps(wd[r], xd), lanes, acc[r][t]);
            }
        }
    }
    for (int t = 0; t < kTokens; ++t)
        for (int r = 0; r < kRows; ++r)
            out[outStride * size_t(t) + size_t(r)] = simd::hsum8(acc[r][t]);
}

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
    using Tokens = void (*)(const uint8_t*, size_t, const uint8_t*, size_t, int, int, float*, size_t);
    static constexpr Tokens kRowTiles[kQ8Rows] = {q8_0Tokens<1>, q8_0Tokens<2>, q8_0Tokens<3>};
    // Panels of tokens whose activations stay in L2 (about 256 KiB) while every tile of rows (in L1) passes over
    // them; the weights are read from memory once per panel.
    const int panel = std::clamp(int((256 << 10) / std::max<size_t>(xStride, 1)) / 4 * 4, 4, 512);
    for (int t0 = 0; t0 < tokens; t0 += panel) {
        const int tn = std::min(tokens, t0 + panel) - t0;
        for (int r = 0; r < rowCount; r += kQ8Rows)
            kRowTiles[std::min(kQ8Rows, rowCount - r) - 1](rows + rowBytes * size_t(r), rowBytes,
                                                           x + xStride * size_t(t0), xStride, tn, blocks,
                                                           out + outStride * size_t(t0) + size_t(r), outStride);
    }
}

} // namespace ws::kernels::avx2
