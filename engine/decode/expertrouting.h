#pragma once
// The experts one token ran through in a mixture-of-experts model: per layer,
// the router's selection (descending router probability, moeblock.h) and the
// weights the selected experts' outputs were summed with. Empty for dense
// models (blocks::routingOf in moeblock.h reads it from a run state). Small and copyable: it travels with a token to
// the chat's wafer, which lights those experts.

#include <span>
#include <vector>

namespace ws {

struct ExpertRouting
{
    int layers = 0;
    int perLayer = 0;           // experts per token and layer
    std::vector<int> experts;   // (layers, perLayer)
    std::vector<float> weights; // (layers, perLayer)

    bool empty() const { return experts.empty(); }
    std::span<const int> layer(int l) const
    {
        return {experts.data() + size_t(l) * size_t(perLayer), size_t(perLayer)};
    }
};

} // namespace ws
