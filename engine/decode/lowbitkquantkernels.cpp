// Kernels for the low-bit K-quants (256-value super-blocks: Q2_K, Q3_K), dotted with the activation
// quantised to Q8_K in ggml's AVX2 arithmetic: exact int32 sums in 8 lanes per super-block (lane j
// holds the values whose index modulo 32 lies in [4j, 4j + 4)), one FMA per lane and super-block,
// the lanes summed in ggml's order at the end.
#include "engine/decode/kernels.h"

#include "engine/decode/simd.h"

#include <cstring>

namespace ws::kernels {

namespace {

// The 16 signed 6-bit Q3_K scales (already minus 32).
void q3Scales(const uint8_t* packed, int8_t out[16])
{
    uint32_t aux[4];
    std::memcpy(aux, packed, 12);
    const uint32_t tmp = aux[2];
    constexpr uint32_t kLow2 = 0x03030303, kLow4 = 0x0f0f0f0f;
    aux[2] = ((aux[0] >> 4) & kLow4) | (((tmp >> 4) & kLow2) << 4);
    aux[3] = ((aux[1] >> 4) & kLow4) | (((tmp >> 6) & kLow2) << 4);
    aux[0] = (aux[0] & kLow4) | (((tmp >> 0) & kLow2) << 4);
    aux[1] = (aux[1] & kLow4) | (((tmp >> 2) & kLow2) << 4);
    std::memcpy(out, aux, 16);
    for (int i = 0; i < 16; ++i)
        out[i] = static_cast<int8_t>(out[i] - 32);
}

inline __m256i load32(const void* p)
{
    return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}

} // namespace

float dotQ2_K(const BlockQ2_K* w, const BlockQ8_K* x, int blocks)
{
    const __m256i m3 = _mm256_set1_epi8(3);
    __m256 acc = _mm256_setzero_ps();
    for (int b = 0; b < blocks; ++b) {
        simd::prefetchAhead(w + b, 2);
        const uint8_t* sc = w[b].scales;
        const float d = x[b].d * simd::f16(w[b].d);
        const float dmin = -x[b].d * simd::f16(w[b].dmin);
        int prod[8];
        for (int k = 0; k < 8; ++k)
            prod[k] = (sc[2 * k] >> 4) * x[b].bsums[2 * k] + (sc[2 * k + 1] >> 4) * x[b].bsums[2 * k + 1];
        acc = _mm256_fmadd_ps(_mm256_set1_ps(dmin), _mm256_cvtepi32_ps(load32(prod)), acc);
        __m256i sumi = _mm256_setzero_si256();
        for (int c = 0; c < 8; ++c) {
            const __m256i bits = load32(w[b].qs + 32 * (c / 4));
            const __m256i q = _mm256_and_si256(_mm256_srli_epi16(bits, 2 * (c % 4)), m3);
            const __m256i p = _mm256_maddubs_epi16(q, load32(x[b].qs + 32 * c));
            sumi = _mm256_add_epi32(sumi, _mm256_madd_epi16(p, simd::halves16(sc[2 * c] & 15, sc[2 * c + 1] & 15)));
        }
        acc = _mm256_fmadd_ps(_mm256_set1_ps(d), _mm256_cvtepi32_ps(sumi), acc);
    }
    return simd::hsum8(acc);
}

float dotQ3_K(const BlockQ3_K* w, const BlockQ8_K* x, int blocks)
{
    const __m256i m3 = _mm256_set1_epi8(3);
    const __m256i one = _mm256_set1_epi8(1);
    const __m256i four = _mm256_set1_epi8(4);
    __m256 acc = _mm256_setzero_ps();
    for (int b = 0; b < blocks; ++b) {
        simd::prefetchAhead(w + b, 2);
        int8_t sc[16];
        q3Scales(w[b].scales, sc);
        const float d = x[b].d * simd::f16(w[b].d);
        const __m256i hm = load32(w[b].hmask);
        __m256i sumi = _mm256_setzero_si256();
        for (int c = 0; c < 8; ++c) {
            const __m256i bits = load32(w[b].qs + 32 * (c / 4));
            const __m256i low = _mm256_and_si256(_mm256_srli_epi16(bits, 2 * (c % 4)), m3);
            const __m256i high = _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(hm, c), one), 2);
            const __m256i y = load32(x[b].qs + 32 * c);
            // (low + 4 * high - 4) * y without leaving the unsigned x signed byte product.
            const __m256i p =
                _mm256_sub_epi16(_mm256_maddubs_epi16(_mm256_or_si256(low, high), y), _mm256_maddubs_epi16(four, y));
            sumi = _mm256_add_epi32(sumi, _mm256_madd_epi16(p, simd::halves16(sc[2 * c], sc[2 * c + 1])));
        }
        acc = _mm256_fmadd_ps(_mm256_set1_ps(d), _mm256_cvtepi32_ps(sumi), acc);
    }
    return simd::hsum8(acc);
}

void dequantizeRowQ2_K(const BlockQ2_K* b, float* dst, int n)
{
    for (int i = 0; i < n / 256; ++i) {
        const float d = simd::f16(b[i].d);
        const float dmin = simd::f16(b[i].dmin);
        float* y = dst + i * 256;
        for (int c = 0; c < 8; ++c) {
            const uint8_t* q = b[i].qs + 32 * (c / 4);
            for (int l = 0; l < 32; ++l) {
                const uint8_t s = b[i].scales[2 * c + l / 16];
                *y++ = d * static_cast<float>(s & 15) * static_cast<float>((q[l] >> (2 * (c % 4))) & 3) -
                       dmin * static_cast<float>(s >> 4);
            }
        }
    }
}

void dequantizeRowQ3_K(const BlockQ3_K* b, float* dst, int n)
{
    for (int i = 0; i < n / 256; ++i) {
        const float d = simd::f16(b[i].d);
        int8_t sc[16];
        q3Scales(b[i].scales, sc);
        float* y = dst + i * 256;
        for (int c = 0; c < 8; ++c) {
            const uint8_t* q = b[i].qs + 32 * (c / 4);
            for (int l = 0; l < 32; ++l) {
                const int low = (q[l] >> (2 * (c % 4))) & 3;
                const int v = low - (((b[i].hmask[l] >> c) & 1) ? 0 : 4);
                *y++ = d * static_cast<float>(sc[2 * c + l / 16]) * static_cast<float>(v);
            }
        }
    }
}

} // namespace ws::kernels
