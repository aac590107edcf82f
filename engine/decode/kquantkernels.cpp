// Kernels for the K-quants (256-value super-blocks: Q4_K, Q6_K), dotted with the activation quantised to Q8_K.
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
                const Q6Values q = q6Values(ql, qh, l);
                part[is + 0] += q.q1 * q8[l];
                part[is + 2] += q.q2 * q8[l + 32];
                part[is + 4] += q.q3 * q8[l + 64];
                part[is + 6] += q.q4 * q8[l + 96];
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

void dequantizeRowQ4_K(const BlockQ4_K* b, float* dst, int n)
{
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
}

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
