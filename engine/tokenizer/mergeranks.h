#pragma once
// BPE merge ranks: which adjacent pair of symbols merges first. Looked up once
// per candidate pair while encoding, so it is keyed by the pair's two token
// ids in a flat open-addressing table (no string is built per lookup, and
// 280k merges load in a few tens of milliseconds). The rare merge whose left
// or right side is not itself a token is kept in a string-keyed map, so the
// result is the same as llama.cpp's map from (left, right) strings to ranks.

#include "engine/tokenizer/tokenid.h"
#include "engine/tokenizer/tokenindex.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

class MergeRanks
{
public:
    MergeRanks() = default;
    // `merges` are "left right" strings, split at the first space after the
    // first byte; the rank is the index, and the first of duplicates wins.
    MergeRanks(const std::vector<std::string>& merges, const TokenIndex& index);

    size_t size() const { return m_count; }

    // Rank of merging two symbols, or -1. Pass the symbols' token ids (-1
    // when a symbol's text is not a token) and their texts.
    int find(TokenId left, TokenId right, std::string_view leftText, std::string_view rightText) const
    {
        if (left >= 0 && right >= 0)
            return findIds(left, right);
        return m_byText.empty() ? -1 : findText(leftText, rightText);
    }

private:
    struct Slot
    {
        uint64_t key = kEmpty;
        int32_t rank = -1;
    };
    static constexpr uint64_t kEmpty = ~uint64_t(0);

    static uint64_t pairKey(TokenId left, TokenId right) { return (uint64_t(uint32_t(left)) << 32) | uint32_t(right); }
    static size_t hash(uint64_t key)
    {
        key ^= key >> 33;
        key *= 0xff51afd7ed558ccdULL;
        key ^= key >> 33;
        return static_cast<size_t>(key);
    }
    int findIds(TokenId left, TokenId right) const;
    int findText(std::string_view left, std::string_view right) const;
    bool insertIds(uint64_t key, int32_t rank); // false if the key was there already

    std::vector<Slot> m_slots; // power-of-two size, at most half full
    StringMap<int> m_byText;   // key: left + '\0' + right, for sides that are not tokens
    size_t m_count = 0;
};

} // namespace ws
