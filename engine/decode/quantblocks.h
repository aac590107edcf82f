#pragma once
// Block layouts of the quantised tensor types, byte for byte as ggml stores
// them in GGUF files, plus the F16/BF16 scalar conversions. A block holds a
// fixed number of values with its own scale: Q8_0 and Q4_0 hold 32 values,
// Q4_K and Q6_K 256 values in 8 or 16 sub-blocks with 6- or 8-bit sub-scales.
// Q8_K is never stored in files: it is the form activations take before a
// dot product with a K-quant row.

#include <cstdint>
#include <cstring>

namespace ws {

// IEEE half precision; round to nearest even (as F16C's vcvtps2ph with mode 0).
float f16ToF32(uint16_t h);
uint16_t f32ToF16(float f);

inline float bf16ToF32(uint16_t h)
{
    const uint32_t u = uint32_t(h) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// Round to nearest even, as ggml does; NaN stays a (quiet) NaN.
inline uint16_t f32ToBf16(float f)
{
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if ((u & 0x7fffffff) > 0x7f800000)
        return static_cast<uint16_t>((u >> 16) | 64);
    return static_cast<uint16_t>((u + (0x7fff + ((u >> 16) & 1))) >> 16);
}

constexpr int kQ8_0Values = 32;
constexpr int kQ4_0Values = 32;
constexpr int kKQuantValues = 256;

struct BlockQ8_0
{
    uint16_t d;     // F16 scale
    int8_t qs[32];  // value = d * qs[i]
};
static_assert(sizeof(BlockQ8_0) == 34);

struct BlockQ4_0
{
    uint16_t d;     // F16 scale
    uint8_t qs[16]; // value i (i < 16) = d * ((qs[i] & 15) - 8); value i + 16 = d * ((qs[i] >> 4) - 8)
};
static_assert(sizeof(BlockQ4_0) == 18);

struct BlockQ4_K
{
    uint16_t d;         // F16 super-block scale for the sub-block scales
    uint16_t dmin;      // F16 super-block scale for the sub-block minimums
    uint8_t scales[12]; // 8 scales and 8 minimums, 6 bits each
    uint8_t qs[128];    // 256 4-bit values
};
static_assert(sizeof(BlockQ4_K) == 144);

struct BlockQ6_K
{
    uint8_t ql[128];   // low 4 bits
    uint8_t qh[64];    // high 2 bits
    int8_t scales[16]; // 8-bit sub-block scales (16 values each)
    uint16_t d;        // F16 super-block scale
};
static_assert(sizeof(BlockQ6_K) == 210);

struct BlockQ8_K
{
    float d;            // scale
    int8_t qs[256];
    int16_t bsums[16];  // sums of each 16 values of qs
};
static_assert(sizeof(BlockQ8_K) == 292);

} // namespace ws
