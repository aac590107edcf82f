// Sweep shards (`sweep-merge A B ...`, engine/explore/sweepformat.cpp): the input is the shards, separated by NUL
// bytes. They merge into one sweep or give an error; nothing throws. A merged sweep is a whole sweep (shard 1 of
// 1), so merging it alone gives it back byte for byte.
#include "engine/explore/layoutsweep.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::vector<std::string> shards(1);
    for (size_t i = 0; i < size; ++i) {
        if (data[i] == 0)
            shards.emplace_back();
        else
            shards.back() += char(data[i]);
    }
    const auto merged = ws::mergeSweeps(shards);
    if (!merged) {
        if (merged.error().text.rfind("sweep-merge: ", 0) != 0)
            std::abort(); // every refusal says where it comes from
        return 0;
    }
    const auto again = ws::mergeSweeps({*merged});
    if (!again || *again != *merged) {
        std::fprintf(stderr, "a merged sweep does not merge to itself:\n%s\n", merged->c_str());
        std::abort();
    }
    return 0;
}
