// Kernels for the 32-value block quantisations with one F16 scale per block (ggml's legacy quants:
// Q8_0, Q4_0), dotted with the activation quantised to Q8_0.
#include "engine/decode/kernels.h"

#include "engine/decode/simd.h"

#include <cmath>
#include <cstring>

namespace ws::kernels {

namespace {

// How far ahead of the current block quantised weights are prefetched.
constexpr int kPrefetchBytes = 4096;

// Sum over 32 int8 pairs, as 8 int32 lanes (each the sum of 4 adjacent products), converted to float.
inline __m256 dotI8Lanes(__m256i x, __m256i y)
{
    const __m256i ax = _mm256_sign_epi8(x, x);
    const __m256i sy = _mm256_sign_epi8(y, x);
    const __m256i dot16 = _mm256_maddubs_epi16(ax, sy);
    return _mm256_cvtepi32_ps(_mm256_madd_epi16(_mm256_set1_epi16(1), dot16));
}

inline __m256i unpackQ4_0(const uint8_t* qs)
{
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(qs));
    const __m256i both = _mm256_insertf128_si256(_mm256_castsi128_si256(x), _mm_srli_epi16(x, 4), 1);
    return _mm256_sub_epi8(_mm256_and_si256(both, _mm256_set1_epi8(15)), _mm256_set1_epi8(8));
}

} // namespace

void quantizeRowQ8_0(const float* x, BlockQ8_0* y, int n)
{
    const __m256 signBit = _mm256_set1_ps(-0.0f);
    for (int b = 0; b < n / kQ8_0Values; ++b, x += 32) {
        __m256 v0 = _mm256_loadu_ps(x);
        __m256 v1 = _mm256_loadu_ps(x + 8);
        __m256 v2 = _mm256_loadu_ps(x + 16);
        __m256 v3 = _mm256_loadu_ps(x + 24);
        __m256 amax = _mm256_max_ps(_mm256_andnot_ps(signBit, v0), _mm256_andnot_ps(signBit, v1));
        amax = _mm256_max_ps(amax, _mm256_andnot_ps(signBit, v2));
        amax = _mm256_max_ps(amax, _mm256_andnot_ps(signBit, v3));
        __m128 m4 = _mm_max_ps(_mm256_extractf128_ps(amax, 1), _mm256_castps256_ps128(amax));
        m4 = _mm_max_ps(m4, _mm_movehl_ps(m4, m4));
        m4 = _mm_max_ss(m4, _mm_movehdup_ps(m4));
        const float maxAbs = _mm_cvtss_f32(m4);
        y[b].d = simd::toF16(maxAbs / 127.f);
        const __m256 mul = _mm256_set1_ps(maxAbs != 0.0f ? 127.f / maxAbs : 0.0f);
        // Round to nearest, ties to even (the AVX2 build; the scalar reference uses roundf).
        constexpr int kRound = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
        __m256i i0 = _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v0, mul), kRound));
        __m256i i1 = _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v1, mul), kRound));
        __m256i i2 = _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v2, mul), kRound));
        __m256i i3 = _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v3, mul), kRound));
        i0 = _mm256_packs_epi32(i0, i1);
        i2 = _mm256_packs_epi32(i2, i3);
        i0 = _mm256_packs_epi16(i0, i2);
        i0 = _mm256_permutevar8x32_epi32(i0, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(y[b].qs), i0);
    }
}

float dotQ8_0(const BlockQ8_0* w, const BlockQ8_0* x, int blocks)
{
    __m256 acc = _mm256_setzero_ps();
    for (int b = 0; b < blocks; ++b) {
        // Weights come from a file mapping in 4 KiB pages, where the hardware
        // prefetcher stops at every page boundary; prefetching a few pages
        // ahead in software keeps the stream going. (No effect on the result.)
        if ((b & 1) == 0)
            _mm_prefetch(reinterpret_cast<const char*>(w + b) + kPrefetchBytes, _MM_HINT_T0);
        const __m256 d = _mm256_set1_ps(simd::f16(w[b].d) * simd::f16(x[b].d));
        const __m256i qw = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w[b].qs));
        const __m256i qx = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[b].qs));
        acc = _mm256_fmadd_ps(d, dotI8Lanes(qw, qx), acc);
    }
    return simd::hsum8(acc);
}

float dotQ4_0(const BlockQ4_0* w, const BlockQ8_0* x, int blocks)
{
    __m256 acc = _mm256_setzero_ps();
    for (int b = 0; b < blocks; ++b) {
        if ((b & 3) == 0) // 4 blocks of 18 bytes span about one cache line
            _mm_prefetch(reinterpret_cast<const char*>(w + b) + kPrefetchBytes, _MM_HINT_T0);
        const __m256 d = _mm256_set1_ps(simd::f16(w[b].d) * simd::f16(x[b].d));
        const __m256i qw = unpackQ4_0(w[b].qs);
        const __m256i qx = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[b].qs));
        acc = _mm256_fmadd_ps(d, dotI8Lanes(qw, qx), acc);
    }
    return simd::hsum8(acc);
}

void dequantizeRowQ8_0(const BlockQ8_0* b, float* dst, int n)
{
    for (int i = 0; i < n / 32; ++i) {
        const float d = simd::f16(b[i].d);
        for (int j = 0; j < 32; ++j)
            dst[i * 32 + j] = static_cast<float>(b[i].qs[j]) * d;
    }
}

void dequantizeRowQ4_0(const BlockQ4_0* b, float* dst, int n)
{
    for (int i = 0; i < n / 32; ++i) {
        const float d = simd::f16(b[i].d);
        for (int j = 0; j < 16; ++j) {
            dst[i * 32 + j] = static_cast<float>((b[i].qs[j] & 0x0F) - 8) * d;
            dst[i * 32 + j + 16] = static_cast<float>((b[i].qs[j] >> 4) - 8) * d;
        }
    }
}

} // namespace ws::kernels
