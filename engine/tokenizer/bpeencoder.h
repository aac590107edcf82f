#pragma once
// Byte-level BPE encoding (GPT-2 style, llama.cpp's "BPE" tokenizer): the
// text is cut into words by the pre-tokenizer, each word's UTF-8 bytes are
// written in GPT-2's byte alphabet, and within a word the adjacent pair with
// the lowest merge rank is merged until no ranked pair is left (priority
// queue over a linked list of symbols, ties to the leftmost pair). With
// ignoreMerges (Llama 3), a word that is itself a token is emitted whole.

#include "engine/tokenizer/mergeranks.h"
#include "engine/tokenizer/pretokenizer.h"
#include "engine/tokenizer/tokenid.h"
#include "engine/tokenizer/tokenindex.h"

#include <string>
#include <string_view>
#include <vector>

namespace ws {

class BpeEncoder
{
public:
    BpeEncoder() = default;
    // `merges`: see MergeRanks.
    BpeEncoder(const std::vector<std::string>& merges, const TokenIndex& index, PreTokenizer preTokenizer,
               bool ignoreMerges);

    size_t mergeCount() const { return m_ranks.size(); }

    void encode(std::string_view text, const TokenIndex& index, std::vector<TokenId>& out) const;

    // One pre-tokenized word, already in the byte alphabet.
    void encodeWord(std::string_view word, const TokenIndex& index, std::vector<TokenId>& out) const;

private:
    MergeRanks m_ranks;
    PreTokenizer m_preTokenizer;
    bool m_ignoreMerges = false;
};

} // namespace ws
