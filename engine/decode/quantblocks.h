#pragma once
// Block layouts of the quantised tensor types, byte for byte as ggml stores
// them in GGUF files, plus the F16/BF16 scalar conversions. A block holds a
// fixed number of values with its own scale: Q8_0 and Q4_0 hold 32 values,
// Q2_K..Q6_K and IQ4_XS 256 values in 8 or 16 sub-blocks with their own sub-scales.
// Q8_K and Q8_1 are never stored in files: they are the forms activations take
// before a dot product with a K-quant (or IQ4_XS) row and a Q4_1/Q5_1 row.

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
    uint16_t d;    // F16 scale
    int8_t qs[32]; // value = d * qs[i]
};
static_assert(sizeof(BlockQ8_0) == 34);

struct BlockQ4_0
{
    uint16_t d;     // F16 scale
    uint8_t qs[16]; // value i (i < 16) = d * ((qs[i] & 15) - 8); value i + 16 = d * ((qs[i] >> 4) - 8)
};
static_assert(sizeof(BlockQ4_0) == 18);

struct BlockQ4_1
{
    uint16_t d, m;  // F16 scale and minimum: value = d * q + m
    uint8_t qs[16]; // 4-bit q, low nibbles values 0..15, high nibbles 16..31
};
static_assert(sizeof(BlockQ4_1) == 20);

struct BlockQ5_0
{
    uint16_t d;     // value = d * (q - 16)
    uint8_t qh[4];  // 5th bits, bit i for value i (little endian)
    uint8_t qs[16]; // low 4 bits as in Q4_0
};
static_assert(sizeof(BlockQ5_0) == 22);

struct BlockQ5_1
{
    uint16_t d, m; // value = d * q + m
    uint8_t qh[4];
    uint8_t qs[16];
};
static_assert(sizeof(BlockQ5_1) == 24);

struct BlockQ8_1
{
    uint16_t d; // F16 scale
    uint16_t s; // F16 of d * sum(qs)
    int8_t qs[32];
};
static_assert(sizeof(BlockQ8_1) == 36);

struct BlockIq4Nl
{
    uint16_t d;     // value = d * kIq4NlValues[index]
    uint8_t qs[16]; // 4-bit indices, laid out as Q4_0
};
static_assert(sizeof(BlockIq4Nl) == 18);

struct BlockMxfp4
{
    uint8_t e;      // E8M0 shared exponent
    uint8_t qs[16]; // 4-bit E2M1 codes, laid out as Q4_0
};
static_assert(sizeof(BlockMxfp4) == 17);

// The 16 IQ4_NL levels and the E2M1 values doubled (MXFP4), as ggml tabulates them.
inline constexpr int8_t kIq4NlValues[16] = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};
inline constexpr int8_t kMxfp4Values[16] = {0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12};

// 2^(e - 128): half the E8M0 scale, matching the doubled E2M1 values.
inline float e8m0Half(uint8_t e)
{
    const uint32_t bits = e < 2 ? 0x00200000u << e : uint32_t(e - 1) << 23;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

struct BlockQ2_K
{
    uint8_t scales[16]; // per 16 values: scale (low 4 bits), minimum (high 4 bits)
    uint8_t qs[64];     // 2-bit values
    uint16_t d, dmin;
};
static_assert(sizeof(BlockQ2_K) == 84);

struct BlockQ3_K
{
    uint8_t hmask[32];  // high bits (clear: subtract 4)
    uint8_t qs[64];     // low 2 bits
    uint8_t scales[12]; // 16 6-bit scales, offset by 32
    uint16_t d;
};
static_assert(sizeof(BlockQ3_K) == 110);

struct BlockQ5_K
{
    uint16_t d, dmin;
    uint8_t scales[12]; // as Q4_K
    uint8_t qh[32];     // 5th bits
    uint8_t qs[128];    // low 4 bits
};
static_assert(sizeof(BlockQ5_K) == 176);

struct BlockIq4Xs
{
    uint16_t d;
    uint16_t scalesH;   // high 2 bits of the 8 6-bit sub-block scales
    uint8_t scalesL[4]; // low 4 bits
    uint8_t qs[128];    // 4-bit indices into kIq4NlValues
};
static_assert(sizeof(BlockIq4Xs) == 136);

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

// The K-quants' activation: ggml's fields (a block of it is never read from a file), with the values first and
// the block 32-byte aligned, so that none of the kernels' 32-byte loads of qs crosses a cache line (a load that
// does costs two of the core's load slots, and the K-quant kernels are bound by those at one thread).
struct alignas(32) BlockQ8_K
{
    int8_t qs[256];
    int16_t bsums[16]; // sums of each 16 values of qs
    float d;           // scale
};
static_assert(sizeof(BlockQ8_K) == 320 && alignof(BlockQ8_K) == 32);

} // namespace ws
