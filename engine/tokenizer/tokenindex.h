#pragma once
// Text -> token id lookup for a vocabulary, with string_view keys so the
// encoders look up substrings without allocating. When two tokens have the
// same text the later id wins, as in llama.cpp's token_to_id.

#include "engine/tokenizer/tokenid.h"

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

template<typename T>
using StringMap = std::unordered_map<std::string, T, StringViewHash, std::equal_to<>>;

class TokenIndex
{
public:
    TokenIndex() = default;
    explicit TokenIndex(const std::vector<std::string>& tokens);

    // The id of the token whose text is exactly `text`, or -1.
    TokenId find(std::string_view text) const
    {
        const auto it = m_ids.find(text);
        return it == m_ids.end() ? -1 : it->second;
    }

private:
    StringMap<TokenId> m_ids;
};

} // namespace ws
