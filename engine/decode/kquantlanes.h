#pragma once
// The integer lanes of the Q4_K and Q5_K dot products (ggml's AVX2 lane layout, see kquantkernels.cpp), in a
// header so that one source is compiled for two instruction sets: x86-64-v3 (kquantkernels.cpp) and, where
// the processor has them, AVX-512 VL/BW/VNNI (blockkernels_avx512.cpp). There VNNI's vpdpwssd adds each
// 16-bit multiply-add to the sum in one instruction and VL's vpternlog merges a high bit in one: the same
// integers in every lane, so the same bits. Internal linkage (an unnamed namespace): each translation unit
// keeps its own copy, compiled for its own instructions.
#include "engine/decode/kernels.h"
#include "engine/decode/simd.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace ws::kernels {

namespace {

#if defined(__AVX512VNNI__) && defined(__AVX512VL__)
#define WS_KQUANT_VNNI 1
#else
#define WS_KQUANT_VNNI 0
#endif

// The 8 6-bit scales (bytes 0-7) and minimums (bytes 8-15) of a Q4_K/Q5_K block from its 12 packed bytes
// (ggml's utmp unpacking, in one vector: the 16 bytes read end inside the block's quants), in both 128-bit
// lanes: the 16 bytes are loaded into both (a load, no shuffle) and every step works within a lane, so the
// lanes' multipliers below come from one shuffle each.
inline __m256i q4Scales(const uint8_t* scales)
{
    const __m256i v = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(scales)));
    // Low bits: bytes 0-3 (scales 0-3), 8-11 (scales 4-7), 4-7 (minimums 0-3), 8-11 >> 4 (minimums 4-7).
    const __m256i a = _mm256_shuffle_epi8(v, _mm256_setr_epi8(0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1,
                                                              2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 8, 9, 10, 11));
    const __m256i low =
        _mm256_and_si256(_mm256_blend_epi32(a, _mm256_srli_epi16(a, 4), 0x88),
                         _mm256_setr_epi8(63, 63, 63, 63, 15, 15, 15, 15, 63, 63, 63, 63, 15, 15, 15, 15, 63, 63, 63,
                                          63, 15, 15, 15, 15, 63, 63, 63, 63, 15, 15, 15, 15));
    // Top two bits of scales and minimums 4-7: bits 6-7 of bytes 0-3 and 4-7, moved to bits 4-5.
    const __m256i b = _mm256_shuffle_epi8(v, _mm256_setr_epi8(-1, -1, -1, -1, 0, 1, 2, 3, -1, -1, -1, -1, 4, 5, 6, 7,
                                                              -1, -1, -1, -1, 0, 1, 2, 3, -1, -1, -1, -1, 4, 5, 6, 7));
    return _mm256_or_si256(low, _mm256_and_si256(_mm256_srli_epi16(b, 2), _mm256_set1_epi8(0x30)));
}

// The minimums of q4Scales as 16-bit values.
inline __m128i minimums16(__m256i s)
{
    return _mm_shuffle_epi8(_mm256_castsi256_si128(s),
                            _mm_setr_epi8(8, -1, 9, -1, 10, -1, 11, -1, 12, -1, 13, -1, 14, -1, 15, -1));
}

// The Q8_K sums over 32 values (8 16-bit values).
inline __m128i bsums32(const BlockQ8_K& x)
{
    const __m128i* bs = reinterpret_cast<const __m128i*>(x.bsums);
    return _mm_hadd_epi16(_mm_loadu_si128(bs), _mm_loadu_si128(bs + 1));
}

// 4 lanes: m[2k] * bsum32[2k] + m[2k + 1] * bsum32[2k + 1].
inline __m128i minProducts(__m256i s, const BlockQ8_K& x)
{
    return _mm_madd_epi16(minimums16(s), bsums32(x));
}

inline int hsumI32x4(__m128i v)
{
    v = _mm_add_epi32(v, _mm_unpackhi_epi64(v, v));
    return _mm_cvtsi128_si32(_mm_add_epi32(v, _mm_shuffle_epi32(v, 1)));
}

// (a0 + a2) + (a1 + a3), ggml's reduction of its 4-lane minimum accumulator.
inline float hsum4(__m128 a)
{
    a = _mm_add_ps(a, _mm_movehl_ps(a, a));
    a = _mm_add_ss(a, _mm_movehdup_ps(a));
    return _mm_cvtss_f32(a);
}

// pshufb masks: byte i then zero in all 16 positions of both halves, broadcasting scale i of q4Scales as a
// 16-bit value.
alignas(32) constexpr uint8_t kScaleWords[8][32] = {
#define WS_W(i)                                                                                                        \
    {                                                                                                                  \
        i, 0x80, i, 0x80, i, 0x80, i, 0x80, i, 0x80, i, 0x80, i, 0x80, i, 0x80, i, 0x80, i, 0x80, i, 0x80, i, 0x80, i, \
            0x80, i, 0x80, i, 0x80, i, 0x80                                                                            \
    }
    WS_W(0), WS_W(1), WS_W(2), WS_W(3), WS_W(4),
    WS_W(5), WS_W(6), WS_W(7)
#undef WS_W
};

inline __m256i scaleWords(__m256i s, int i)
{
    return _mm256_shuffle_epi8(s, _mm256_load_si256(reinterpret_cast<const __m256i*>(kScaleWords[i])));
}

// Integer lanes of a Q4_K (hbits null) or Q5_K super-block against its Q8_K activation.
inline __m256i q45Lanes(const uint8_t* qs, const uint8_t* qh, __m256i s, const int8_t* q8)
{
    const __m256i m4 = _mm256_set1_epi8(15);
    const __m256i hbits = qh ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(qh)) : _mm256_setzero_si256();
    // Two sums (the low and the high nibbles' sub-blocks), two dependency chains half as long: exact integers,
    // added at the end.
    __m256i sumLo = _mm256_setzero_si256(), sumHi = _mm256_setzero_si256();
    for (int j = 0; j < 4; ++j) {
        const __m256i bits = simd::loadOnce(qs + 32 * j);
        __m256i lo = _mm256_and_si256(bits, m4);
        __m256i hi = _mm256_and_si256(_mm256_srli_epi16(bits, 4), m4);
        if (qh) {
            // Bit 2j (low nibbles) and 2j + 1 (high nibbles) of each byte moved to bit 4 by one shift each: no
            // bit of the neighbouring byte reaches bit 4 for shifts of at most 4.
            const __m256i bit4 = _mm256_set1_epi8(16);
            const __m256i hl = j < 2 ? _mm256_slli_epi16(hbits, 4 - 2 * j) : _mm256_srli_epi16(hbits, 2 * j - 4);
            const __m256i hh = j < 2 ? _mm256_slli_epi16(hbits, 3 - 2 * j) : _mm256_srli_epi16(hbits, 2 * j - 3);
#if WS_KQUANT_VNNI
            lo = _mm256_ternarylogic_epi32(lo, hl, bit4, 0xF8); // lo | (hl & bit4)
            hi = _mm256_ternarylogic_epi32(hi, hh, bit4, 0xF8);
#else
            lo = _mm256_or_si256(lo, _mm256_and_si256(hl, bit4));
            hi = _mm256_or_si256(hi, _mm256_and_si256(hh, bit4));
#endif
        }
        const __m256i p0 = _mm256_maddubs_epi16(lo, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q8 + 64 * j)));
        const __m256i p1 =
            _mm256_maddubs_epi16(hi, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q8 + 64 * j + 32)));
#if WS_KQUANT_VNNI
        sumLo = _mm256_dpwssd_epi32(sumLo, p0, scaleWords(s, 2 * j));
        sumHi = _mm256_dpwssd_epi32(sumHi, p1, scaleWords(s, 2 * j + 1));
#else
        sumLo = _mm256_add_epi32(sumLo, _mm256_madd_epi16(p0, scaleWords(s, 2 * j)));
        sumHi = _mm256_add_epi32(sumHi, _mm256_madd_epi16(p1, scaleWords(s, 2 * j + 1)));
#endif
    }
    return _mm256_add_epi32(sumLo, sumHi);
}

// Exact totals of eight rows' integer lanes, in row order.
inline __m256i hsumRows8(const __m256i* v)
{
    const __m256i a = _mm256_hadd_epi32(_mm256_hadd_epi32(v[0], v[1]), _mm256_hadd_epi32(v[2], v[3]));
    const __m256i b = _mm256_hadd_epi32(_mm256_hadd_epi32(v[4], v[5]), _mm256_hadd_epi32(v[6], v[7]));
    return _mm256_add_epi32(_mm256_permute2x128_si256(a, b, 0x20), _mm256_permute2x128_si256(a, b, 0x31));
}

// Exact totals of eight rows' 4-lane integers, in row order.
inline __m256i hsumRows8x4(const __m128i* v)
{
    const __m256i a = _mm256_hadd_epi32(_mm256_set_m128i(v[4], v[0]), _mm256_set_m128i(v[5], v[1]));
    const __m256i b = _mm256_hadd_epi32(_mm256_set_m128i(v[6], v[2]), _mm256_set_m128i(v[7], v[3]));
    return _mm256_hadd_epi32(a, b);
}

// One Q5_K row; sums32: the activation's bsums32 per block, computed here when null.
inline float q5Row(const BlockQ5_K* w, const BlockQ8_K* x, const __m128i* sums32, int blocks)
{
    __m256 acc = _mm256_setzero_ps();
    float summs = 0;
    for (int b = 0; b < blocks; ++b) {
        simd::streamAhead(w + b, 3);
        const __m256i s = q4Scales(w[b].scales);
        const float d = x[b].d * simd::f16(w[b].d);
        const float dmin = -x[b].d * simd::f16(w[b].dmin);
        const int imin = hsumI32x4(_mm_madd_epi16(minimums16(s), sums32 ? sums32[b] : bsums32(x[b])));
        summs = std::fma(dmin, static_cast<float>(imin), summs);
        acc = _mm256_fmadd_ps(_mm256_set1_ps(d), _mm256_cvtepi32_ps(q45Lanes(w[b].qs, w[b].qh, s, x[b].qs)), acc);
    }
    return simd::hsum8(acc) + summs;
}

// What the eight-row kernels keep of a group of up to eight rows, per super-block and row: the integer lanes,
// the minimums' products with the activation's sums, and the two F16 scales.
constexpr int kGroupMaxBlocks = kPackedQ4_KMaxBlocks; // RowGroup's capacity (kernels.h)
struct RowGroup
{
    __m256i isum[kGroupMaxBlocks][8];
    __m128i imin[kGroupMaxBlocks][8];
    alignas(16) uint16_t d[kGroupMaxBlocks][8], dmin[kGroupMaxBlocks][8];
};

// Rows n-7 of g empty (zero): their sums are not written out.
inline void clearRows(RowGroup& g, int n, int blocks)
{
    for (int b = 0; b < blocks; ++b)
        for (int r = n; r < 8; ++r) {
            g.isum[b][r] = _mm256_setzero_si256();
            g.imin[b][r] = _mm_setzero_si128();
            g.d[b][r] = g.dmin[b][r] = 0;
        }
}

// Fills g from n (1-8) Q4_K or Q5_K rows, row by row through their memory (one stream for the hardware
// prefetcher); rows n-7 are empty (zero), their sums not to be written out. lanes(block, scales, b): the integer
// lanes of super-block b of a row.
template <typename Block, typename Lanes>
inline void gatherRows(const uint8_t* rows, size_t rowBytes, int n, const __m128i* sums32, int blocks, RowGroup& g,
                       Lanes lanes)
{
    for (int r = 0; r < n; ++r) {
        const auto* w = reinterpret_cast<const Block*>(rows + rowBytes * size_t(r));
        for (int b = 0; b < blocks; ++b) {
            simd::streamAhead(w + b, 3);
            const __m256i s = q4Scales(w[b].scales);
            g.imin[b][r] = _mm_madd_epi16(minimums16(s), sums32[b]);
            g.isum[b][r] = lanes(w[b], s, b);
            g.d[b][r] = w[b].d;
            g.dmin[b][r] = w[b].dmin;
        }
    }
    clearRows(g, n, blocks);
}

// The lanes of a plain Q4_K or Q5_K block (ggml's layout) against activation x.
inline auto plainLanes(const BlockQ8_K* x)
{
    return [x](const auto& w, __m256i s, int b) {
        if constexpr (std::is_same_v<std::decay_t<decltype(w)>, BlockQ5_K>)
            return q45Lanes(w.qs, w.qh, s, x[b].qs);
        else
            return q45Lanes(w.qs, nullptr, s, x[b].qs);
    };
}

// The float steps of up to eight interleaved Q4_K rows from their gathered integers (llama.cpp's 8-row kernel):
// block by block the rows' exact totals reduced together and accumulated in order, one lane per row.
inline void finishQ4Group(const RowGroup& g, const BlockQ8_K* x, int blocks, int n, float* out)
{
    __m256 acc = _mm256_setzero_ps();
    __m256 accMin = _mm256_setzero_ps();
    for (int b = 0; b < blocks; ++b) {
        const __m256 xd = _mm256_set1_ps(x[b].d);
        const __m256 scale =
            _mm256_mul_ps(_mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(g.d[b]))), xd);
        const __m256 scaleMin =
            _mm256_mul_ps(_mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(g.dmin[b]))), xd);
        acc = _mm256_fmadd_ps(_mm256_cvtepi32_ps(hsumRows8(g.isum[b])), scale, acc);
        accMin = _mm256_fmadd_ps(_mm256_cvtepi32_ps(hsumRows8x4(g.imin[b])), scaleMin, accMin);
    }
    alignas(32) float rows[8];
    _mm256_store_ps(rows, _mm256_sub_ps(acc, accMin));
    std::copy(rows, rows + n, out);
}

// Eight rows of an interleaved Q4_K matrix (IsaKernels::q4_KInterleaved8): each block's integers kept row by row, then
// block by block the eight rows' sums reduced together and accumulated in order.
inline void q4Interleaved8(const uint8_t* rows, size_t rowBytes, const BlockQ8_K* x, int blocks, float* out)
{
    if (blocks > kGroupMaxBlocks) {
        for (int r = 0; r < 8; ++r)
            out[r] = dotQ4_K(reinterpret_cast<const BlockQ4_K*>(rows + rowBytes * size_t(r)), x, blocks, true);
        return;
    }
    __m128i sums32[kGroupMaxBlocks];
    for (int b = 0; b < blocks; ++b)
        sums32[b] = bsums32(x[b]);
    RowGroup g;
    gatherRows<BlockQ4_K>(rows, rowBytes, 8, sums32, blocks, g, plainLanes(x));
    finishQ4Group(g, x, blocks, 8, out);
}

// A packed Q4_K super-block (packQ4_KBlocks: lane k of each 32-byte vector holds sub-block k) against its
// activation permuted alike (permuteQ8_KForPackedQ4_K): 8 lanes whose sum is the block's exact integer
// sum(scale[k] * q[k].y[k]), the only integer the interleaved kernel's floats see. Each lane sums one
// sub-block, so one multiply by the eight scales ends it: no scale is broadcast per sub-block, and VNNI's
// vpdpbusd takes the unsigned 4-bit values as they are.
inline __m256i q4PackedLanes(const uint8_t* qs, __m256i s, const int8_t* y)
{
    const __m256i m4 = _mm256_set1_epi8(15);
    auto act = [y](int v) { return _mm256_load_si256(reinterpret_cast<const __m256i*>(y + 32 * v)); };
#if WS_KQUANT_VNNI
    __m256i t = _mm256_setzero_si256();
    for (int j = 0; j < 4; ++j) {
        const __m256i bits = simd::loadOnce(qs + 32 * j);
        t = _mm256_dpbusd_epi32(t, _mm256_and_si256(bits, m4), act(2 * j));
        t = _mm256_dpbusd_epi32(t, _mm256_and_si256(_mm256_srli_epi16(bits, 4), m4), act(2 * j + 1));
    }
#else
    // 16-bit sums first: each is at most 8 vectors x 2 products x 15 x 128 = 30720, no saturation.
    __m256i a = _mm256_setzero_si256();
    for (int j = 0; j < 4; ++j) {
        const __m256i bits = simd::loadOnce(qs + 32 * j);
        a = _mm256_add_epi16(a, _mm256_maddubs_epi16(_mm256_and_si256(bits, m4), act(2 * j)));
        a = _mm256_add_epi16(a, _mm256_maddubs_epi16(_mm256_and_si256(_mm256_srli_epi16(bits, 4), m4), act(2 * j + 1)));
    }
    const __m256i t = _mm256_madd_epi16(a, _mm256_set1_epi16(1));
#endif
    return _mm256_mullo_epi32(t, _mm256_cvtepu8_epi32(_mm256_castsi256_si128(s)));
}

// rowCount packed Q4_K rows (blocks <= kGroupMaxBlocks), each equal bit for bit to q4Interleaved8 on the rows
// before packing: eight at a time (the last group may be shorter; its rows' lanes are independent).
inline void q4PackedRows(const uint8_t* rows, size_t rowBytes, int rowCount, const BlockQ8_K* xp, int blocks,
                         float* out)
{
    __m128i sums32[kGroupMaxBlocks];
    for (int b = 0; b < blocks; ++b)
        sums32[b] = bsums32(xp[b]); // the permutation keeps the block sums
    const auto lanes = [xp](const BlockQ4_K& w, __m256i s, int b) { return q4PackedLanes(w.qs, s, xp[b].qs); };
    RowGroup g;
    int r0 = 0;
    for (; r0 + 8 <= rowCount; r0 += 8) {
        gatherRows<BlockQ4_K>(rows + rowBytes * size_t(r0), rowBytes, 8, sums32, blocks, g, lanes);
        finishQ4Group(g, xp, blocks, 8, out + r0);
    }
    if (r0 < rowCount) {
        gatherRows<BlockQ4_K>(rows + rowBytes * size_t(r0), rowBytes, rowCount - r0, sums32, blocks, g, lanes);
        finishQ4Group(g, xp, blocks, rowCount - r0, out + r0);
    }
}

// rowCount Q5_K rows, each equal to q5Row bit for bit. Eight rows at a time: each block's integer lanes, minimum
// products and F16 scales are kept, then the per-block float steps of the eight rows are done together (the
// scales converted and multiplied eight at a time, the minimums' sums accumulated in eight lanes, one lane per
// row: each lane the same operations, in the same order, as one row alone).
inline void q5Rows(const uint8_t* rows, size_t rowBytes, int rowCount, const BlockQ8_K* x, int blocks, float* out)
{
    if (blocks > kGroupMaxBlocks) {
        for (int r = 0; r < rowCount; ++r)
            out[r] = q5Row(reinterpret_cast<const BlockQ5_K*>(rows + rowBytes * size_t(r)), x, nullptr, blocks);
        return;
    }
    __m128i sums32[kGroupMaxBlocks];
    for (int b = 0; b < blocks; ++b)
        sums32[b] = bsums32(x[b]);
    RowGroup g;
    for (int r0 = 0; r0 < rowCount; r0 += 8) {
        const int n = std::min(8, rowCount - r0);
        gatherRows<BlockQ5_K>(rows + rowBytes * size_t(r0), rowBytes, n, sums32, blocks, g, plainLanes(x));
        __m256 acc[8];
        for (auto& a : acc)
            a = _mm256_setzero_ps();
        __m256 summs = _mm256_setzero_ps();
        for (int b = 0; b < blocks; ++b) {
            // As q5Row: d = x.d * d(w), dmin = -x.d * dmin(w), summs = fma(dmin, imin, summs), per row.
            alignas(32) float scale[8];
            _mm256_store_ps(scale,
                            _mm256_mul_ps(_mm256_set1_ps(x[b].d),
                                          _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(g.d[b])))));
            const __m256 scaleMin = _mm256_mul_ps(
                _mm256_set1_ps(-x[b].d), _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(g.dmin[b]))));
            summs = _mm256_fmadd_ps(scaleMin, _mm256_cvtepi32_ps(hsumRows8x4(g.imin[b])), summs);
            for (int r = 0; r < 8; ++r)
                acc[r] = _mm256_fmadd_ps(_mm256_set1_ps(scale[r]), _mm256_cvtepi32_ps(g.isum[b][r]), acc[r]);
        }
        alignas(32) float mins[8];
        _mm256_store_ps(mins, summs);
        for (int r = 0; r < n; ++r)
            out[r0 + r] = simd::hsum8(acc[r]) + mins[r];
    }
}

} // namespace

} // namespace ws::kernels
