// Q6_K (256-value super-blocks of 6-bit values, 16 signed 8-bit scales) dotted with the Q8_K activation, and
// its decoding. The dot product follows ggml's AVX2 arithmetic (ggml_vec_dot_q6_K_q8_K): per super-block,
// exact int32 sums in 8 lanes (lane j holds the values whose index modulo 32 lies in [4j, 4j + 4)), each
// 16-bit pair product being maddubs(q, y) - maddubs(32, y) times the group's scale, scaled into one 8-lane FMA
// accumulator by the product of the two super-block scales and summed in ggml's lane order. The integer
// steps are exact, so how they are arranged does not change a bit of the result: the rows kernel computes
// the activation's share maddubs(32, y) once for all its rows instead of once per row.
#include "engine/decode/kernels.h"

#include "engine/decode/simd.h"

#include <algorithm>

namespace ws::kernels {

namespace {

// pshufb masks on the eight 16-bit scales of a half super-block (in both 128-bit lanes): scale 2k in every
// 16-bit position of the low lane, scale 2k + 1 in the high lane (the two 16-value groups of 32 bytes).
alignas(32) constexpr uint8_t kScalePair16[4][32] = {
#define WS_LANE(i) 2 * (i), 2 * (i) + 1, 2 * (i), 2 * (i) + 1, 2 * (i), 2 * (i) + 1, 2 * (i), 2 * (i) + 1, \
    2 * (i), 2 * (i) + 1, 2 * (i), 2 * (i) + 1, 2 * (i), 2 * (i) + 1, 2 * (i), 2 * (i) + 1
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

// Bits 2k and 2k + 1 of every byte moved to bits 4 and 5 by one 16-bit shift: the bits a shift of at most 4
// brings over from the neighbouring byte land outside bits 4 and 5, which the mask keeps.
template <int k>
inline __m256i highBits(__m256i qh)
{
    const __m256i m = _mm256_set1_epi8(0x30);
    if constexpr (k < 2)
        return _mm256_and_si256(_mm256_slli_epi16(qh, 4 - 2 * k), m);
    else if constexpr (k == 2)
        return _mm256_and_si256(qh, m);
    else
        return _mm256_and_si256(_mm256_srli_epi16(qh, 2), m);
}

template <int k>
inline __m256i q6Group(__m256i low, __m256i qh, __m256i scales, const int8_t* q8, __m256i offset)
{
    const __m256i q = _mm256_or_si256(low, highBits<k>(qh));
    const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q8 + 32 * k));
    const __m256i p = _mm256_sub_epi16(_mm256_maddubs_epi16(q, y), offset);
    const __m256i s = _mm256_shuffle_epi8(scales, _mm256_load_si256(reinterpret_cast<const __m256i*>(kScalePair16[k])));
    return _mm256_madd_epi16(p, s);
}

// The integer lanes of one super-block against its activation, given the activation's offsets.
inline __m256i q6Lanes(const BlockQ6_K& w, const int8_t* q8, const __m256i* offsets)
{
    const __m256i m4 = _mm256_set1_epi8(15);
    const __m256i scales16 = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w.scales)));
    __m256i sumi = _mm256_setzero_si256();
    for (int h = 0; h < 2; ++h) {
        const auto* ql = reinterpret_cast<const __m256i*>(w.ql + 64 * h);
        const __m256i ql0 = _mm256_loadu_si256(ql);
        const __m256i ql1 = _mm256_loadu_si256(ql + 1);
        const __m256i qh = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w.qh + 32 * h));
        const __m256i scales = h == 0 ? _mm256_permute2x128_si256(scales16, scales16, 0x00)
                                      : _mm256_permute2x128_si256(scales16, scales16, 0x11);
        const int8_t* y = q8 + 128 * h;
        const __m256i* off = offsets + 4 * h;
        const __m256i s0 = q6Group<0>(_mm256_and_si256(ql0, m4), qh, scales, y, off[0]);
        const __m256i s1 = q6Group<1>(_mm256_and_si256(ql1, m4), qh, scales, y, off[1]);
        const __m256i s2 = q6Group<2>(_mm256_and_si256(_mm256_srli_epi16(ql0, 4), m4), qh, scales, y, off[2]);
        const __m256i s3 = q6Group<3>(_mm256_and_si256(_mm256_srli_epi16(ql1, 4), m4), qh, scales, y, off[3]);
        sumi = _mm256_add_epi32(sumi, _mm256_add_epi32(_mm256_add_epi32(s0, s1), _mm256_add_epi32(s2, s3)));
    }
    return sumi;
}

} // namespace

float dotQ6_K(const BlockQ6_K* w, const BlockQ8_K* x, int blocks)
{
    __m256 acc = _mm256_setzero_ps();
    for (int b = 0; b < blocks; ++b) {
        simd::prefetchAhead(w + b, 4);
        __m256i offsets[8];
        q6Offsets(x[b], offsets);
        const float d = x[b].d * simd::f16(w[b].d);
        acc = _mm256_fmadd_ps(_mm256_set1_ps(d), _mm256_cvtepi32_ps(q6Lanes(w[b], x[b].qs, offsets)), acc);
    }
    return simd::hsum8(acc);
}

void dotQ6_KRows(const uint8_t* rows, size_t rowBytes, int rowCount, const BlockQ8_K* x, int blocks, float* out)
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
            simd::prefetchAhead(w + b, 4);
            const float d = x[b].d * simd::f16(w[b].d);
            acc = _mm256_fmadd_ps(_mm256_set1_ps(d), _mm256_cvtepi32_ps(q6Lanes(w[b], x[b].qs, offsets[b])), acc);
        }
        out[r] = simd::hsum8(acc);
    }
}

namespace {

// The four 6-bit values of a Q6_K half-block at position l (of 32), each minus 32: for
// the value groups l, l + 32, l + 64 and l + 96.
struct Q6Values
{
    int q1, q2, q3, q4;
};

inline Q6Values q6Values(const uint8_t* ql, const uint8_t* qh, int l)
{
    return {((ql[l] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32, ((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32,
            ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32, ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32};
}


} // namespace

void dequantizeRowQ6_K(const BlockQ6_K* b, float* dst, int n)
{
    for (int i = 0; i < n / 256; ++i) {
        const float d = simd::f16(b[i].d);
        const uint8_t* ql = b[i].ql;
        const uint8_t* qh = b[i].qh;
        const int8_t* sc = b[i].scales;
        float* y = dst + i * 256;
        for (int half = 0; half < 2; ++half) {
            for (int l = 0; l < 32; ++l) {
                const int is = l / 16;
                const Q6Values q = q6Values(ql, qh, l);
                y[l + 0] = d * sc[is + 0] * static_cast<float>(q.q1);
                y[l + 32] = d * sc[is + 2] * static_cast<float>(q.q2);
                y[l + 64] = d * sc[is + 4] * static_cast<float>(q.q3);
                y[l + 96] = d * sc[is + 6] * static_cast<float>(q.q4);
            }
            y += 128;
            ql += 64;
            qh += 32;
            sc += 8;
        }
    }
}

} // namespace ws::kernels
