#include "engine/gguf/ggmltype.h"

namespace ws {

namespace {

// Every known type once: its number, name and storage (ggml.c's type_traits). The CPU's arithmetic for each
// type (dequantise, the dot product's activation type, the dot and rows kernels) is engine/decode's own table,
// cputypetraits.h, as ggml-cpu's type_traits_cpu sits beside ggml's.
struct Entry
{
    GgmlType type;
    GgmlTypeTraits traits;
};

constexpr Entry kTypes[] = {
    {GgmlType::F32, {"F32", 1, 4}},           {GgmlType::F16, {"F16", 1, 2}},
    {GgmlType::BF16, {"BF16", 1, 2}},         {GgmlType::Q4_0, {"Q4_0", 32, 18}}, // f16 d + 16 bytes of nibbles
    {GgmlType::Q4_1, {"Q4_1", 32, 20}},                                           // f16 d, m + 16 bytes of nibbles
    {GgmlType::Q5_0, {"Q5_0", 32, 22}},                                           // f16 d + 4 bytes of 5th bits + 16
    {GgmlType::Q5_1, {"Q5_1", 32, 24}},                                           // f16 d, m + 4 + 16
    {GgmlType::Q8_0, {"Q8_0", 32, 34}},                                           // f16 d + 32 int8
    {GgmlType::Q2_K, {"Q2_K", 256, 84}},                                          // 16 scale bytes + 64 + f16 d, dmin
    {GgmlType::Q3_K, {"Q3_K", 256, 110}},                                         // 32 hmask + 64 + 12 scales + f16 d
    {GgmlType::Q4_K, {"Q4_K", 256, 144}},                                         // f16 d, dmin + 12 scale bytes + 128
    {GgmlType::Q5_K, {"Q5_K", 256, 176}},                                         // f16 d, dmin + 12 + 32 qh + 128
    {GgmlType::Q6_K, {"Q6_K", 256, 210}},                                         // 128 ql + 64 qh + 16 scales + f16 d
    {GgmlType::IQ4_NL, {"IQ4_NL", 32, 18}},                                       // f16 d + 16 bytes of table indices
    {GgmlType::IQ4_XS, {"IQ4_XS", 256, 136}},                                     // f16 d, u16 + 4 scale bytes + 128
    {GgmlType::MXFP4, {"MXFP4", 32, 17}},                                         // E8M0 exponent + 16 bytes of E2M1
};

} // namespace

std::optional<GgmlTypeTraits> ggmlTypeTraits(uint32_t typeNumber)
{
    for (const Entry& e : kTypes)
        if (static_cast<uint32_t>(e.type) == typeNumber)
            return e.traits;
    return std::nullopt;
}

const char* ggmlTypeName(GgmlType type)
{
    const auto t = ggmlTypeTraits(static_cast<uint32_t>(type));
    return t ? t->name : "unknown";
}

} // namespace ws
