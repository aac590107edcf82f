// Block kernels (a tile of weight rows by a tile of tokens, prompt processing) built for AVX-512 VL/BW/VNNI,
// chosen at run time by their dispatchers in the type families' files (kernels.h). Each output is the same
// integers in the same lanes, scaled and summed in the same order, as the one-row kernel: only the loads, the
// weights' decoding and the activation's scales are shared between the rows and the tokens of a tile.
#include "engine/decode/kernels.h"
#include "engine/decode/simd.h"

#include <algorithm>

namespace ws::kernels::avx512 {

namespace {

// kRows rows by kTokens tokens of Q8_0, over all blocks. Per block, lane i of dotQ8_0's integer vector is the
// sum of the 4 products of bytes 4i..4i+3; here vpdpbusd forms it from the activation made unsigned
// (x ^ 0x80 = x + 128) and the signed weights, less 128 times the weights' 4-byte sums (vpdpbusd of 0x80 and
// the weights), exactly. Then, as dotQ8_0: acc = fma(d_w * d_x, float(lanes), acc), and hsum8 at the end.
template <int kRows, int kTokens>
void q8_0Tile(const uint8_t* rows, size_t rowBytes, const uint8_t* x, size_t xStride, int blocks, float* out,
              size_t outStride)
{
    __m256 acc[kRows][kTokens];
    for (int r = 0; r < kRows; ++r)
        for (int t = 0; t < kTokens; ++t)
            acc[r][t] = _mm256_setzero_ps();
    const __m256i bias = _mm256_set1_epi8(static_cast<char>(0x80));
    for (int b = 0; b < blocks; ++b) {
        __m256i w[kRows], negBias[kRows];
        float wd[kRows];
        for (int r = 0; r < kRows; ++r) {
            const auto* blk = reinterpret_cast<const BlockQ8_0*>(rows + rowBytes * size_t(r)) + b;
            w[r] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(blk->qs));
            negBias[r] =
                _mm256_sub_epi32(_mm256_setzero_si256(), _mm256_dpbusd_epi32(_mm256_setzero_si256(), bias, w[r]));
            wd[r] = simd::f16(blk->d);
        }
        for (int t = 0; t < kTokens; ++t) {
            const auto* xb = reinterpret_cast<const BlockQ8_0*>(x + xStride * size_t(t)) + b;
            const __m256i xu = _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(xb->qs)), bias);
            const float xd = simd::f16(xb->d);
            for (int r = 0; r < kRows; ++r) {
                const __m256 lanes = _mm256_cvtepi32_ps(_mm256_dpbusd_epi32(negBias[r], xu, w[r]));
                acc[r][t] = _mm256_fmadd_ps(_mm256_set1_ps(wd[r] * xd), lanes, acc[r][t]);
            }
        }
    }
    for (int t = 0; t < kTokens; ++t)
        for (int r = 0; r < kRows; ++r)
            out[outStride * size_t(t) + size_t(r)] = simd::hsum8(acc[r][t]);
}

using TileFn = void (*)(const uint8_t*, size_t, const uint8_t*, size_t, int, float*, size_t);

template <int kRows> TileFn q8_0TileFor(int tokens)
{
    switch (tokens) {
    case 1:
        return q8_0Tile<kRows, 1>;
    case 2:
        return q8_0Tile<kRows, 2>;
    case 3:
        return q8_0Tile<kRows, 3>;
    default:
        return q8_0Tile<kRows, 4>;
    }
}

TileFn q8_0TileFor(int rows, int tokens)
{
    switch (rows) {
    case 1:
        return q8_0TileFor<1>(tokens);
    case 2:
        return q8_0TileFor<2>(tokens);
    case 3:
        return q8_0TileFor<3>(tokens);
    default:
        return q8_0TileFor<4>(tokens);
    }
}

} // namespace

void dotQ8_0Block(const uint8_t* rows, size_t rowBytes, int rowCount, const uint8_t* x, size_t xStride, int tokens,
                  int blocks, float* out, size_t outStride)
{
    // Panels of tokens whose activations stay in L2 (about 256 KiB) while every tile of four rows (in L1)
    // passes over them; the weights are read from memory once per panel.
    const int panel = std::clamp(int((256 << 10) / std::max<size_t>(xStride, 1)) / 4 * 4, 4, 512);
    for (int t0 = 0; t0 < tokens; t0 += panel) {
        const int t1 = std::min(tokens, t0 + panel);
        for (int r = 0; r < rowCount; r += 4) {
            const int rn = std::min(4, rowCount - r);
            const uint8_t* tileRows = rows + rowBytes * size_t(r);
            for (int t = t0; t < t1; t += 4) {
                const int tn = std::min(4, t1 - t);
                q8_0TileFor(rn, tn)(tileRows, rowBytes, x + xStride * size_t(t), xStride, blocks,
                                    out + outStride * size_t(t) + size_t(r), outStride);
            }
        }
    }
}

} // namespace ws::kernels::avx512
