#pragma once
// A tokenizer vocabulary as plain data, independent of the file it came from
// (GGUF metadata tokenizer.ggml.* or a llama2.c tokenizer.bin). Two models:
//
// * Spm: SentencePiece-style ("llama" in GGUF). Token texts use U+2581 "▁"
//   for a space; encoding merges the adjacent pair whose merged text is the
//   token with the highest score; bytes with no token fall back to <0xHH>
//   byte tokens; a space is put in front of the text (add_space_prefix).
// * Bpe: byte-level BPE ("gpt2" in GGUF). Token texts are written in GPT-2's
//   byte alphabet (unicode::byteToCharacter); the text is first cut into words
//   by a pre-tokenizer, then merged by the rank of the pair in `merges`.
//
// Token types are GGUF's tokenizer.ggml.token_type values. Control, unknown
// and user-defined tokens are "special": they are matched as whole strings in
// the input before the model runs (control and unknown only when special
// parsing is on; user-defined ones always, as llama.cpp does).

#include "engine/core/error.h"
#include "engine/tokenizer/tokenid.h"

#include <string>
#include <vector>

namespace ws {

enum class VocabModel
{
    Spm,
    Bpe
};

enum class TokenType : int32_t
{
    Undefined = 0,
    Normal = 1,
    Unknown = 2,
    Control = 3,
    UserDefined = 4,
    Unused = 5,
    Byte = 6,
};

// Pre-tokenizer of a Bpe vocabulary, from GGUF tokenizer.ggml.pre.
enum class PreTokenizerKind
{
    None,
    Llama3,
    Qwen2
};

constexpr TokenId kNoToken = -1;

struct Vocab
{
    VocabModel model = VocabModel::Spm;
    PreTokenizerKind preTokenizer = PreTokenizerKind::None;
    std::string preTokenizerName; // tokenizer.ggml.pre as written

    std::vector<std::string> tokens; // (vocab) token texts
    std::vector<float> scores;       // (vocab) Spm merge priority; empty for Bpe
    std::vector<TokenType> types;    // (vocab)
    std::vector<std::string> merges; // Bpe: "left right", rank = index

    TokenId bosId = kNoToken;
    TokenId eosId = kNoToken;
    TokenId unknownId = kNoToken;
    TokenId eotId = kNoToken; // end of turn (<|eot_id|>, <|im_end|>), if any
    TokenId eomId = kNoToken; // end of message (<|eom_id|>), if any
    TokenId padId = kNoToken;

    bool addBos = false;
    bool addEos = false;
    bool addSpacePrefix = false; // Spm: put " " before text that follows BOS/start or a special token
    bool ignoreMerges = false;   // Bpe (llama-bpe): a word that is a whole token skips merging
    bool cleanSpaces = false;    // detokenize: " ," -> ",", " 's" -> "'s" (clean_up_tokenization_spaces)

    std::string chatTemplate; // tokenizer.chat_template, if any
    std::string architecture; // general.architecture, if known

    // Sizes agree, special ids are in range, Bpe has a known pre-tokenizer.
    Status validate() const;
};

} // namespace ws
