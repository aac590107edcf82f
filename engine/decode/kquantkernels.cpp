// Kernels for the K-quants with 4 and 5 bits (256-value super-blocks: Q4_K, Q5_K) and the Q8_K activation
// they are dotted with; Q6_K is in q6kkernels.cpp, Q2_K and Q3_K in lowbitkquantkernels.cpp.
#include "engine/decode/kernels.h"

#include "engine/decode/kquantlanes.h"
#include "engine/decode/simd.h"

#include <cmath>
#include <cstring>

namespace ws::kernels {

namespace {

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

// ggml's quantize_row_q8_K_ref eight values at a time: the value of largest magnitude (the first such: ggml keeps
// it only for a strictly larger one), iscale = -127 / that value, each value's product with iscale rounded to the
// nearest integer (ties to even, as nearest_int), at most 127, and the sums of each 16. A NaN is passed over in the
// maximum as ggml's comparison passes it over.
void quantizeRowQ8_K(const float* x, BlockQ8_K* y, int n)
{
    const __m256 signBit = _mm256_set1_ps(-0.0f);
    const __m256i max127 = _mm256_set1_epi32(127);
    constexpr int kRound = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
    for (int b = 0; b < n / kKQuantValues; ++b, x += kKQuantValues) {
        __m256 m = _mm256_setzero_ps();
        for (int j = 0; j < kKQuantValues; j += 8)
            m = _mm256_max_ps(_mm256_andnot_ps(signBit, _mm256_loadu_ps(x + j)), m); // a NaN yields m
        __m128 m4 = _mm_max_ps(_mm256_extractf128_ps(m, 1), _mm256_castps256_ps128(m));
        m4 = _mm_max_ps(m4, _mm_movehl_ps(m4, m4));
        m4 = _mm_max_ss(m4, _mm_movehdup_ps(m4));
        const float amax = _mm_cvtss_f32(m4);
        if (amax == 0.0f) {
            y[b].d = 0;
            std::memset(y[b].qs, 0, sizeof(y[b].qs));
            std::memset(y[b].bsums, 0, sizeof(y[b].bsums));
            continue;
        }
        int first = 0;
        while (std::fabs(x[first]) != amax)
            ++first;
        const float iscale = -127.f / x[first];
        const __m256 mul = _mm256_set1_ps(iscale);
        __m256i sums[16];
        for (int j = 0; j < kKQuantValues; j += 32) {
            __m256i v[4];
            for (int k = 0; k < 4; ++k)
                v[k] = _mm256_min_epi32(
                    _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(mul, _mm256_loadu_ps(x + j + 8 * k)), kRound)),
                    max127);
            sums[j / 16] = _mm256_add_epi32(v[0], v[1]);
            sums[j / 16 + 1] = _mm256_add_epi32(v[2], v[3]);
            const __m256i bytes = _mm256_packs_epi16(_mm256_packs_epi32(v[0], v[1]), _mm256_packs_epi32(v[2], v[3]));
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(y[b].qs + j),
                                _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)));
        }
        const __m256i words = _mm256_packs_epi32(hsumRows8(sums), hsumRows8(sums + 8)); // |sum| <= 16 x 127
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(y[b].bsums), _mm256_permute4x64_epi64(words, 0xD8));
        y[b].d = 1 / iscale;
    }
}

// The K-quant dot products follow ggml's AVX2 arithmetic: per super-block, exact int32 sums in 8 lanes
// (lane j holds the values whose index modulo 32 lies in [4j, 4j + 4)), scaled into 8 float FMA
// accumulators by the product of the two super-block scales, summed in ggml's lane order at the end.
// Q4_K rows that llama.cpp repacks into its 8-row interleaved layout (interleaved = true) are
// summed as that layout's kernel does: one exact integer per super-block, one FMA chain per row.

float dotQ4_K(const BlockQ4_K* w, const BlockQ8_K* x, int blocks, bool interleaved)
{
    __m256 acc = _mm256_setzero_ps();
    __m128 accMin = _mm_setzero_ps();
    float accRow = 0, accMinRow = 0;
    for (int b = 0; b < blocks; ++b) {
        simd::streamAhead(w + b, 3);
        const __m256i s = q4Scales(w[b].scales);
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

// The packed layout, 32-bit words of qs: word 8j + k holds sub-block k's values 8j..8j+3 (low nibbles) and
// 8j+4..8j+7 (high nibbles). The plain layout's words 8p + 2j and 8p + 2j + 1 hold those values of sub-blocks
// 2p (low nibbles) and 2p + 1 (high nibbles), so each pair of words maps to a pair of words.
void packQ4_KBlocks(BlockQ4_K* blocks, size_t count)
{
    constexpr uint32_t m = 0x0F0F0F0Fu;
    for (size_t i = 0; i < count; ++i) {
        uint32_t plain[32], packed[32];
        std::memcpy(plain, blocks[i].qs, sizeof(plain));
        for (int p = 0; p < 4; ++p)
            for (int j = 0; j < 4; ++j) {
                const uint32_t d0 = plain[8 * p + 2 * j], d1 = plain[8 * p + 2 * j + 1];
                packed[8 * j + 2 * p] = (d0 & m) | ((d1 & m) << 4);
                packed[8 * j + 2 * p + 1] = ((d0 >> 4) & m) | (d1 & ~m);
            }
        std::memcpy(blocks[i].qs, packed, sizeof(packed));
    }
}

void unpackQ4_KBlock(const BlockQ4_K& packed, BlockQ4_K& plain)
{
    constexpr uint32_t m = 0x0F0F0F0Fu;
    uint32_t in[32], out[32];
    std::memcpy(in, packed.qs, sizeof(in));
    for (int p = 0; p < 4; ++p)
        for (int j = 0; j < 4; ++j) {
            const uint32_t o0 = in[8 * j + 2 * p], o1 = in[8 * j + 2 * p + 1];
            out[8 * p + 2 * j] = (o0 & m) | ((o1 & m) << 4);
            out[8 * p + 2 * j + 1] = ((o0 >> 4) & m) | (o1 & ~m);
        }
    plain = packed;
    std::memcpy(plain.qs, out, sizeof(out));
}

// Word 8v + k of the packed activation is word 8k + v of the plain one: the values that meet sub-block k's
// weights in lane k.
void permuteQ8_KForPackedQ4_K(BlockQ8_K* x, int blocks)
{
    for (int b = 0; b < blocks; ++b) {
        uint32_t plain[64], packed[64];
        std::memcpy(plain, x[b].qs, sizeof(plain));
        for (int v = 0; v < 8; ++v)
            for (int k = 0; k < 8; ++k)
                packed[8 * v + k] = plain[8 * k + v];
        std::memcpy(x[b].qs, packed, sizeof(packed));
    }
}

float dotQ5_K(const BlockQ5_K* w, const BlockQ8_K* x, int blocks)
{
    return q5Row(w, x, nullptr, blocks);
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

void dequantizeRowQ4_KPacked(const BlockQ4_K* b, float* dst, int n)
{
    for (int i = 0; i < n / 256; ++i) {
        BlockQ4_K plain;
        unpackQ4_KBlock(b[i], plain);
        dequantizeRowQ4_K(&plain, dst + size_t(i) * 256, 256);
    }
}

void dequantizeRowQ5_K(const BlockQ5_K* b, float* dst, int n)
{
    dequantizeQ45<BlockQ5_K>(b, dst, n, [](const BlockQ5_K& k) -> const uint8_t* { return k.qh; });
}

} // namespace ws::kernels
