// Kernels for the 32-value block quantisations with one F16 scale per block (ggml's legacy quants:
// Q8_0, Q4_0, Q5_0, dotted with the activation quantised to Q8_0; Q4_1, Q5_1 with a minimum too,
// dotted with the activation quantised to Q8_1), in ggml's AVX2 arithmetic.
#include "engine/decode/kernels.h"

#include "engine/decode/simd.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ws::kernels {

namespace {

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
    return _mm256_sub_epi8(simd::nibbles32(qs), _mm256_set1_epi8(8));
}

// The 5th bits of a Q5 block as 0x10 in each byte where set (ggml's bytes_from_bits_32, masked).
inline __m256i fifthBits(const uint8_t* qh)
{
    uint32_t bits;
    std::memcpy(&bits, qh, 4);
    const __m256i shuffle =
        _mm256_setr_epi64x(0x0000000000000000, 0x0101010101010101, 0x0202020202020202, 0x0303030303030303);
    __m256i bytes = _mm256_shuffle_epi8(_mm256_set1_epi32(static_cast<int>(bits)), shuffle);
    const __m256i bitMask = _mm256_set1_epi64x(0x7fbfdfeff7fbfdfe);
    bytes = _mm256_or_si256(bytes, bitMask);
    const __m256i set = _mm256_cmpeq_epi8(bytes, _mm256_set1_epi64x(-1));
    return _mm256_and_si256(set, _mm256_set1_epi8(0x10));
}

// 8 lanes of unsigned-weight x signed-activation byte products, 4 per lane, as float.
inline __m256 dotU8Lanes(__m256i w, __m256i x)
{
    return _mm256_cvtepi32_ps(_mm256_madd_epi16(_mm256_set1_epi16(1), _mm256_maddubs_epi16(w, x)));
}

// Q4_1 and Q5_1: d * sum(q * y) accumulated in 8 lanes, plus m * (the activation block's d * sum) in a scalar.
template <typename Block, typename Unpack>
float dotWithMin(const Block* w, const BlockQ8_1* x, int blocks, Unpack unpack)
{
    __m256 acc = _mm256_setzero_ps();
    float summs = 0;
    for (int b = 0; b < blocks; ++b) {
        if ((b & 1) == 0)
            simd::prefetchAhead(w + b, 1);
        summs = std::fma(simd::f16(w[b].m), simd::f16(x[b].s), summs);
        const __m256 d = _mm256_set1_ps(simd::f16(w[b].d) * simd::f16(x[b].d));
        const __m256i qx = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[b].qs));
        acc = _mm256_fmadd_ps(d, dotU8Lanes(unpack(w[b]), qx), acc);
    }
    return simd::hsum8(acc) + summs;
}

} // namespace

void quantizeRowQ8_1(const float* x, BlockQ8_1* y, int n)
{
    BlockQ8_0 tmp[1];
    for (int b = 0; b < n / 32; ++b, x += 32) {
        // The same values as Q8_0 (d = amax / 127, q = round(x * 127 / amax), ties to even) plus s.
        float amax = 0;
        for (int j = 0; j < 32; ++j)
            amax = std::max(amax, std::fabs(x[j]));
        quantizeRowQ8_0(x, tmp, 32);
        const float d = amax / 127.f;
        int sum = 0;
        for (int j = 0; j < 32; ++j)
            sum += tmp[0].qs[j];
        y[b].d = tmp[0].d;
        y[b].s = simd::toF16(d * static_cast<float>(sum));
        std::memcpy(y[b].qs, tmp[0].qs, 32);
    }
}

float dotQ4_1(const BlockQ4_1* w, const BlockQ8_1* x, int blocks)
{
    return dotWithMin(w, x, blocks, [](const BlockQ4_1& b) { return simd::nibbles32(b.qs); });
}

float dotQ5_1(const BlockQ5_1* w, const BlockQ8_1* x, int blocks)
{
    return dotWithMin(w, x, blocks,
                      [](const BlockQ5_1& b) { return _mm256_or_si256(simd::nibbles32(b.qs), fifthBits(b.qh)); });
}

float dotQ5_0(const BlockQ5_0* w, const BlockQ8_0* x, int blocks)
{
    __m256 acc = _mm256_setzero_ps();
    for (int b = 0; b < blocks; ++b) {
        if ((b & 1) == 0)
            simd::prefetchAhead(w + b, 1);
        const __m256 d = _mm256_set1_ps(simd::f16(w[b].d) * simd::f16(x[b].d));
        // q - 16: the 5th bit clear means minus 16.
        const __m256i q =
            _mm256_sub_epi8(_mm256_or_si256(simd::nibbles32(w[b].qs), fifthBits(w[b].qh)), _mm256_set1_epi8(16));
        const __m256i qx = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[b].qs));
        acc = _mm256_fmadd_ps(d, dotI8Lanes(q, qx), acc);
    }
    return simd::hsum8(acc);
}

void dequantizeRowQ4_1(const BlockQ4_1* b, float* dst, int n)
{
    for (int i = 0; i < n / 32; ++i) {
        const float d = simd::f16(b[i].d), m = simd::f16(b[i].m);
        for (int j = 0; j < 16; ++j) {
            dst[i * 32 + j] = static_cast<float>(b[i].qs[j] & 0x0F) * d + m;
            dst[i * 32 + j + 16] = static_cast<float>(b[i].qs[j] >> 4) * d + m;
        }
    }
}

namespace {
template <typename Block> int q5Value(const Block& b, int j)
{
    uint32_t qh;
    std::memcpy(&qh, b.qh, 4);
    const int nibble = j < 16 ? (b.qs[j] & 0x0F) : (b.qs[j - 16] >> 4);
    return nibble | static_cast<int>(((qh >> j) & 1) << 4);
}
} // namespace

void dequantizeRowQ5_0(const BlockQ5_0* b, float* dst, int n)
{
    for (int i = 0; i < n / 32; ++i) {
        const float d = simd::f16(b[i].d);
        for (int j = 0; j < 32; ++j)
            dst[i * 32 + j] = static_cast<float>(q5Value(b[i], j) - 16) * d;
    }
}

void dequantizeRowQ5_1(const BlockQ5_1* b, float* dst, int n)
{
    for (int i = 0; i < n / 32; ++i) {
        const float d = simd::f16(b[i].d), m = simd::f16(b[i].m);
        for (int j = 0; j < 32; ++j)
            dst[i * 32 + j] = static_cast<float>(q5Value(b[i], j)) * d + m;
    }
}

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
        // One line ahead per 64 bytes (simd::prefetchAhead). No effect on the result.
        if ((b & 1) == 0)
            simd::prefetchAhead(w + b, 1);
        const __m256 d = _mm256_set1_ps(simd::f16(w[b].d) * simd::f16(x[b].d));
        const __m256i qw = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w[b].qs));
        const __m256i qx = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[b].qs));
        acc = _mm256_fmadd_ps(d, dotI8Lanes(qw, qx), acc);
    }
    return simd::hsum8(acc);
}

void dotQ8_0Rows(const uint8_t* rows, size_t rowBytes, int rowCount, const BlockQ8_0* x, int blocks, float* out)
{
    // As dotQ8_0 row by row, the activation's F16 scales converted once for all rows.
    constexpr int kMaxBlocks = 512;
    if (blocks > kMaxBlocks) {
        for (int r = 0; r < rowCount; ++r)
            out[r] = dotQ8_0(reinterpret_cast<const BlockQ8_0*>(rows + rowBytes * size_t(r)), x, blocks);
        return;
    }
    float xd[kMaxBlocks];
    for (int b = 0; b < blocks; ++b)
        xd[b] = simd::f16(x[b].d);
    for (int r = 0; r < rowCount; ++r) {
        const auto* w = reinterpret_cast<const BlockQ8_0*>(rows + rowBytes * size_t(r));
        __m256 acc = _mm256_setzero_ps();
        for (int b = 0; b < blocks; ++b) {
            if ((b & 1) == 0)
                simd::prefetchAhead(w + b, 1);
            const __m256 d = _mm256_set1_ps(simd::f16(w[b].d) * xd[b]);
            const __m256i qw = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w[b].qs));
            const __m256i qx = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[b].qs));
            acc = _mm256_fmadd_ps(d, dotI8Lanes(qw, qx), acc);
        }
        out[r] = simd::hsum8(acc);
    }
}

float dotQ4_0(const BlockQ4_0* w, const BlockQ8_0* x, int blocks)
{
    __m256 acc = _mm256_setzero_ps();
    for (int b = 0; b < blocks; ++b) {
        if ((b & 3) == 0) // 4 blocks of 18 bytes span about one cache line
            simd::prefetchAhead(w + b, 1);
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
