#include "engine/gguf/ggmltype.h"

namespace ws {

std::optional<GgmlTypeTraits> ggmlTypeTraits(uint32_t typeNumber)
{
    switch (static_cast<GgmlType>(typeNumber)) {
    case GgmlType::F32:
        return GgmlTypeTraits{"F32", 1, 4};
    case GgmlType::F16:
        return GgmlTypeTraits{"F16", 1, 2};
    case GgmlType::BF16:
        return GgmlTypeTraits{"BF16", 1, 2};
    case GgmlType::Q4_0:
        return GgmlTypeTraits{"Q4_0", 32, 18}; // f16 d + 16 bytes of nibbles
    case GgmlType::Q4_1:
        return GgmlTypeTraits{"Q4_1", 32, 20}; // f16 d, m + 16 bytes of nibbles
    case GgmlType::Q5_0:
        return GgmlTypeTraits{"Q5_0", 32, 22}; // f16 d + 4 bytes of 5th bits + 16
    case GgmlType::Q5_1:
        return GgmlTypeTraits{"Q5_1", 32, 24}; // f16 d, m + 4 + 16
    case GgmlType::Q8_0:
        return GgmlTypeTraits{"Q8_0", 32, 34}; // f16 d + 32 int8
    case GgmlType::Q2_K:
        return GgmlTypeTraits{"Q2_K", 256, 84}; // 16 scale bytes + 64 + f16 d, dmin
    case GgmlType::Q3_K:
        return GgmlTypeTraits{"Q3_K", 256, 110}; // 32 hmask + 64 + 12 scales + f16 d
    case GgmlType::Q4_K:
        return GgmlTypeTraits{"Q4_K", 256, 144}; // f16 d, dmin + 12 scale bytes + 128
    case GgmlType::Q5_K:
        return GgmlTypeTraits{"Q5_K", 256, 176}; // f16 d, dmin + 12 + 32 qh + 128
    case GgmlType::Q6_K:
        return GgmlTypeTraits{"Q6_K", 256, 210}; // 128 ql + 64 qh + 16 scales + f16 d
    case GgmlType::IQ4_NL:
        return GgmlTypeTraits{"IQ4_NL", 32, 18}; // f16 d + 16 bytes of table indices
    case GgmlType::IQ4_XS:
        return GgmlTypeTraits{"IQ4_XS", 256, 136}; // f16 d, u16 + 4 scale bytes + 128
    case GgmlType::MXFP4:
        return GgmlTypeTraits{"MXFP4", 32, 17}; // E8M0 exponent + 16 bytes of E2M1
    }
    return std::nullopt;
}

const char* ggmlTypeName(GgmlType type)
{
    const auto t = ggmlTypeTraits(static_cast<uint32_t>(type));
    return t ? t->name : "unknown";
}

} // namespace ws
