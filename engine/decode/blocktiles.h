#pragma once
// The K-quant block kernels of prompt processing (a tile of weight rows by a tile of tokens), in a header so that
// one source is compiled for two instruction sets, as kquantlanes.h: AVX-512 VL/BW/VNNI (blockkernels_avx512.cpp)
// and x86-64-v3 (blockkernels_avx2.cpp), chosen at run time (kernels.h's isa()). Each output is the same integers
// in the same lanes, scaled and summed in the same order, as the one-row kernel: only the loads, the weights' decoding
// and the activation's scales are shared between the rows and the tokens of a tile. Where VNNI fuses a multiply-add
// with its sum (vpdpbusd, vpdpwssd) or VL merges bits in one step (vpternlog), AVX2 takes two or three instructions for
// the same exact integers. The including file defines WS_BLOCK_ISA (avx512 or avx2), the namespace of kernels.h whose
// table of kernels (IsaKernels) this header defines, with the rows kernels of kquantlanes.h and q6klanes.h.
#include "engine/decode/floattiles.h"
#include "engine/decode/kquantlanes.h"
#include "engine/decode/q6klanes.h"
#include "engine/decode/q8tiles.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ws::kernels {

namespace {

// a | (b & mask).
inline __m256i orMasked(__m256i a, __m256i b, __m256i mask)
{
#if WS_KQUANT_VNNI
    return _mm256_ternarylogic_epi32(a, b, mask, 0xF8);
#else
    return _mm256_or_si256(a, _mm256_and_si256(b, mask));
#endif
}

// sum + the products of adjacent 16-bit pairs of p and s, added in 32 bits.
inline __m256i addMadd16(__m256i sum, __m256i p, __m256i s)
{
#if WS_KQUANT_VNNI
    return _mm256_dpwssd_epi32(sum, p, s);
#else
    return _mm256_add_epi32(sum, _mm256_madd_epi16(p, s));
#endif
}

// The eight sub-block scales of q4Scales (bytes 0-7) as packedLanes takes them: one per 32-bit lane (VNNI), or
// the scale in both 16-bit halves of its lane (AVX2).
inline __m256i subBlockScales(__m256i s)
{
    const __m256i scale32 = _mm256_cvtepu8_epi32(_mm256_castsi256_si128(s));
#if WS_KQUANT_VNNI
    return scale32;
#else
    return _mm256_or_si256(scale32, _mm256_slli_epi32(scale32, 16));
#endif
}

// A packed Q4_K block's eight 4-bit value vectors v against a permuted Q8_K activation y: lane k is sub-block k's
// exact scale[k] * sum(q[k] * y[k]), as q4PackedLanes forms it. AVX2 first adds the byte pairs' products in 16 bits
// (at most 8 vectors x 2 products x 15 x 128 = 30720: no saturation), then multiplies each lane's two words by its
// scale and adds them: the same integers.
inline __m256i packedLanes(const __m256i* v, const int8_t* y, __m256i scales)
{
    auto act = [y](int k) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(y + 32 * k)); };
#if WS_KQUANT_VNNI
    __m256i sum = _mm256_setzero_si256();
    for (int k = 0; k < 8; ++k)
        sum = _mm256_dpbusd_epi32(sum, v[k], act(k));
    return _mm256_mullo_epi32(sum, scales);
#else
    __m256i a = _mm256_setzero_si256();
    for (int k = 0; k < 8; ++k)
        a = _mm256_add_epi16(a, _mm256_maddubs_epi16(v[k], act(k)));
    return _mm256_madd_epi16(a, scales);
#endif
}

// Eight packed Q4_K rows (the last group may have fewer; its missing rows read as zero) by kTokens permuted Q8_K
// activations. llama.cpp's 8-row kernel, which q4_KPackedRows reproduces, sees of each block and row only two
// exact integers, sum(scale[k] * q[k].y[k]) and sum(min[k] * bsum32[k]); here each block's values are unpacked
// once for all the tokens, and those integers and then the float steps of finishQ4Group follow token by token.
template <int kTokens>
void q4PackedGroup(const uint8_t* rows, size_t rowBytes, int n, const uint8_t* x, size_t xStride, int blocks,
                   float* out, size_t outStride)
{
    const __m256i m4 = _mm256_set1_epi8(15);
    __m256 acc[kTokens], accMin[kTokens];
    for (int t = 0; t < kTokens; ++t)
        acc[t] = accMin[t] = _mm256_setzero_ps();
    for (int b = 0; b < blocks; ++b) {
        alignas(32) __m256i isum[kTokens][8];
        alignas(16) __m128i imin[kTokens][8];
        alignas(16) uint16_t d[8] = {}, dmin[8] = {};
        const BlockQ8_K* xb[kTokens];
        __m128i sums32[kTokens];
        for (int t = 0; t < kTokens; ++t) {
            xb[t] = reinterpret_cast<const BlockQ8_K*>(x + xStride * size_t(t)) + b;
            sums32[t] = bsums32(*xb[t]);
        }
        for (int r = 0; r < 8; ++r) {
            if (r >= n) {
                for (int t = 0; t < kTokens; ++t) {
                    isum[t][r] = _mm256_setzero_si256();
                    imin[t][r] = _mm_setzero_si128();
                }
                continue;
            }
            const BlockQ4_K& w = reinterpret_cast<const BlockQ4_K*>(rows + rowBytes * size_t(r))[b];
            simd::streamAhead(&w, 3);
            const __m256i s = q4Scales(w.scales);
            const __m256i scales = subBlockScales(s);
            const __m128i mins = minimums16(s);
            d[r] = w.d;
            dmin[r] = w.dmin;
            __m256i v[8];
            for (int j = 0; j < 4; ++j) {
                const __m256i bits = simd::loadOnce(w.qs + 32 * j);
                v[2 * j] = _mm256_and_si256(bits, m4);
                v[2 * j + 1] = _mm256_and_si256(_mm256_srli_epi16(bits, 4), m4);
            }
            for (int t = 0; t < kTokens; ++t) {
                isum[t][r] = packedLanes(v, xb[t]->qs, scales);
                imin[t][r] = _mm_madd_epi16(mins, sums32[t]);
            }
        }
        const __m256 wd = _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(d)));
        const __m256 wdmin = _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(dmin)));
        for (int t = 0; t < kTokens; ++t) {
            const __m256 xd = _mm256_set1_ps(xb[t]->d);
            acc[t] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(hsumRows8(isum[t])), _mm256_mul_ps(wd, xd), acc[t]);
            accMin[t] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(hsumRows8x4(imin[t])), _mm256_mul_ps(wdmin, xd), accMin[t]);
        }
    }
    for (int t = 0; t < kTokens; ++t) {
        alignas(32) float result[8];
        _mm256_store_ps(result, _mm256_sub_ps(acc[t], accMin[t]));
        std::copy(result, result + n, out + outStride * size_t(t));
    }
}

// One Q6_K row by kTokens Q8_K activations, each equal to q6Rows bit for bit: per block the row's 6-bit values and
// its scale multipliers are formed once for all the tokens, then each token's integer lanes as q6Lanes forms them
// (maddubs(q, y) - maddubs(32, y), times the group's scales, summed exactly) and its FMA step as q6Rows.
// offsets: the tokens' maddubs(32, y), (token, block, 8 groups).
template <int kTokens>
void q6RowTile(const BlockQ6_K* w, const uint8_t* x, size_t xStride, const __m256i* offsets, int blocks, float* out,
               size_t outStride)
{
    const __m256i m4 = _mm256_set1_epi8(15);
    const __m256i mask = _mm256_set1_epi8(0x30);
    __m256 acc[kTokens];
    for (int t = 0; t < kTokens; ++t)
        acc[t] = _mm256_setzero_ps();
    for (int b = 0; b < blocks; ++b) {
        simd::streamAhead(w + b, 4);
        const __m256i scales16 = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w[b].scales)));
        __m256i q[8], sc[8];
        for (int h = 0; h < 2; ++h) {
            const auto* ql = reinterpret_cast<const __m256i*>(w[b].ql + 64 * h);
            const __m256i ql0 = simd::loadOnce(ql);
            const __m256i ql1 = simd::loadOnce(ql + 1);
            const __m256i qh = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w[b].qh + 32 * h));
            // Each lane's half of the scales; the selector must be an immediate (an -O1 build does not fold h).
            const __m256i scales = h == 0 ? _mm256_permute2x128_si256(scales16, scales16, 0x00)
                                          : _mm256_permute2x128_si256(scales16, scales16, 0x11);
            const __m256i low[4] = {_mm256_and_si256(ql0, m4), _mm256_and_si256(ql1, m4),
                                    _mm256_and_si256(_mm256_srli_epi16(ql0, 4), m4),
                                    _mm256_and_si256(_mm256_srli_epi16(ql1, 4), m4)};
            const __m256i high[4] = {highBitsShifted<0>(qh), highBitsShifted<1>(qh), highBitsShifted<2>(qh),
                                     highBitsShifted<3>(qh)};
            for (int k = 0; k < 4; ++k) {
                q[4 * h + k] = orMasked(low[k], high[k], mask);
                sc[4 * h + k] =
                    _mm256_shuffle_epi8(scales, _mm256_load_si256(reinterpret_cast<const __m256i*>(kScalePair16[k])));
            }
        }
        const float wd = simd::f16(w[b].d);
        for (int t = 0; t < kTokens; ++t) {
            const BlockQ8_K& xb = reinterpret_cast<const BlockQ8_K*>(x + xStride * size_t(t))[b];
            const __m256i* off = offsets + (size_t(t) * size_t(blocks) + size_t(b)) * 8;
            __m256i sumLo = _mm256_setzero_si256(), sumHi = _mm256_setzero_si256();
            for (int g = 0; g < 8; ++g) {
                const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xb.qs + 32 * g));
                const __m256i p = _mm256_sub_epi16(_mm256_maddubs_epi16(q[g], y), off[g]);
                if ((g & 2) == 0)
                    sumLo = addMadd16(sumLo, p, sc[g]);
                else
                    sumHi = addMadd16(sumHi, p, sc[g]);
            }
            const float d = xb.d * wd;
            acc[t] = _mm256_fmadd_ps(_mm256_set1_ps(d), _mm256_cvtepi32_ps(_mm256_add_epi32(sumLo, sumHi)), acc[t]);
        }
    }
    for (int t = 0; t < kTokens; ++t)
        out[outStride * size_t(t)] = simd::hsum8(acc[t]);
}

// One Q5_K row by kTokens Q8_K activations, each equal to q5Row bit for bit: per block the row's 5-bit values, scale
// multipliers and minimums are formed once for all the tokens; each token's integer lanes then follow q45Lanes
// and its float steps q5Row (the minimums' product in a scalar FMA, added after the lanes' hsum8).
template <int kTokens>
void q5RowTile(const BlockQ5_K* w, const uint8_t* x, size_t xStride, int blocks, float* out, size_t outStride)
{
    const __m256i m4 = _mm256_set1_epi8(15);
    const __m256i bit4 = _mm256_set1_epi8(16);
    __m256 acc[kTokens];
    float summs[kTokens];
    for (int t = 0; t < kTokens; ++t) {
        acc[t] = _mm256_setzero_ps();
        summs[t] = 0.0f;
    }
    for (int b = 0; b < blocks; ++b) {
        simd::streamAhead(w + b, 3);
        const __m256i s = q4Scales(w[b].scales);
        const __m128i mins = minimums16(s);
        const __m256i hbits = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w[b].qh));
        __m256i q[8], sw[8];
        for (int j = 0; j < 4; ++j) {
            const __m256i bits = simd::loadOnce(w[b].qs + 32 * j);
            const __m256i hl = j < 2 ? _mm256_slli_epi16(hbits, 4 - 2 * j) : _mm256_srli_epi16(hbits, 2 * j - 4);
            const __m256i hh = j < 2 ? _mm256_slli_epi16(hbits, 3 - 2 * j) : _mm256_srli_epi16(hbits, 2 * j - 3);
            q[2 * j] = orMasked(_mm256_and_si256(bits, m4), hl, bit4);
            q[2 * j + 1] = orMasked(_mm256_and_si256(_mm256_srli_epi16(bits, 4), m4), hh, bit4);
            sw[2 * j] = scaleWords(s, 2 * j);
            sw[2 * j + 1] = scaleWords(s, 2 * j + 1);
        }
        const float wd = simd::f16(w[b].d), wdmin = simd::f16(w[b].dmin);
        for (int t = 0; t < kTokens; ++t) {
            const BlockQ8_K& xb = reinterpret_cast<const BlockQ8_K*>(x + xStride * size_t(t))[b];
            __m256i sumLo = _mm256_setzero_si256(), sumHi = _mm256_setzero_si256();
            for (int j = 0; j < 4; ++j) {
                const __m256i y0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xb.qs + 64 * j));
                const __m256i y1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xb.qs + 64 * j + 32));
                sumLo = addMadd16(sumLo, _mm256_maddubs_epi16(q[2 * j], y0), sw[2 * j]);
                sumHi = addMadd16(sumHi, _mm256_maddubs_epi16(q[2 * j + 1], y1), sw[2 * j + 1]);
            }
            const float d = xb.d * wd;
            const float dmin = -xb.d * wdmin;
            const int imin = hsumI32x4(_mm_madd_epi16(mins, bsums32(xb)));
            summs[t] = std::fma(dmin, static_cast<float>(imin), summs[t]);
            acc[t] = _mm256_fmadd_ps(_mm256_set1_ps(d), _mm256_cvtepi32_ps(_mm256_add_epi32(sumLo, sumHi)), acc[t]);
        }
    }
    for (int t = 0; t < kTokens; ++t)
        out[outStride * size_t(t)] = simd::hsum8(acc[t]) + summs[t];
}

inline void q5Block(const uint8_t* rows, size_t rowBytes, int rowCount, const uint8_t* x, size_t xStride, int tokens,
                    int blocks, float* out, size_t outStride)
{
    using Tile = void (*)(const BlockQ5_K*, const uint8_t*, size_t, int, float*, size_t);
    static constexpr Tile kTiles[4] = {q5RowTile<1>, q5RowTile<2>, q5RowTile<3>, q5RowTile<4>};
    // Blocks of 16 rows (in L2) by tiles of four tokens whose activations stay in L1 while the rows pass over them.
    for (int r0 = 0; r0 < rowCount; r0 += 16) {
        const int r1 = std::min(rowCount, r0 + 16);
        for (int t = 0; t < tokens; t += 4) {
            const int tn = std::min(4, tokens - t);
            for (int r = r0; r < r1; ++r)
                kTiles[tn - 1](reinterpret_cast<const BlockQ5_K*>(rows + rowBytes * size_t(r)), x + xStride * size_t(t),
                               xStride, blocks, out + outStride * size_t(t) + size_t(r), outStride);
        }
    }
}

inline void q6Block(const uint8_t* rows, size_t rowBytes, int rowCount, const uint8_t* x, size_t xStride, int tokens,
                    int blocks, float* out, size_t outStride)
{
    using Tile = void (*)(const BlockQ6_K*, const uint8_t*, size_t, const __m256i*, int, float*, size_t);
    static constexpr Tile kTiles[4] = {q6RowTile<1>, q6RowTile<2>, q6RowTile<3>, q6RowTile<4>};
    // Panels of tokens whose activations and offsets (about as many bytes again) stay in L2 together.
    const int panel = simd::tokenPanel(128 << 10, xStride);
    struct Offsets // one block's eight groups (a struct: a vector of __m256i would drop its alignment)
    {
        __m256i group[8];
    };
    thread_local std::vector<Offsets> offsetBlocks;
    offsetBlocks.resize(size_t(std::min(panel, tokens)) * size_t(blocks));
    __m256i* offsets = offsetBlocks.data()->group;
    for (int t0 = 0; t0 < tokens; t0 += panel) {
        const int t1 = std::min(tokens, t0 + panel);
        for (int t = t0; t < t1; ++t)
            for (int b = 0; b < blocks; ++b)
                q6Offsets(reinterpret_cast<const BlockQ8_K*>(x + xStride * size_t(t))[b],
                          offsets + (size_t(t - t0) * size_t(blocks) + size_t(b)) * 8);
        // Blocks of 16 rows (in L2) by tiles of four tokens: one tile's activations and offsets stay in L1 while
        // the 16 rows pass over them.
        for (int r0 = 0; r0 < rowCount; r0 += 16) {
            const int r1 = std::min(rowCount, r0 + 16);
            for (int t = t0; t < t1; t += 4) {
                const int tn = std::min(4, t1 - t);
                for (int r = r0; r < r1; ++r)
                    kTiles[tn - 1](reinterpret_cast<const BlockQ6_K*>(rows + rowBytes * size_t(r)),
                                   x + xStride * size_t(t), xStride, offsets + size_t(t - t0) * blocks * 8, blocks,
                                   out + outStride * size_t(t) + size_t(r), outStride);
            }
        }
    }
}

inline void q4PackedBlock(const uint8_t* rows, size_t rowBytes, int rowCount, const uint8_t* x, size_t xStride,
                          int tokens, int blocks, float* out, size_t outStride)
{
    using Group = void (*)(const uint8_t*, size_t, int, const uint8_t*, size_t, int, float*, size_t);
    static constexpr Group kGroups[4] = {q4PackedGroup<1>, q4PackedGroup<2>, q4PackedGroup<3>, q4PackedGroup<4>};
    const int panel = simd::tokenPanel(256 << 10, xStride);
    for (int t0 = 0; t0 < tokens; t0 += panel) {
        const int t1 = std::min(tokens, t0 + panel);
        for (int r = 0; r < rowCount; r += 8) {
            const int rn = std::min(8, rowCount - r);
            for (int t = t0; t < t1; t += 4) {
                const int tn = std::min(4, t1 - t);
                kGroups[tn - 1](rows + rowBytes * size_t(r), rowBytes, rn, x + xStride * size_t(t), xStride, blocks,
                                out + outStride * size_t(t) + size_t(r), outStride);
            }
        }
    }
}

} // namespace

} // namespace ws::kernels

namespace ws::kernels::WS_BLOCK_ISA {

BlockKernel dotQ8_0Block; // the including file's: q8_0Panels over its own tiles of rows and tokens

// F32 and F16 (floattiles.h) in the including file's tile shape, WS_FLOAT_TILE_ROWS x WS_FLOAT_TILE_TOKENS.
void f32Block(const uint8_t* rows, size_t rowBytes, int rowCount, const float* x, int tokens, int n, float* out,
              size_t outStride)
{
    floatPanels<WS_FLOAT_TILE_ROWS, WS_FLOAT_TILE_TOKENS, float, LoadF32>(rows, rowBytes, rowCount, x, tokens, n, out,
                                                                          outStride);
}
void f16Block(const uint8_t* rows, size_t rowBytes, int rowCount, const uint16_t* x, int tokens, int n, float* out,
              size_t outStride)
{
    floatPanels<WS_FLOAT_TILE_ROWS, WS_FLOAT_TILE_TOKENS, uint16_t, LoadF16>(rows, rowBytes, rowCount, x, tokens, n,
                                                                             out, outStride);
}

const IsaKernels kKernels{.q4_KInterleaved8 = q4Interleaved8,
                          .q4_KPackedRows = q4PackedRows,
                          .q5_KRows = q5Rows,
                          .q6_KRows = q6Rows,
                          .q8_0Block = dotQ8_0Block,
                          .q4_KPackedBlock = q4PackedBlock,
                          .q5_KBlock = q5Block,
                          .q6_KBlock = q6Block,
                          .f32Block = f32Block,
                          .f16Block = f16Block};

} // namespace ws::kernels::WS_BLOCK_ISA
