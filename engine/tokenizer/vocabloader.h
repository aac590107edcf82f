#pragma once
// Reads a tokenizer Vocab from where models keep it:
//
// * GGUF metadata, the keys llama.cpp reads: tokenizer.ggml.model ("llama" =
//   SentencePiece-style, "gpt2" = byte-level BPE), .tokens, .scores,
//   .token_type, .merges, .pre, .bos/eos/eot/eom/unknown/padding_token_id,
//   .add_bos_token, .add_eos_token, .add_space_prefix, plus
//   tokenizer.chat_template and general.architecture. Defaults follow
//   llama.cpp (SPM: BOS 1, EOS 2, unk 0, BOS added, space prefix; llama-bpe:
//   BOS added, whole-token words skip merges; qwen2: no space clean-up).
//   A special token id outside the vocabulary (such as 0xFFFFFFFF for "none")
//   is ignored, as llama.cpp does.
// * llama2.c's tokenizer.bin: int32 max_token_length, then per token a
//   float32 score, an int32 byte length and the bytes. Its texts use " " where
//   SentencePiece writes U+2581 and "\n<s>\n" / "\n</s>\n" for BOS/EOS; they
//   are converted so the result equals the GGUF vocabulary of the same model.

#include "engine/core/error.h"
#include "engine/tokenizer/vocab.h"

#include <string>

namespace ws {

class GgufFile;

class VocabLoader
{
public:
    static Expected<Vocab> fromGguf(const GgufFile& file);
    static Expected<Vocab> fromLlama2cFile(const std::string& path, int vocabSize);
};

} // namespace ws
