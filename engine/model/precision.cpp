#include "engine/model/precision.h"

#include <array>

namespace ws {

namespace {
struct PrecisionInfo
{
    Precision precision;
    std::string_view id;
    double bits;
};
constexpr std::array<PrecisionInfo, 7> kPrecisions{{
    {Precision::Fp32, "fp32", 32.0},
    {Precision::Bf16, "bf16", 16.0},
    {Precision::Fp16, "fp16", 16.0},
    {Precision::Fp8, "fp8", 8.0},
    {Precision::Int8, "int8", 34.0 * 8.0 / 32.0}, // Q8_0 block: 32 x int8 + f16 scale
    {Precision::Int4, "int4", 18.0 * 8.0 / 32.0}, // Q4_0 block: 32 x 4 bit + f16 scale
    {Precision::Fp4, "fp4", 17.0 * 8.0 / 32.0},   // MXFP4 block: 32 x E2M1 + E8M0 scale [OCP-MX]
}};
} // namespace

double bitsPerParameter(Precision p)
{
    for (const auto& info : kPrecisions)
        if (info.precision == p)
            return info.bits;
    return 16.0;
}

std::string_view precisionId(Precision p)
{
    for (const auto& info : kPrecisions)
        if (info.precision == p)
            return info.id;
    return "bf16";
}

std::optional<Precision> parsePrecision(std::string_view id)
{
    for (const auto& info : kPrecisions)
        if (info.id == id)
            return info.precision;
    return std::nullopt;
}

PrecisionBlock precisionBlock(Precision p)
{
    switch (p) {
    case Precision::Fp32:
        return {1, 4};
    case Precision::Bf16:
    case Precision::Fp16:
        return {1, 2};
    case Precision::Fp8:
        return {1, 1};
    case Precision::Int8:
        return {32, 34}; // Q8_0
    case Precision::Int4:
        return {32, 18}; // Q4_0
    case Precision::Fp4:
        return {32, 17}; // MXFP4: 16 bytes of E2M1 pairs + 1 byte E8M0 scale [OCP-MX]
    }
    return {1, 2};
}

int vectorBytesPerValue(Precision p)
{
    return p == Precision::Fp32 ? 4 : 2;
}

} // namespace ws
