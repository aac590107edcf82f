// Kernels for unquantised weights: F32, F16 and BF16 (conversion of the activation, dot products, decoding).
#include "engine/decode/kernels.h"

#include "engine/decode/simd.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace ws::kernels {

namespace {

__m256 loadF32(const float* p)
{
    return _mm256_loadu_ps(p);
}

__m256 loadF16(const uint16_t* p)
{
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

__m256 loadBf16(const uint16_t* p)
{
    const __m256i w = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    return _mm256_castsi256_ps(_mm256_slli_epi32(w, 16));
}

// tinyBLAS's order: one 8-lane FMA accumulator over the n values (a multiple of 8), reduced as hsum8.
template <typename T, typename Load> inline float dotLanes8(const T* a, const T* b, int n, Load load)
{
    __m256 acc = _mm256_setzero_ps();
    for (int i = 0; i < n; i += 8)
        acc = _mm256_fmadd_ps(load(a + i), load(b + i), acc);
    return simd::hsum8(acc);
}

// ggml_vec_dot's vector part over the first np values (a multiple of 32): four 8-lane FMA
// accumulators over steps of 32, reduced as GGML_F32x8_REDUCE.
template <typename T, typename Load> inline float dotSteps32(const T* a, const T* b, int np, Load load)
{
    __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
    for (int i = 0; i < np; i += 32) {
        s0 = _mm256_fmadd_ps(load(a + i), load(b + i), s0);
        s1 = _mm256_fmadd_ps(load(a + i + 8), load(b + i + 8), s1);
        s2 = _mm256_fmadd_ps(load(a + i + 16), load(b + i + 16), s2);
        s3 = _mm256_fmadd_ps(load(a + i + 24), load(b + i + 24), s3);
    }
    return simd::reduce4(s0, s1, s2, s3);
}

} // namespace

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
    return dotLanes8(a, b, n, loadF32);
}

float dotF32Ggml(const float* a, const float* b, int n)
{
    const int np = n & ~31;
    float sum = dotSteps32(a, b, np, loadF32);
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
    return dotLanes8(a, b, n, loadF16);
}

float dotF16Ggml(const uint16_t* a, const uint16_t* b, int n)
{
    const int np = n & ~31;
    double sum = dotSteps32(a, b, np, loadF16);
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

void dequantizeRowF16(const uint16_t* h, float* dst, int n)
{
    // Eight at a time (an F16 cache's value rows in attention, F16 embedding rows): the conversion is exact.
    int i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(dst + i, loadF16(h + i));
    for (; i < n; ++i)
        dst[i] = simd::f16(h[i]);
}

void dequantizeRowBf16(const uint16_t* h, float* dst, int n)
{
    for (int i = 0; i < n; ++i)
        dst[i] = bf16ToF32(h[i]);
}

void dotF32Block(const uint8_t* rows, size_t rowBytes, int rowCount, const float* x, int tokens, int n, float* out,
                 size_t outStride)
{
    isa().f32Block(rows, rowBytes, rowCount, x, tokens, n, out, outStride);
}

void dotF16Block(const uint8_t* rows, size_t rowBytes, int rowCount, const uint16_t* x, int tokens, int n, float* out,
                 size_t outStride)
{
    isa().f16Block(rows, rowBytes, rowCount, x, tokens, n, out, outStride);
}

} // namespace ws::kernels
