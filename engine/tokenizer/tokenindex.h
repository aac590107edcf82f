#pragma once
// Text -> token id lookup for a vocabulary. The texts are copied into one
// contiguous arena and found through a flat open-addressing table keyed by
// their hash, which builds and looks up several times faster than a
// node-based map for 150k tokens. Lookups take string_views, so encoders look
// up substrings without allocating. When two tokens have the same text the
// later id wins, as in llama.cpp's token_to_id.

#include "engine/tokenizer/tokenid.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ws {

struct StringViewHash
{
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

template <typename T> using StringMap = std::unordered_map<std::string, T, StringViewHash, std::equal_to<>>;

class TokenIndex
{
public:
    TokenIndex() = default;
    explicit TokenIndex(const std::vector<std::string>& tokens);

    // The id of the token whose text is exactly `text`, or -1.
    TokenId find(std::string_view text) const;

private:
    struct Slot
    {
        uint32_t hash = 0; // low bits of the text's hash, to skip most string compares
        TokenId id = -1;   // -1: empty
    };

    std::string_view text(TokenId id) const
    {
        const auto i = static_cast<size_t>(id);
        return std::string_view(m_arena).substr(m_offsets[i], m_offsets[i + 1] - m_offsets[i]);
    }

    std::string m_arena;           // all token texts back to back
    std::vector<size_t> m_offsets; // (vocab + 1) start of each text in the arena
    std::vector<Slot> m_slots;     // power-of-two size, at most half full
};

} // namespace ws
