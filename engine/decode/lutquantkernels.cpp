// Kernels for the 4-bit look-up-table types (IQ4_NL and MXFP4 in 32-value blocks, dotted with the
// activation quantised to Q8_0; IQ4_XS in 256-value super-blocks, dotted with Q8_K), in ggml's AVX2
// arithmetic. IQ4_NL and MXFP4 rows that llama.cpp repacks into its 8-row interleaved layout
// (interleaved = true) are summed as that layout's kernel does: one exact integer per block, one
// FMA chain per row; otherwise two 8-lane accumulators for alternate blocks, as ggml's vec_dot.
#include "engine/decode/kernels.h"

#include "engine/decode/simd.h"

#include <cmath>

namespace ws::kernels {

namespace {

// The 32 table values of a block of 4-bit indices: low nibbles first, then high nibbles.
inline __m256i lookup32(const uint8_t* qs, __m128i table)
{
    const __m128i bits = _mm_loadu_si128(reinterpret_cast<const __m128i*>(qs));
    const __m128i m4 = _mm_set1_epi8(15);
    return _mm256_set_m128i(_mm_shuffle_epi8(table, _mm_and_si128(_mm_srli_epi16(bits, 4), m4)),
                            _mm_shuffle_epi8(table, _mm_and_si128(bits, m4)));
}

inline __m256i blockLanes(const uint8_t* qs, const BlockQ8_0& x, __m128i table)
{
    const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x.qs));
    return _mm256_madd_epi16(simd::mulAddI8(lookup32(qs, table), y), _mm256_set1_epi16(1));
}

// Shared by IQ4_NL and MXFP4: Block has qs[16]; scale(b) is the weight block's scale.
template <typename Block, typename Scale>
float dotLut32(const Block* w, const BlockQ8_0* x, int blocks, bool interleaved, const int8_t* values, Scale scale)
{
    const __m128i table = _mm_loadu_si128(reinterpret_cast<const __m128i*>(values));
    if (interleaved) {
        float acc = 0;
        for (int b = 0; b < blocks; ++b) {
            if ((b & 3) == 0)
                simd::prefetchAhead(w + b, 1);
            const int isum = simd::hsumI32(blockLanes(w[b].qs, x[b], table));
            acc = std::fma(static_cast<float>(isum), scale(w[b]) * simd::f16(x[b].d), acc);
        }
        return acc;
    }
    __m256 acc1 = _mm256_setzero_ps();
    __m256 acc2 = _mm256_setzero_ps();
    int b = 0;
    for (; b + 1 < blocks; b += 2) {
        if ((b & 3) == 0)
            simd::prefetchAhead(w + b, 1);
        const __m256i p1 = blockLanes(w[b].qs, x[b], table);
        const __m256i p2 = blockLanes(w[b + 1].qs, x[b + 1], table);
        acc1 = _mm256_fmadd_ps(_mm256_set1_ps(simd::f16(x[b].d) * scale(w[b])), _mm256_cvtepi32_ps(p1), acc1);
        acc2 = _mm256_fmadd_ps(_mm256_set1_ps(simd::f16(x[b + 1].d) * scale(w[b + 1])), _mm256_cvtepi32_ps(p2), acc2);
    }
    float sum = simd::hsum8(_mm256_add_ps(acc1, acc2));
    for (; b < blocks; ++b) {
        int isum = 0;
        for (int j = 0; j < 16; ++j)
            isum += x[b].qs[j] * values[w[b].qs[j] & 15] + x[b].qs[j + 16] * values[w[b].qs[j] >> 4];
        sum = std::fma(simd::f16(x[b].d) * scale(w[b]), static_cast<float>(isum), sum);
    }
    return sum;
}

template <typename Block, typename Scale>
void dequantizeLut32(const Block* b, float* dst, int n, const int8_t* values, Scale scale)
{
    for (int i = 0; i < n / 32; ++i) {
        const float d = scale(b[i]);
        for (int j = 0; j < 16; ++j) {
            dst[i * 32 + j] = d * static_cast<float>(values[b[i].qs[j] & 15]);
            dst[i * 32 + j + 16] = d * static_cast<float>(values[b[i].qs[j] >> 4]);
        }
    }
}

inline float iq4NlScale(const BlockIq4Nl& b)
{
    return simd::f16(b.d);
}
inline float mxfp4Scale(const BlockMxfp4& b)
{
    return e8m0Half(b.e);
}

// The 6-bit IQ4_XS sub-block scale c (0..7), minus 32.
inline int iq4XsScale(const BlockIq4Xs& b, int c)
{
    return (((b.scalesL[c / 2] >> (4 * (c % 2))) & 15) | (((b.scalesH >> (2 * c)) & 3) << 4)) - 32;
}

} // namespace

float dotIq4Nl(const BlockIq4Nl* w, const BlockQ8_0* x, int blocks, bool interleaved)
{
    return dotLut32(w, x, blocks, interleaved, kIq4NlValues, iq4NlScale);
}

float dotMxfp4(const BlockMxfp4* w, const BlockQ8_0* x, int blocks, bool interleaved)
{
    return dotLut32(w, x, blocks, interleaved, kMxfp4Values, mxfp4Scale);
}

float dotIq4Xs(const BlockIq4Xs* w, const BlockQ8_K* x, int blocks)
{
    const __m128i table = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kIq4NlValues));
    __m256 acc = _mm256_setzero_ps();
    for (int b = 0; b < blocks; ++b) {
        simd::prefetchAhead(w + b, 3);
        __m256i sumi = _mm256_setzero_si256();
        for (int c = 0; c < 8; ++c) {
            const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[b].qs + 32 * c));
            const __m256i p16 = simd::mulAddI8(lookup32(w[b].qs + 16 * c, table), y);
            sumi = _mm256_add_epi32(sumi,
                                    _mm256_madd_epi16(p16, _mm256_set1_epi16(static_cast<short>(iq4XsScale(w[b], c)))));
        }
        acc = _mm256_fmadd_ps(_mm256_set1_ps(simd::f16(w[b].d) * x[b].d), _mm256_cvtepi32_ps(sumi), acc);
    }
    return simd::hsum8(acc);
}

void dequantizeRowIq4Nl(const BlockIq4Nl* b, float* dst, int n)
{
    dequantizeLut32(b, dst, n, kIq4NlValues, iq4NlScale);
}
void dequantizeRowMxfp4(const BlockMxfp4* b, float* dst, int n)
{
    dequantizeLut32(b, dst, n, kMxfp4Values, mxfp4Scale);
}

void dequantizeRowIq4Xs(const BlockIq4Xs* b, float* dst, int n)
{
    for (int i = 0; i < n / 256; ++i) {
        const float d = simd::f16(b[i].d);
        for (int c = 0; c < 8; ++c) {
            const float dl = d * static_cast<float>(iq4XsScale(b[i], c));
            const uint8_t* qs = b[i].qs + 16 * c;
            float* y = dst + i * 256 + 32 * c;
            for (int j = 0; j < 16; ++j) {
                y[j] = dl * static_cast<float>(kIq4NlValues[qs[j] & 15]);
                y[j + 16] = dl * static_cast<float>(kIq4NlValues[qs[j] >> 4]);
            }
        }
    }
}

} // namespace ws::kernels
