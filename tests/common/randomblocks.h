#pragma once
// Random Q4_K super-blocks for the kernel tests: random quants and packed scales, F16 factors in a range
// that keeps the products finite.
#include "engine/decode/quantblocks.h"

#include <random>
#include <vector>

namespace wstest {

inline std::vector<ws::BlockQ4_K> randomQ4_KBlocks(size_t count, std::mt19937_64& rng)
{
    std::uniform_real_distribution<float> scale(0.0005f, 0.02f);
    std::vector<ws::BlockQ4_K> blocks(count);
    for (ws::BlockQ4_K& b : blocks) {
        for (auto& q : b.qs)
            q = uint8_t(rng());
        for (auto& q : b.scales)
            q = uint8_t(rng());
        b.d = ws::f32ToF16(scale(rng));
        b.dmin = ws::f32ToF16(scale(rng));
    }
    return blocks;
}

} // namespace wstest
