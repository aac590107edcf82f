// Q6_K (256-value super-blocks of 6-bit values, 16 signed 8-bit scales) dotted with the Q8_K activation, and
// its decoding. The dot product follows ggml's AVX2 arithmetic (ggml_vec_dot_q6_K_q8_K): per super-block,
// exact int32 sums in 8 lanes (lane j holds the values whose index modulo 32 lies in [4j, 4j + 4)), each
// 16-bit pair product being maddubs(q, y) - maddubs(32, y) times the group's scale, scaled into one 8-lane FMA
// accumulator by the product of the two super-block scales and summed in ggml's lane order. The integer
// steps are exact, so how they are arranged does not change a bit of the result: the rows kernel computes
// the activation's share maddubs(32, y) once for all its rows instead of once per row.
#include "engine/decode/kernels.h"

#include "engine/decode/q6klanes.h"
#include "engine/decode/simd.h"

#include <algorithm>

namespace ws::kernels {

float dotQ6_K(const BlockQ6_K* w, const BlockQ8_K* x, int blocks)
{
    __m256 acc = _mm256_setzero_ps();
    for (int b = 0; b < blocks; ++b) {
        simd::streamAhead(w + b, 4);
        __m256i offsets[8];
        q6Offsets(x[b], offsets);
        const float d = x[b].d * simd::f16(w[b].d);
        acc = _mm256_fmadd_ps(_mm256_set1_ps(d), _mm256_cvtepi32_ps(q6Lanes(w[b], x[b].qs, offsets)), acc);
    }
    return simd::hsum8(acc);
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
