#pragma once
// Token ids as the model's vocabulary numbers them.

#include <cstdint>

namespace ws {

using TokenId = int32_t;

} // namespace ws
