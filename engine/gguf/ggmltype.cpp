#include "engine/gguf/ggmltype.h"

namespace ws {

std::optional<GgmlTypeTraits> ggmlTypeTraits(uint32_t typeNumber)
{
    switch (static_cast<GgmlType>(typeNumber)) {
    case GgmlType::F32: return GgmlTypeTraits{"F32", 1, 4};
    case GgmlType::F16: return GgmlTypeTraits{"F16", 1, 2};
    case GgmlType::BF16: return GgmlTypeTraits{"BF16", 1, 2};
    case GgmlType::Q4_0: return GgmlTypeTraits{"Q4_0", 32, 18};   // f16 d + 16 bytes of nibbles
    case GgmlType::Q8_0: return GgmlTypeTraits{"Q8_0", 32, 34};   // f16 d + 32 int8
    case GgmlType::Q4_K: return GgmlTypeTraits{"Q4_K", 256, 144}; // f16 d, dmin + 12 scale bytes + 128
    case GgmlType::Q6_K: return GgmlTypeTraits{"Q6_K", 256, 210}; // 128 ql + 64 qh + 16 scales + f16 d
    }
    return std::nullopt;
}

const char* ggmlTypeName(GgmlType type)
{
    const auto t = ggmlTypeTraits(static_cast<uint32_t>(type));
    return t ? t->name : "unknown";
}

} // namespace ws
