#pragma once
// Text <-> token ids for a model, exactly as llama.cpp tokenizes: the
// vocabulary's model (SentencePiece-style or byte-level BPE, see vocab.h),
// special tokens matched in the text before the model runs, BOS/EOS as the
// vocabulary asks, and the reverse direction (pieces and whole texts).
//
// Encoding, in llama.cpp's order:
//  1. special-token partition: control and unknown tokens (only with
//     parseSpecial) and user-defined tokens (always) are found as whole
//     strings, longest first, and cut out of the text;
//  2. each remaining text fragment goes through the SPM or BPE encoder
//     (SPM: " " is put in front when the fragment starts the text or follows
//     a special token and add_space_prefix is set; spaces become U+2581);
//  3. with addSpecial, BOS first if add_bos_token, EOS last if add_eos_token.
//
// A Tokenizer is immutable after loading, so one may be shared by threads.

#include "engine/core/error.h"
#include "engine/tokenizer/bpeencoder.h"
#include "engine/tokenizer/spmencoder.h"
#include "engine/tokenizer/tokenid.h"
#include "engine/tokenizer/tokenindex.h"
#include "engine/tokenizer/vocab.h"

#include <string>
#include <string_view>
#include <vector>

namespace ws {

class GgufFile;

class Tokenizer
{
public:
    // From GGUF metadata (tokenizer.ggml.*); see VocabLoader::fromGguf.
    static Expected<Tokenizer> fromGguf(const GgufFile& file);
    // From a llama2.c tokenizer.bin holding `vocabSize` tokens.
    static Expected<Tokenizer> fromLlama2cFile(const std::string& path, int vocabSize);
    static Expected<Tokenizer> fromVocab(Vocab vocab);

    // addSpecial: llama.cpp's add_special, i.e. add BOS (EOS) when the
    // vocabulary's add_bos_token (add_eos_token) says so; see addsBos().
    std::vector<TokenId> encode(std::string_view text, bool addSpecial, bool parseSpecial) const;

    // The bytes a token stands for (llama_token_to_piece with special = true):
    // control and user-defined tokens give their text, byte tokens their byte,
    // unused tokens nothing. A piece may be part of a UTF-8 character.
    std::string piece(TokenId id) const;

    // Generated text: the pieces joined, control and unknown tokens left out,
    // nothing else changed (what llama.cpp prints while generating).
    std::string decode(const std::vector<TokenId>& ids) const;

    // llama_detokenize: like decode, but drops the leading space an SPM
    // vocabulary added, optionally drops BOS/EOS (removeSpecial), shows
    // control tokens (unparseSpecial) and applies the vocabulary's
    // clean_up_tokenization_spaces rules.
    std::string detokenize(const std::vector<TokenId>& ids, bool removeSpecial, bool unparseSpecial) const;

    TokenId bosId() const { return m_vocab.bosId; }
    TokenId eosId() const { return m_vocab.eosId; }
    TokenId eotId() const { return m_vocab.eotId; }
    bool addsBos() const { return m_vocab.addBos; }
    bool addsEos() const { return m_vocab.addEos; }
    bool isEndOfGeneration(TokenId id) const;
    const std::vector<TokenId>& endOfGenerationIds() const { return m_eogIds; }

    int vocabSize() const { return static_cast<int>(m_vocab.tokens.size()); }
    bool isValid(TokenId id) const { return id >= 0 && id < vocabSize(); }
    const std::string& tokenText(TokenId id) const;
    TokenType tokenType(TokenId id) const;
    TokenId findToken(std::string_view text) const { return m_index.find(text); }
    const Vocab& vocab() const { return m_vocab; }

private:
    struct Fragment
    {
        TokenId token = kNoToken; // a special token, or kNoToken for raw text
        size_t offset = 0;        // raw text: byte range in the input
        size_t length = 0;
    };

    Tokenizer() = default;
    std::vector<Fragment> partition(std::string_view text, bool parseSpecial) const;
    std::string tokenPiece(TokenId id, bool special) const;

    Vocab m_vocab;
    TokenIndex m_index;
    SpmEncoder m_spm;
    BpeEncoder m_bpe;
    std::vector<TokenId> m_specialTokens; // control, unknown, user-defined; longest text first
    std::vector<TokenId> m_eogIds;        // sorted
};

} // namespace ws
