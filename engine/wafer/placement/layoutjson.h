#pragma once
// A layout (layout.h) as JSON: {"waferscope_layout": 1, "model", "hardware", "origin", "strategy", "order",
// "weight_fill", "context_tokens", "precisions": {"attention", "ffn", "tables"}, "devices", "usable_mesh":
// [cols, rows], "layers": [[device, x, y, width, height], ...], "embedding": [layer, ...], "lm_head": [...]}.
// Writing is canonical (sorted keys, two-space indent), so export, import, export gives the same bytes. Reading
// is strict: a missing or mistyped field is refused with one line naming it.

#include "engine/core/error.h"
#include "engine/wafer/placement/layout.h"

#include <string>
#include <string_view>

namespace ws {

constexpr int kLayoutFormatVersion = 1;

std::string layoutToJson(const Layout& layout);
Expected<Layout> layoutFromJson(std::string_view json);

} // namespace ws
