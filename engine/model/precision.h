#pragma once
// Numeric precision of stored weights (and KV cache). Block-quantised formats
// carry their scales: int8 is counted as Q8_0 (32 values + one F16 scale =
// 34 bytes per 32), int4 as Q4_0 (16 bytes + one F16 scale = 18 bytes per 32),
// fp4 as OCP MXFP4 (32 E2M1 values in 16 bytes + one E8M0 scale byte = 17
// bytes per 32, 4.25 bits; [OCP-MX] in docs/sources.md). NVFP4 (16 values +
// one FP8 scale, 4.5 bits) stores as int4 does.

#include <optional>
#include <string>
#include <string_view>

namespace ws {

enum class Precision
{
    Fp32,
    Bf16,
    Fp16,
    Fp8,
    Int8,
    Int4,
    Fp4 // MXFP4
};

// Storage bits per parameter including block scales (fp32 32, bf16 16, int8 8.5, int4 4.5, fp4 4.25).
double bitsPerParameter(Precision p);
std::string_view precisionId(Precision p); // "fp32", "bf16", ...
std::optional<Precision> parsePrecision(std::string_view id);

// Storage block along a matrix row (the input dimension): `values` weights take
// `bytes` bytes, scales included (int8: 32 values in 34 bytes; fp32: 1 in 4).
struct PrecisionBlock
{
    int values = 1;
    int bytes = 2;
};
PrecisionBlock precisionBlock(Precision p);
// Bytes of a 1-D tensor (norm weights, biases): fp32 stays fp32, everything
// else is kept at 16 bits (quantised formats do not quantise vectors).
int vectorBytesPerValue(Precision p);

} // namespace ws
