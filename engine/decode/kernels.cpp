#include "engine/decode/kernels.h"

#include "engine/decode/cputypetraits.h"

#include "engine/decode/simd.h"

#include <cmath>
#include <cstring>
#include <vector>

// The element-wise kernels (the type dispatch is cputypetraits.cpp's table); the dot products and decoders of each
// weight-type family live in floatkernels.cpp, legacyquantkernels.cpp, kquantkernels.cpp, lowbitkquantkernels.cpp and
// lutquantkernels.cpp.

namespace ws::kernels {

void dequantizeRow(GgmlType type, const uint8_t* src, float* dst, int n)
{
    cpuTypeTraits(type).dequantize(src, dst, n);
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

namespace {
// ggml's ggml_table_gelu_f16: GELU of every F16 value, rounded to F16. The inner 1 + 0.044715 x^2 is one
// fused multiply-add, as ggml's build contracts it (checked against libggml on all 65536 inputs).
const uint16_t* geluTable()
{
    static const std::vector<uint16_t> table = [] {
        std::vector<uint16_t> t(1 << 16);
        const float sqrt2OverPi = 0.79788456080286535587989211986876f, coefA = 0.044715f;
        for (size_t i = 0; i < t.size(); ++i) {
            const float x = f16ToF32(static_cast<uint16_t>(i));
            const float inner = std::fma(coefA * x, x, 1.0f);
            t[i] = f32ToF16((0.5f * x) * (1.0f + std::tanh((sqrt2OverPi * x) * inner)));
        }
        return t;
    }();
    return table.data();
}
} // namespace

float gelu(float x)
{
    if (x <= -10.0f)
        return 0.0f;
    if (x >= 10.0f)
        return x;
    return f16ToF32(geluTable()[f32ToF16(x)]);
}

void gegluRow(float* gate, const float* up, int n)
{
    for (int i = 0; i < n; ++i)
        gate[i] = gelu(gate[i]) * up[i];
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
float f16ToF32(uint16_t h)
{
    return simd::f16(h);
}
uint16_t f32ToF16(float f)
{
    return simd::toF16(f);
}
} // namespace ws
