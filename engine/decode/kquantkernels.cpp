// Kernels for the K-quants with 4 and 5 bits (256-value super-blocks: Q4_K, Q5_K) and the Q8_K activation
// they are dotted with; Q6_K is in q6kkernels.cpp, Q2_K and Q3_K in lowbitkquantkernels.cpp.
#include "engine/decode/kernels.h"

#include "engine/decode/simd.h"

#include <cmath>
#include <cstring>

namespace ws::kernels {

namespace {

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

// The K-quant dot products follow ggml's AVX2 arithmetic: per super-block, exact int32 sums in 8 lanes
// (lane j holds the values whose index modulo 32 lies in [4j, 4j + 4)), scaled into 8 float FMA
// accumulators by the product of the two super-block scales, summed in ggml's lane order at the end.
// Q4_K rows that llama.cpp repacks into its 8-row interleaved layout (interleaved = true) are
// summed as that layout's kernel does: one exact integer per super-block, one FMA chain per row.

namespace {

// The 8 6-bit scales (bytes 0-7) and minimums (bytes 8-15) of a Q4_K/Q5_K block from its 12 packed bytes
// (ggml's utmp unpacking, in one vector: the 16 bytes read end inside the block's quants).
inline __m128i q4Scales(const uint8_t* scales)
{
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(scales));
    // Low bits: bytes 0-3 (scales 0-3), 8-11 (scales 4-7), 4-7 (minimums 0-3), 8-11 >> 4 (minimums 4-7).
    const __m128i a = _mm_shuffle_epi8(v, _mm_setr_epi8(0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 8, 9, 10, 11));
    const __m128i low = _mm_and_si128(_mm_blend_epi32(a, _mm_srli_epi16(a, 4), 0x8),
                                      _mm_setr_epi8(63, 63, 63, 63, 15, 15, 15, 15, 63, 63, 63, 63, 15, 15, 15, 15));
    // Top two bits of scales and minimums 4-7: bits 6-7 of bytes 0-3 and 4-7, moved to bits 4-5.
    const __m128i b = _mm_shuffle_epi8(v, _mm_setr_epi8(-1, -1, -1, -1, 0, 1, 2, 3, -1, -1, -1, -1, 4, 5, 6, 7));
    return _mm_or_si128(low, _mm_and_si128(_mm_srli_epi16(b, 2), _mm_set1_epi8(0x30)));
}

// The minimums of q4Scales as 16-bit values.
inline __m128i minimums16(__m128i s)
{
    return _mm_cvtepu8_epi16(_mm_unpackhi_epi64(s, s));
}

// The Q8_K sums over 32 values (8 16-bit values).
inline __m128i bsums32(const BlockQ8_K& x)
{
    const __m128i* bs = reinterpret_cast<const __m128i*>(x.bsums);
    return _mm_hadd_epi16(_mm_loadu_si128(bs), _mm_loadu_si128(bs + 1));
}

// 4 lanes: m[2k] * bsum32[2k] + m[2k + 1] * bsum32[2k + 1].
inline __m128i minProducts(__m128i s, const BlockQ8_K& x)
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

// pshufb masks: byte pairs (2i, 2i + 1) in all 16 positions of both halves, broadcasting the 16-bit
// value i of a vector (ggml's get_scale_shuffle_k4).
alignas(32) constexpr uint8_t kBroadcast16[8][32] = {
#define WS_B16(i) {2 * i, 2 * i + 1, 2 * i, 2 * i + 1, 2 * i, 2 * i + 1, 2 * i, 2 * i + 1, 2 * i, 2 * i + 1, 2 * i, \
    2 * i + 1, 2 * i, 2 * i + 1, 2 * i, 2 * i + 1, 2 * i, 2 * i + 1, 2 * i, 2 * i + 1, 2 * i, 2 * i + 1, 2 * i, \
    2 * i + 1, 2 * i, 2 * i + 1, 2 * i, 2 * i + 1, 2 * i, 2 * i + 1, 2 * i, 2 * i + 1}
    WS_B16(0), WS_B16(1), WS_B16(2), WS_B16(3), WS_B16(4), WS_B16(5), WS_B16(6), WS_B16(7)
#undef WS_B16
};

inline __m256i broadcast16(__m256i v, int i)
{
    return _mm256_shuffle_epi8(v, _mm256_load_si256(reinterpret_cast<const __m256i*>(kBroadcast16[i])));
}

// Integer lanes of a Q4_K (hbits null) or Q5_K super-block against its Q8_K activation.
inline __m256i q45Lanes(const uint8_t* qs, const uint8_t* qh, __m128i s, const int8_t* q8)
{
    const __m256i m4 = _mm256_set1_epi8(15);
    const __m256i hbits = qh ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(qh)) : _mm256_setzero_si256();
    const __m256i scales = _mm256_broadcastsi128_si256(_mm_cvtepu8_epi16(s));
    __m256i sumi = _mm256_setzero_si256();
    for (int j = 0; j < 4; ++j) {
        const __m256i bits = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(qs + 32 * j));
        __m256i lo = _mm256_and_si256(bits, m4);
        __m256i hi = _mm256_and_si256(_mm256_srli_epi16(bits, 4), m4);
        if (qh) {
            // Bit 2j (low nibbles) and 2j + 1 (high nibbles) of each byte moved to bit 4 by one shift each: no
            // bit of the neighbouring byte reaches bit 4 for shifts of at most 4.
            const __m256i bit4 = _mm256_set1_epi8(16);
            const __m256i hl = j < 2 ? _mm256_slli_epi16(hbits, 4 - 2 * j) : _mm256_srli_epi16(hbits, 2 * j - 4);
            const __m256i hh = j < 2 ? _mm256_slli_epi16(hbits, 3 - 2 * j) : _mm256_srli_epi16(hbits, 2 * j - 3);
            lo = _mm256_or_si256(lo, _mm256_and_si256(hl, bit4));
            hi = _mm256_or_si256(hi, _mm256_and_si256(hh, bit4));
        }
        const __m256i p0 = _mm256_maddubs_epi16(lo, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q8 + 64 * j)));
        const __m256i p1 =
            _mm256_maddubs_epi16(hi, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q8 + 64 * j + 32)));
        sumi = _mm256_add_epi32(sumi, _mm256_add_epi32(_mm256_madd_epi16(p0, broadcast16(scales, 2 * j)),
                                                       _mm256_madd_epi16(p1, broadcast16(scales, 2 * j + 1))));
    }
    return sumi;
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

} // namespace

float dotQ4_K(const BlockQ4_K* w, const BlockQ8_K* x, int blocks, bool interleaved)
{
    __m256 acc = _mm256_setzero_ps();
    __m128 accMin = _mm_setzero_ps();
    float accRow = 0, accMinRow = 0;
    for (int b = 0; b < blocks; ++b) {
        simd::prefetchAhead(w + b, 3);
        const __m128i s = q4Scales(w[b].scales);
        const __m128i prod = minProducts(s, x[b]);
        const __m256i sumi = q45Lanes(w[b].qs, nullptr, s, x[b].qs);
        if (interleaved) {
            const int imin = hsumI32x4(prod);
            accRow = std::fma(static_cast<float>(simd::hsumI32(sumi)), simd::f16(w[b].d) * x[b].d, accRow);
            accMinRow = std::fma(static_cast<float>(imin), simd::f16(w[b].dmin) * x[b].d, accMinRow);
            continue;
        }
        const float d = x[b].d * simd::f16(w[b].d);
        const float dmin = -x[b].d * simd::f16(w[b].dmin);
        accMin = _mm_fmadd_ps(_mm_set1_ps(dmin), _mm_cvtepi32_ps(prod), accMin);
        acc = _mm256_fmadd_ps(_mm256_set1_ps(d), _mm256_cvtepi32_ps(sumi), acc);
    }
    if (interleaved)
        return accRow - accMinRow;
    return simd::hsum8(acc) + hsum4(accMin);
}

void dotQ4_KInterleaved8(const uint8_t* rows, size_t rowBytes, const BlockQ8_K* x, int blocks, float* out)
{
    // Row by row through the group's memory (one stream for the hardware prefetcher), keeping each block's
    // integer lanes; then block by block, the eight rows' sums reduced together and accumulated in order.
    constexpr int kMaxBlocks = 64;
    if (blocks > kMaxBlocks) {
        for (int r = 0; r < 8; ++r)
            out[r] = dotQ4_K(reinterpret_cast<const BlockQ4_K*>(rows + rowBytes * size_t(r)), x, blocks, true);
        return;
    }
    __m128i sums32[kMaxBlocks];
    for (int b = 0; b < blocks; ++b)
        sums32[b] = bsums32(x[b]);
    __m256i isum[kMaxBlocks][8];
    __m128i imin[kMaxBlocks][8];
    alignas(16) uint16_t d[kMaxBlocks][8], dmin[kMaxBlocks][8];
    for (int r = 0; r < 8; ++r) {
        const auto* w = reinterpret_cast<const BlockQ4_K*>(rows + rowBytes * size_t(r));
        for (int b = 0; b < blocks; ++b) {
            simd::prefetchAhead(w + b, 3);
            const __m128i s = q4Scales(w[b].scales);
            imin[b][r] = _mm_madd_epi16(minimums16(s), sums32[b]);
            isum[b][r] = q45Lanes(w[b].qs, nullptr, s, x[b].qs);
            d[b][r] = w[b].d;
            dmin[b][r] = w[b].dmin;
        }
    }
    __m256 acc = _mm256_setzero_ps();
    __m256 accMin = _mm256_setzero_ps();
    for (int b = 0; b < blocks; ++b) {
        const __m256 xd = _mm256_set1_ps(x[b].d);
        const __m256 scale =
            _mm256_mul_ps(_mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(d[b]))), xd);
        const __m256 scaleMin =
            _mm256_mul_ps(_mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(dmin[b]))), xd);
        acc = _mm256_fmadd_ps(_mm256_cvtepi32_ps(hsumRows8(isum[b])), scale, acc);
        accMin = _mm256_fmadd_ps(_mm256_cvtepi32_ps(hsumRows8x4(imin[b])), scaleMin, accMin);
    }
    _mm256_storeu_ps(out, _mm256_sub_ps(acc, accMin));
}

namespace {

// One Q5_K row; sums32: the activation's bsums32 per block, computed here when null.
inline float q5Row(const BlockQ5_K* w, const BlockQ8_K* x, const __m128i* sums32, int blocks)
{
    __m256 acc = _mm256_setzero_ps();
    float summs = 0;
    for (int b = 0; b < blocks; ++b) {
        simd::prefetchAhead(w + b, 3);
        const __m128i s = q4Scales(w[b].scales);
        const float d = x[b].d * simd::f16(w[b].d);
        const float dmin = -x[b].d * simd::f16(w[b].dmin);
        const int imin = hsumI32x4(_mm_madd_epi16(minimums16(s), sums32 ? sums32[b] : bsums32(x[b])));
        summs = std::fma(dmin, static_cast<float>(imin), summs);
        acc = _mm256_fmadd_ps(_mm256_set1_ps(d), _mm256_cvtepi32_ps(q45Lanes(w[b].qs, w[b].qh, s, x[b].qs)), acc);
    }
    return simd::hsum8(acc) + summs;
}

} // namespace

float dotQ5_K(const BlockQ5_K* w, const BlockQ8_K* x, int blocks)
{
    return q5Row(w, x, nullptr, blocks);
}

void dotQ5_KRows(const uint8_t* rows, size_t rowBytes, int rowCount, const BlockQ8_K* x, int blocks, float* out)
{
    constexpr int kMaxBlocks = 64;
    __m128i sums32[kMaxBlocks];
    const bool shared = blocks <= kMaxBlocks;
    for (int b = 0; shared && b < blocks; ++b)
        sums32[b] = bsums32(x[b]);
    for (int r = 0; r < rowCount; ++r)
        out[r] = q5Row(reinterpret_cast<const BlockQ5_K*>(rows + rowBytes * size_t(r)), x, shared ? sums32 : nullptr,
                       blocks);
}

namespace {

// Q4_K (qh null) and Q5_K blocks: value = d * scale * q - dmin * min per 32-value sub-block.
template <typename Block>
void dequantizeQ45(const Block* b, float* dst, int n, const uint8_t* (*highBits)(const Block&))
{
    for (int i = 0; i < n / 256; ++i) {
        const float d = simd::f16(b[i].d);
        const float dmin = simd::f16(b[i].dmin);
        const uint8_t* q = b[i].qs;
        const uint8_t* qh = highBits(b[i]);
        float* y = dst + i * 256;
        for (int j = 0; j < 4; ++j) {
            uint8_t sc, m;
            scaleMinK4(2 * j, b[i].scales, sc, m);
            const float d1 = d * sc, m1 = dmin * m;
            scaleMinK4(2 * j + 1, b[i].scales, sc, m);
            const float d2 = d * sc, m2 = dmin * m;
            for (int l = 0; l < 32; ++l)
                *y++ = d1 * static_cast<float>((q[l] & 0xF) + (qh ? ((qh[l] >> (2 * j)) & 1) * 16 : 0)) - m1;
            for (int l = 0; l < 32; ++l)
                *y++ = d2 * static_cast<float>((q[l] >> 4) + (qh ? ((qh[l] >> (2 * j + 1)) & 1) * 16 : 0)) - m2;
            q += 32;
        }
    }
}

} // namespace

void dequantizeRowQ4_K(const BlockQ4_K* b, float* dst, int n)
{
    dequantizeQ45<BlockQ4_K>(b, dst, n, [](const BlockQ4_K&) -> const uint8_t* { return nullptr; });
}

void dequantizeRowQ5_K(const BlockQ5_K* b, float* dst, int n)
{
    dequantizeQ45<BlockQ5_K>(b, dst, n, [](const BlockQ5_K& k) -> const uint8_t* { return k.qh; });
}

} // namespace ws::kernels
