// Both tokenizers (SPM: Llama 2's vocabulary; BPE: Qwen3's), fixed real vocabularies: the first byte picks
// one; the rest is encoded as arbitrary bytes (with and without special-token parsing) and, read as
// 16-bit ids, decoded through the streaming decoder.
#include "engine/tokenizer/streamingdecoder.h"
#include "engine/tokenizer/tokenizer.h"
#include "tests/fuzz/fuzzinput.h"
#include "tests/fuzz/fuzzvocab.h"

#include <memory>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const ws::Tokenizer* spm = wsfuzz::loadVocabulary("tokenizer/ggml-vocab-llama-spm.gguf");
    static const ws::Tokenizer* bpe = wsfuzz::loadVocabulary("tokenizer/ggml-vocab-qwen3.gguf");
    if (size < 1)
        return 0;
    const ws::Tokenizer* tokenizer = (data[0] & 1) ? bpe : spm;
    if (!tokenizer)
        __builtin_trap(); // the vocabularies must load: WAFERSCOPE_TEST_MODELS
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    (void)tokenizer->encode(text, true, (data[0] & 2) != 0);
    ws::StreamingDecoder decoder(*tokenizer);
    for (size_t i = 1; i + 1 < size; i += 2) {
        const int id = int(data[i] | (data[i + 1] << 8)) % (tokenizer->vocabSize() + 8) - 4; // a few invalid
        (void)decoder.push(ws::TokenId(id));
    }
    (void)decoder.flush();
    return 0;
}
