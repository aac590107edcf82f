#include "engine/decode/kernels.h"

#include "engine/decode/simd.h"

#include <cmath>

namespace ws::kernels {

namespace {

// Four accumulators reduced pairwise, then within the vector with two horizontal adds (GGML_F32x8_REDUCE).
float reduce4(__m256 s0, __m256 s1, __m256 s2, __m256 s3)
{
    s0 = _mm256_add_ps(s0, s2);
    s1 = _mm256_add_ps(s1, s3);
    s0 = _mm256_add_ps(s0, s1);
    const __m128 t0 = _mm_add_ps(_mm256_castps256_ps128(s0), _mm256_extractf128_ps(s0, 1));
    const __m128 t1 = _mm_hadd_ps(t0, t0);
    return _mm_cvtss_f32(_mm_hadd_ps(t1, t1));
}

__m256 loadF16(const uint16_t* p) { return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))); }

__m256 loadBf16(const uint16_t* p)
{
    const __m256i w = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    return _mm256_castsi256_ps(_mm256_slli_epi32(w, 16));
}

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

inline int nearestInt(float f)
{
    // Round to nearest even through the float mantissa (valid for |f| < 2^22), as ggml's nearest_int.
    float v = f + 12582912.f;
    int i;
    std::memcpy(&i, &v, 4);
    return (i & 0x007fffff) - 0x00400000;
}

inline void scaleMinK4(int j, const uint8_t* q, uint8_t& d, uint8_t& m)
{
    if (j < 4) {
        d = q[j] & 63;
        m = q[j + 4] & 63;
    } else {
        d = (q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4);
        m = (q[j + 4] >> 4) | ((q[j - 0] >> 6) << 4);
    }
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

void quantizeRowQ8_K(const float* x, BlockQ8_K* y, int n)
{
    for (int b = 0; b < n / kKQuantValues; ++b, x += kKQuantValues) {
        float maxValue = 0;
        float amax = 0;
        for (int j = 0; j < kKQuantValues; ++j) {
            const float ax = std::fabs(x[j]);
            if (ax > amax) {
                amax = ax;
                maxValue = x[j];
            }
        }
        if (amax == 0.0f) {
            y[b].d = 0;
            std::memset(y[b].qs, 0, sizeof(y[b].qs));
            std::memset(y[b].bsums, 0, sizeof(y[b].bsums));
            continue;
        }
        const float iscale = -127.f / maxValue;
        for (int j = 0; j < kKQuantValues; ++j) {
            const int v = nearestInt(iscale * x[j]);
            y[b].qs[j] = static_cast<int8_t>(v < 127 ? v : 127);
        }
        for (int j = 0; j < kKQuantValues / 16; ++j) {
            int sum = 0;
            for (int i = 0; i < 16; ++i)
                sum += y[b].qs[j * 16 + i];
            y[b].bsums[j] = static_cast<int16_t>(sum);
        }
        y[b].d = 1 / iscale;
    }
}

void convertRowF16(const float* x, uint16_t* y, int n)
{
    int i = 0;
    for (; i + 8 <= n; i += 8)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i),
                         _mm256_cvtps_ph(_mm256_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT));
    for (; i < n; ++i)
        y[i] = simd::toF16(x[i]);
}

void convertRowBf16(const float* x, uint16_t* y, int n)
{
    for (int i = 0; i < n; ++i)
        y[i] = f32ToBf16(x[i]);
}

float dotF32Lanes(const float* a, const float* b, int n)
{
    __m256 acc = _mm256_setzero_ps();
    for (int i = 0; i < n; i += 8)
        acc = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), acc);
    return simd::hsum8(acc);
}

float dotF32Ggml(const float* a, const float* b, int n)
{
    const int np = n & ~31;
    __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
    for (int i = 0; i < np; i += 32) {
        s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), s0);
        s1 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i + 8), _mm256_loadu_ps(b + i + 8), s1);
        s2 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i + 16), _mm256_loadu_ps(b + i + 16), s2);
        s3 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i + 24), _mm256_loadu_ps(b + i + 24), s3);
    }
    float sum = reduce4(s0, s1, s2, s3);
    // The leftover loop as GCC 12 -O3 compiles ggml's `sumf += x[i]*y[i]`: groups of four products
    // (rounded) added in order, then a fused multiply-add for the last n % 4 (this file is built
    // with -ffp-contract=off, so every rounding here is explicit).
    int i = np;
    for (; i + 4 <= n; i += 4) {
        const float p0 = a[i] * b[i], p1 = a[i + 1] * b[i + 1], p2 = a[i + 2] * b[i + 2], p3 = a[i + 3] * b[i + 3];
        sum = (((sum + p0) + p1) + p2) + p3;
    }
    for (; i < n; ++i)
        sum = std::fma(a[i], b[i], sum);
    return sum;
}

float dotF16Lanes(const uint16_t* a, const uint16_t* b, int n)
{
    __m256 acc = _mm256_setzero_ps();
    for (int i = 0; i < n; i += 8)
        acc = _mm256_fmadd_ps(loadF16(a + i), loadF16(b + i), acc);
    return simd::hsum8(acc);
}

float dotF16Ggml(const uint16_t* a, const uint16_t* b, int n)
{
    const int np = n & ~31;
    __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
    for (int i = 0; i < np; i += 32) {
        s0 = _mm256_fmadd_ps(loadF16(a + i), loadF16(b + i), s0);
        s1 = _mm256_fmadd_ps(loadF16(a + i + 8), loadF16(b + i + 8), s1);
        s2 = _mm256_fmadd_ps(loadF16(a + i + 16), loadF16(b + i + 16), s2);
        s3 = _mm256_fmadd_ps(loadF16(a + i + 24), loadF16(b + i + 24), s3);
    }
    double sum = reduce4(s0, s1, s2, s3);
    for (int i = np; i < n; ++i)
        sum += static_cast<double>(simd::f16(a[i]) * simd::f16(b[i]));
    return static_cast<float>(sum);
}

float dotBf16(const uint16_t* a, const uint16_t* b, int n)
{
    int i = 0;
    double sum = 0;
    __m256 c1 = _mm256_setzero_ps(), c2 = c1, c3 = c1, c4 = c1;
    for (; i + 32 <= n; i += 32) {
        c1 = _mm256_add_ps(_mm256_mul_ps(loadBf16(a + i), loadBf16(b + i)), c1);
        c2 = _mm256_add_ps(_mm256_mul_ps(loadBf16(a + i + 8), loadBf16(b + i + 8)), c2);
        c3 = _mm256_add_ps(_mm256_mul_ps(loadBf16(a + i + 16), loadBf16(b + i + 16)), c3);
        c4 = _mm256_add_ps(_mm256_mul_ps(loadBf16(a + i + 24), loadBf16(b + i + 24)), c4);
    }
    c1 = _mm256_add_ps(_mm256_add_ps(c1, c3), _mm256_add_ps(c2, c4));
    sum += simd::hsum8(c1);
    for (; i < n; ++i)
        sum += static_cast<double>(bf16ToF32(a[i]) * bf16ToF32(b[i]));
    return static_cast<float>(sum);
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

// K-quants: exact integer sums per sub-block, scaled per super-block in float.
// (No llama.cpp reference exists for these in shared/models; agreement with the
// dequantised F32 product is tested instead.)
float dotQ4_K(const BlockQ4_K* w, const BlockQ8_K* x, int blocks)
{
    float sum = 0;
    for (int b = 0; b < blocks; ++b) {
        const uint8_t* q4 = w[b].qs;
        const int8_t* q8 = x[b].qs;
        int32_t sumQ = 0;
        int32_t sumMin = 0;
        for (int j = 0; j < 4; ++j) {
            uint8_t sc1, m1, sc2, m2;
            scaleMinK4(2 * j, w[b].scales, sc1, m1);
            scaleMinK4(2 * j + 1, w[b].scales, sc2, m2);
            int32_t lo = 0, hi = 0;
            for (int l = 0; l < 32; ++l) {
                lo += (q4[l] & 0xF) * q8[l];
                hi += (q4[l] >> 4) * q8[l + 32];
            }
            sumQ += sc1 * lo + sc2 * hi;
            sumMin += m1 * (x[b].bsums[4 * j] + x[b].bsums[4 * j + 1]) + m2 * (x[b].bsums[4 * j + 2] + x[b].bsums[4 * j + 3]);
            q4 += 32;
            q8 += 64;
        }
        sum += simd::f16(w[b].d) * x[b].d * static_cast<float>(sumQ) -
               simd::f16(w[b].dmin) * x[b].d * static_cast<float>(sumMin);
    }
    return sum;
}

float dotQ6_K(const BlockQ6_K* w, const BlockQ8_K* x, int blocks)
{
    float sum = 0;
    for (int b = 0; b < blocks; ++b) {
        const uint8_t* ql = w[b].ql;
        const uint8_t* qh = w[b].qh;
        const int8_t* sc = w[b].scales;
        const int8_t* q8 = x[b].qs;
        int32_t sumQ = 0;
        for (int half = 0; half < 2; ++half) {
            int32_t part[8] = {};
            for (int l = 0; l < 32; ++l) {
                const int is = l / 16;
                const int q1 = ((ql[l] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32;
                const int q2 = ((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32;
                const int q3 = ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
                const int q4 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
                part[is + 0] += q1 * q8[l];
                part[is + 2] += q2 * q8[l + 32];
                part[is + 4] += q3 * q8[l + 64];
                part[is + 6] += q4 * q8[l + 96];
            }
            for (int k = 0; k < 8; ++k)
                sumQ += sc[k] * part[k];
            ql += 64;
            qh += 32;
            sc += 8;
            q8 += 128;
        }
        sum += simd::f16(w[b].d) * x[b].d * static_cast<float>(sumQ);
    }
    return sum;
}

void dequantizeRow(GgmlType type, const uint8_t* src, float* dst, int n)
{
    switch (type) {
    case GgmlType::F32: std::memcpy(dst, src, sizeof(float) * static_cast<size_t>(n)); return;
    case GgmlType::F16: {
        const auto* h = reinterpret_cast<const uint16_t*>(src);
        for (int i = 0; i < n; ++i)
            dst[i] = simd::f16(h[i]);
        return;
    }
    case GgmlType::BF16: {
        const auto* h = reinterpret_cast<const uint16_t*>(src);
        for (int i = 0; i < n; ++i)
            dst[i] = bf16ToF32(h[i]);
        return;
    }
    case GgmlType::Q8_0: {
        const auto* b = reinterpret_cast<const BlockQ8_0*>(src);
        for (int i = 0; i < n / 32; ++i) {
            const float d = simd::f16(b[i].d);
            for (int j = 0; j < 32; ++j)
                dst[i * 32 + j] = static_cast<float>(b[i].qs[j]) * d;
        }
        return;
    }
    case GgmlType::Q4_0: {
        const auto* b = reinterpret_cast<const BlockQ4_0*>(src);
        for (int i = 0; i < n / 32; ++i) {
            const float d = simd::f16(b[i].d);
            for (int j = 0; j < 16; ++j) {
                dst[i * 32 + j] = static_cast<float>((b[i].qs[j] & 0x0F) - 8) * d;
                dst[i * 32 + j + 16] = static_cast<float>((b[i].qs[j] >> 4) - 8) * d;
            }
        }
        return;
    }
    case GgmlType::Q4_K: {
        const auto* b = reinterpret_cast<const BlockQ4_K*>(src);
        for (int i = 0; i < n / 256; ++i) {
            const float d = simd::f16(b[i].d);
            const float dmin = simd::f16(b[i].dmin);
            const uint8_t* q = b[i].qs;
            float* y = dst + i * 256;
            for (int j = 0; j < 4; ++j) {
                uint8_t sc, m;
                scaleMinK4(2 * j, b[i].scales, sc, m);
                const float d1 = d * sc, m1 = dmin * m;
                scaleMinK4(2 * j + 1, b[i].scales, sc, m);
                const float d2 = d * sc, m2 = dmin * m;
                for (int l = 0; l < 32; ++l)
                    *y++ = d1 * static_cast<float>(q[l] & 0xF) - m1;
                for (int l = 0; l < 32; ++l)
                    *y++ = d2 * static_cast<float>(q[l] >> 4) - m2;
                q += 32;
            }
        }
        return;
    }
    case GgmlType::Q6_K: {
        const auto* b = reinterpret_cast<const BlockQ6_K*>(src);
        for (int i = 0; i < n / 256; ++i) {
            const float d = simd::f16(b[i].d);
            const uint8_t* ql = b[i].ql;
            const uint8_t* qh = b[i].qh;
            const int8_t* sc = b[i].scales;
            float* y = dst + i * 256;
            for (int half = 0; half < 2; ++half) {
                for (int l = 0; l < 32; ++l) {
                    const int is = l / 16;
                    const int q1 = ((ql[l] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32;
                    const int q2 = ((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32;
                    const int q3 = ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
                    const int q4 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
                    y[l + 0] = d * sc[is + 0] * static_cast<float>(q1);
                    y[l + 32] = d * sc[is + 2] * static_cast<float>(q2);
                    y[l + 64] = d * sc[is + 4] * static_cast<float>(q3);
                    y[l + 96] = d * sc[is + 6] * static_cast<float>(q4);
                }
                y += 128;
                ql += 64;
                qh += 32;
                sc += 8;
            }
        }
        return;
    }
    }
}

void expRow(const float* x, float* y, int n)
{
    for (int i = 0; i + 8 <= n; i += 8)
        _mm256_storeu_ps(y + i, simd::exp8(_mm256_loadu_ps(x + i)));
}

void siluRow(float* x, int n)
{
    int i = 0;
    const __m256 one = _mm256_set1_ps(1.0f);
    for (; i + 8 <= n; i += 8) {
        const __m256 v = _mm256_loadu_ps(x + i);
        const __m256 e = simd::exp8(_mm256_sub_ps(_mm256_setzero_ps(), v));
        _mm256_storeu_ps(x + i, _mm256_div_ps(v, _mm256_add_ps(one, e)));
    }
    for (; i < n; ++i)
        x[i] = x[i] / (1.0f + std::exp(-x[i]));
}

void rmsNormRow(const float* x, const float* weight, float* out, int n, float eps)
{
    double sum = 0.0;
    for (int i = 0; i < n; ++i)
        sum += static_cast<double>(x[i] * x[i]);
    const float mean = static_cast<float>(sum / n);
    const float scale = 1.0f / std::sqrt(mean + eps);
    for (int i = 0; i < n; ++i)
        out[i] = (x[i] * scale) * weight[i];
}

} // namespace ws::kernels

namespace ws {
float f16ToF32(uint16_t h) { return simd::f16(h); }
uint16_t f32ToF16(float f) { return simd::toF16(f); }
} // namespace ws
