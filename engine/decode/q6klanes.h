#pragma once
// The integer lanes of the Q6_K dot product (ggml's AVX2 lane layout, see q6kkernels.cpp), in a header so that one
// source is compiled for x86-64-v3 (q6kkernels.cpp) and for AVX-512 VL/BW/VNNI (blockkernels_avx512.cpp), where
// vpdpwssd adds each scaled pair product to the sum in one instruction and vpternlog merges the high bits under
// their mask in one: the same integers in every lane, so the same bits. Internal linkage, as kquantlanes.h.
#include "engine/decode/kernels.h"
#include "engine/decode/simd.h"

namespace ws::kernels {

namespace {

#if defined(__AVX512VNNI__) && defined(__AVX512VL__)
#define WS_Q6K_VNNI 1
#else
#define WS_Q6K_VNNI 0
#endif

// pshufb masks on the eight 16-bit scales of a half super-block (in both 128-bit lanes): scale 2k in every
// 16-bit position of the low lane, scale 2k + 1 in the high lane (the two 16-value groups of 32 bytes).
alignas(32) constexpr uint8_t kScalePair16[4][32] = {
#define WS_LANE(i)                                                                                                     \
    2 * (i), 2 * (i) + 1, 2 * (i), 2 * (i) + 1, 2 * (i), 2 * (i) + 1, 2 * (i), 2 * (i) + 1, 2 * (i), 2 * (i) + 1,      \
        2 * (i), 2 * (i) + 1, 2 * (i), 2 * (i) + 1, 2 * (i), 2 * (i) + 1
    {WS_LANE(0), WS_LANE(1)}, {WS_LANE(2), WS_LANE(3)}, {WS_LANE(4), WS_LANE(5)}, {WS_LANE(6), WS_LANE(7)}
#undef WS_LANE
};

// The activation's share of a super-block: maddubs(32, y) for each of its eight 32-byte groups.
inline void q6Offsets(const BlockQ8_K& x, __m256i* offsets)
{
    const __m256i m32 = _mm256_set1_epi8(32);
    for (int i = 0; i < 8; ++i)
        offsets[i] = _mm256_maddubs_epi16(m32, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x.qs + 32 * i)));
}

// Bits 2k and 2k + 1 of every byte moved to bits 4 and 5 by one 16-bit shift (not yet masked): the bits a shift of
// at most 4 brings over from the neighbouring byte land outside bits 4 and 5, which the mask keeps.
template <int k> inline __m256i highBitsShifted(__m256i qh)
{
    if constexpr (k < 2)
        return _mm256_slli_epi16(qh, 4 - 2 * k);
    else if constexpr (k == 2)
        return qh;
    else
        return _mm256_srli_epi16(qh, 2);
}

// One 32-byte group: its 6-bit values (low | masked high bits) times the activation, minus the activation's
// offset, times the group's scales, added to sum.
template <int k>
inline __m256i q6Group(__m256i sum, __m256i low, __m256i qh, __m256i scales, const int8_t* q8, __m256i offset)
{
    const __m256i mask = _mm256_set1_epi8(0x30);
#if WS_Q6K_VNNI
    const __m256i q = _mm256_ternarylogic_epi32(low, highBitsShifted<k>(qh), mask, 0xF8); // low | (high & mask)
#else
    const __m256i q = _mm256_or_si256(low, _mm256_and_si256(highBitsShifted<k>(qh), mask));
#endif
    const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q8 + 32 * k));
    const __m256i p = _mm256_sub_epi16(_mm256_maddubs_epi16(q, y), offset);
    const __m256i s = _mm256_shuffle_epi8(scales, _mm256_load_si256(reinterpret_cast<const __m256i*>(kScalePair16[k])));
#if WS_Q6K_VNNI
    return _mm256_dpwssd_epi32(sum, p, s);
#else
    return _mm256_add_epi32(sum, _mm256_madd_epi16(p, s));
#endif
}

// The integer lanes of one super-block against its activation, given the activation's offsets.
inline __m256i q6Lanes(const BlockQ6_K& w, const int8_t* q8, const __m256i* offsets)
{
    const __m256i m4 = _mm256_set1_epi8(15);
    const __m256i scales16 = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w.scales)));
    // Two sums (the groups of the low and of the high nibbles): shorter dependency chains, the same exact integers.
    __m256i sumLo = _mm256_setzero_si256(), sumHi = _mm256_setzero_si256();
    for (int h = 0; h < 2; ++h) {
        const auto* ql = reinterpret_cast<const __m256i*>(w.ql + 64 * h);
        const __m256i ql0 = simd::loadOnce(ql);
        const __m256i ql1 = simd::loadOnce(ql + 1);
        const __m256i qh = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w.qh + 32 * h));
        const __m256i scales = h == 0 ? _mm256_permute2x128_si256(scales16, scales16, 0x00)
                                      : _mm256_permute2x128_si256(scales16, scales16, 0x11);
        const int8_t* y = q8 + 128 * h;
        const __m256i* off = offsets + 4 * h;
        sumLo = q6Group<0>(sumLo, _mm256_and_si256(ql0, m4), qh, scales, y, off[0]);
        sumLo = q6Group<1>(sumLo, _mm256_and_si256(ql1, m4), qh, scales, y, off[1]);
        sumHi = q6Group<2>(sumHi, _mm256_and_si256(_mm256_srli_epi16(ql0, 4), m4), qh, scales, y, off[2]);
        sumHi = q6Group<3>(sumHi, _mm256_and_si256(_mm256_srli_epi16(ql1, 4), m4), qh, scales, y, off[3]);
    }
    return _mm256_add_epi32(sumLo, sumHi);
}

// rowCount Q6_K rows (rowBytes apart), each equal to dotQ6_K bit for bit: the activation's offsets are
// computed once for all the rows.
inline void q6Rows(const uint8_t* rows, size_t rowBytes, int rowCount, const BlockQ8_K* x, int blocks, float* out)
{
    constexpr int kMaxBlocks = 64;
    if (blocks > kMaxBlocks) {
        for (int r = 0; r < rowCount; ++r)
            out[r] = dotQ6_K(reinterpret_cast<const BlockQ6_K*>(rows + rowBytes * size_t(r)), x, blocks);
        return;
    }
    __m256i offsets[kMaxBlocks][8];
    for (int b = 0; b < blocks; ++b)
        q6Offsets(x[b], offsets[b]);
    for (int r = 0; r < rowCount; ++r) {
        const auto* w = reinterpret_cast<const BlockQ6_K*>(rows + rowBytes * size_t(r));
        __m256 acc = _mm256_setzero_ps();
        for (int b = 0; b < blocks; ++b) {
            simd::streamAhead(w + b, 4);
            const float d = x[b].d * simd::f16(w[b].d);
            acc = _mm256_fmadd_ps(_mm256_set1_ps(d), _mm256_cvtepi32_ps(q6Lanes(w[b], x[b].qs, offsets[b])), acc);
        }
        out[r] = simd::hsum8(acc);
    }
}

} // namespace

} // namespace ws::kernels
