#pragma once
// SentencePiece-style encoding (llama.cpp's "SPM" tokenizer, llama2.c's
// encoder): start from one symbol per UTF-8 character, then repeatedly merge
// the adjacent pair whose concatenation is a token with the highest score
// (ties: the leftmost pair), using a priority queue over a linked list of
// symbols. A final symbol with no token is written as its <0xHH> byte tokens.
// The caller has already replaced spaces by U+2581 and added the space prefix.

#include "engine/tokenizer/tokenid.h"
#include "engine/tokenizer/tokenindex.h"
#include "engine/tokenizer/vocab.h"

#include <array>
#include <string_view>
#include <vector>

namespace ws {

class SpmEncoder
{
public:
    SpmEncoder() = default;
    SpmEncoder(const Vocab& vocab, const TokenIndex& index);

    void encode(std::string_view text, const Vocab& vocab, const TokenIndex& index, std::vector<TokenId>& out) const;

private:
    std::array<TokenId, 256> m_byteTokens{}; // <0xHH> token per byte value (or the 1-byte token, or unk)
};

} // namespace ws
