#pragma once
// Tensor element types as numbered by ggml (the numbers are stored in GGUF
// files). Quantised types pack a fixed number of values into a block: a block
// of Q8_0 holds 32 values as one F16 scale and 32 int8, Q4_K and Q6_K hold 256
// values in super-blocks. A tensor row must be a whole number of blocks.
// Known here: the types the decode engine computes with (every type that
// llama-quantize's common presets write); a file with any other type is
// rejected with a clear error rather than misread.

#include <cstdint>
#include <optional>

namespace ws {

enum class GgmlType : uint32_t
{
    F32 = 0,
    F16 = 1,
    Q4_0 = 2,
    Q4_1 = 3,
    Q5_0 = 6,
    Q5_1 = 7,
    Q8_0 = 8,
    Q2_K = 10,
    Q3_K = 11,
    Q4_K = 12,
    Q5_K = 13,
    Q6_K = 14,
    IQ4_NL = 20,
    IQ4_XS = 23,
    BF16 = 30,
    MXFP4 = 39,
};

struct GgmlTypeTraits
{
    const char* name;
    uint32_t blockValues; // values per block (1 for plain float types)
    uint32_t blockBytes;  // bytes per block
};

// Traits of a known type, nullopt for a type number this engine does not handle.
std::optional<GgmlTypeTraits> ggmlTypeTraits(uint32_t typeNumber);
const char* ggmlTypeName(GgmlType type);

} // namespace ws
