#pragma once
// A choice the placement is made with: where a mixture-of-experts layer's experts sit in the layer's region.

#include <optional>
#include <string_view>

namespace ws {

// Where a mixture-of-experts layer's experts sit in the layer's region, and so which cores work for a token
// ([WaferScope-model]; neither WaferLLM nor Cerebras publishes an MoE layout). Both hold every expert in the
// region's SRAM; they differ in how the active experts' work is spread.
enum class ExpertLayout
{
    // Each expert on its own block of the region: only the active experts' blocks work, each on its own
    // expert; the hidden state travels to them and their outputs back (the dispatch and combine hops). The
    // default: the layout the shipped predictions were made and checked with.
    Blocks,
    // Every expert cut across all of the region's cores, as a dense FFN is: a token's active experts are one
    // wider FFN on every core, so all cores work; the top-k's picks reach every core in an all-reduce along x.
    Sliced,
};
const char* expertLayoutId(ExpertLayout e); // "blocks", "sliced"
std::optional<ExpertLayout> parseExpertLayout(std::string_view id);

} // namespace ws
