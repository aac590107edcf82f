// The Q8_0 block kernel (a tile of weight rows by a tile of tokens, prompt processing) built for AVX-512
// F/BW/VL/VNNI, chosen at run time with the others of IsaKernels (kernels.h). Each output is dotQ8_0's integers in
// dotQ8_0's lanes, scaled and summed in its order: only the loads and the scales are shared within a tile.
#include "engine/decode/kernels.h"
#include "engine/decode/simd.h"

// GCC 12 reports the deliberately undefined pass-through operand of its own 512-bit intrinsics
// (_mm512_undefined_ps in _mm512_cvtepi32_ps, _mm512_inserti64x4) as uninitialised once they are inlined.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

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

// The same for kPairs pairs of tokens in 512-bit registers: token 2i in the low half, 2i + 1 in the high half,
// each half the lanes and steps of q8_0Tile's 256-bit register for its token (the weights broadcast to both).
// Half the instructions per product, on cores with two 512-bit FMA units twice the products per cycle.
template <int kRows, int kPairs>
void q8_0PairTile(const uint8_t* rows, size_t rowBytes, const uint8_t* x, size_t xStride, int blocks, float* out,
                  size_t outStride)
{
    __m512 acc[kRows][kPairs];
    for (int r = 0; r < kRows; ++r)
        for (int p = 0; p < kPairs; ++p)
            acc[r][p] = _mm512_setzero_ps();
    const __m512i bias = _mm512_set1_epi8(static_cast<char>(0x80));
    for (int b = 0; b < blocks; ++b) {
        __m512i w[kRows], negBias[kRows];
        __m512 wd[kRows];
        for (int r = 0; r < kRows; ++r) {
            const auto* blk = reinterpret_cast<const BlockQ8_0*>(rows + rowBytes * size_t(r)) + b;
            const __m256i qs = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(blk->qs));
            w[r] = _mm512_inserti64x4(_mm512_zextsi256_si512(qs), qs, 1);
            negBias[r] =
                _mm512_sub_epi32(_mm512_setzero_si512(), _mm512_dpbusd_epi32(_mm512_setzero_si512(), bias, w[r]));
            wd[r] = _mm512_set1_ps(simd::f16(blk->d));
        }
        for (int p = 0; p < kPairs; ++p) {
            const auto* x0 = reinterpret_cast<const BlockQ8_0*>(x + xStride * size_t(2 * p)) + b;
            const auto* x1 = reinterpret_cast<const BlockQ8_0*>(x + xStride * size_t(2 * p + 1)) + b;
            // (zero-extending casts, a blend and a store: GCC 12 warns of the undefined upper halves of the others)
            const __m512i both =
                _mm512_inserti64x4(_mm512_zextsi256_si512(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(x0->qs))),
                                   _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x1->qs)), 1);
            const __m512i xu = _mm512_xor_si512(both, bias);
            const __m512 xd =
                _mm512_mask_blend_ps(0xFF00, _mm512_set1_ps(simd::f16(x0->d)), _mm512_set1_ps(simd::f16(x1->d)));
            for (int r = 0; r < kRows; ++r) {
                const __m512 lanes = _mm512_cvtepi32_ps(_mm512_dpbusd_epi32(negBias[r], xu, w[r]));
                acc[r][p] = _mm512_fmadd_ps(_mm512_mul_ps(wd[r], xd), lanes, acc[r][p]);
            }
        }
    }
    for (int p = 0; p < kPairs; ++p)
        for (int r = 0; r < kRows; ++r) {
            alignas(64) float halves[16];
            _mm512_store_ps(halves, acc[r][p]);
            const __m256 lo = _mm256_load_ps(halves), hi = _mm256_load_ps(halves + 8);
            out[outStride * size_t(2 * p) + size_t(r)] = simd::hsum8(lo);
            out[outStride * size_t(2 * p + 1) + size_t(r)] = simd::hsum8(hi);
        }
}

template <int kRows>
void q8_0Tokens(const uint8_t* rows, size_t rowBytes, const uint8_t* x, size_t xStride, int tokens, int blocks,
                float* out, size_t outStride)
{
    // Four tokens as two pairs, then a pair and a single for what is left.
    int t = 0;
    for (; t + 4 <= tokens; t += 4)
        q8_0PairTile<kRows, 2>(rows, rowBytes, x + xStride * size_t(t), xStride, blocks, out + outStride * size_t(t),
                               outStride);
    if (t + 2 <= tokens) {
        q8_0PairTile<kRows, 1>(rows, rowBytes, x + xStride * size_t(t), xStride, blocks, out + outStride * size_t(t),
                               outStride);
        t += 2;
    }
    if (t < tokens)
        q8_0Tile<kRows, 1>(rows, rowBytes, x + xStride * size_t(t), xStride, blocks, out + outStride * size_t(t),
                           outStride);
}

} // namespace

void dotQ8_0Block(const uint8_t* rows, size_t rowBytes, int rowCount, const uint8_t* x, size_t xStride, int tokens,
                  int blocks, float* out, size_t outStride)
{
    using Tokens = void (*)(const uint8_t*, size_t, const uint8_t*, size_t, int, int, float*, size_t);
    static constexpr Tokens kRowTiles[4] = {q8_0Tokens<1>, q8_0Tokens<2>, q8_0Tokens<3>, q8_0Tokens<4>};
    // Panels of tokens whose activations stay in L2 (about 256 KiB) while every tile of four rows (in L1)
    // passes over them; the weights are read from memory once per panel.
    const int panel = std::clamp(int((256 << 10) / std::max<size_t>(xStride, 1)) / 4 * 4, 4, 512);
    for (int t0 = 0; t0 < tokens; t0 += panel) {
        const int tn = std::min(tokens, t0 + panel) - t0;
        for (int r = 0; r < rowCount; r += 4)
            kRowTiles[std::min(4, rowCount - r) - 1](rows + rowBytes * size_t(r), rowBytes, x + xStride * size_t(t0),
                                                     xStride, tn, blocks, out + outStride * size_t(t0) + size_t(r),
                                                     outStride);
    }
}

} // namespace ws::kernels::avx512
