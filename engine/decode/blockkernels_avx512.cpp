// The kernels of blocktiles.h, kquantlanes.h and q6klanes.h (IsaKernels, kernels.h) built for AVX-512
// F/BW/VL/VNNI, which isa() chooses where the processor has these, and Q8_0's block kernel with its tiles of token
// pairs in 512-bit registers. Each output is the one-row kernel's integers in its lanes, scaled and summed in its
// order: only the loads and the scales are shared within a tile.

// GCC 12 reports the deliberately undefined pass-through operand of its own 512-bit intrinsics
// (_mm512_undefined_ps in _mm512_cvtepi32_ps, _mm512_inserti64x4) as uninitialised once they are inlined.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#define WS_BLOCK_ISA avx512
#include "engine/decode/blocktiles.h"

namespace ws::kernels::avx512 {

bool available()
{
    static const bool supported = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                                  __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni");
    return supported;
}

namespace {

// The same for kPairs pairs of tokens in 512-bit registers: token 2i in the low half, 2i + 1 in the high half,
// each half the lanes and steps of q8_0Tile's 256-bit register (blocktiles.h) for its token (the weights broadcast
// to both). Half the instructions per product, on cores with two 512-bit FMA units twice the products per cycle.
template <int kRows, int kPairs>
void q8_0PairTile(const uint8_t* rows, size_t rowBytes, const uint8_t* x, size_t xStride, int blocks, float* out,
                  size_t outStride)
{
    __m512 acc[kRows][kPairs]{}; // zeros
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
    static constexpr Q8RowTile kRowTiles[4] = {q8_0Tokens<1>, q8_0Tokens<2>, q8_0Tokens<3>, q8_0Tokens<4>};
    q8_0Panels(kRowTiles, rows, rowBytes, rowCount, x, xStride, tokens, blocks, out, outStride);
}

} // namespace ws::kernels::avx512
