// Chat templates: a GGUF's tokenizer.chat_template text picks how a conversation becomes the prompt
// (ChatTemplate::detect, with the architecture), and the prompt is encoded as the chat encodes it (BOS added,
// control tokens parsed) with a real vocabulary of that kind. The input is NUL-separated: the template text,
// the architecture, then role and content of each message.
#include "engine/tokenizer/chattemplate.h"
#include "engine/tokenizer/tokenizer.h"
#include "tests/fuzz/fuzzinput.h"
#include "tests/fuzz/fuzzvocab.h"

#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const ws::Tokenizer* chatMl = wsfuzz::loadVocabulary("tokenizer/ggml-vocab-qwen3.gguf");
    static const ws::Tokenizer* llama3 = wsfuzz::loadVocabulary("tokenizer/ggml-vocab-llama3.gguf");
    if (!chatMl || !llama3)
        __builtin_trap(); // the vocabularies must load: WAFERSCOPE_TEST_MODELS
    std::vector<std::string> fields(1);
    for (size_t i = 0; i < size; ++i) {
        if (data[i] == 0)
            fields.emplace_back();
        else
            fields.back() += char(data[i]);
    }
    fields.resize(std::max<size_t>(fields.size(), 2));
    const ws::ChatTemplate chat = ws::ChatTemplate::detect(fields[0], fields[1]);
    const std::string unrendered = ws::ChatTemplate::unrenderedName(fields[0]);
    if (chat.isChat() && !unrendered.empty())
        __builtin_trap(); // a template is rendered or named as unrendered, never both
    std::vector<ws::ChatMessage> messages;
    for (size_t i = 2; i + 1 < fields.size(); i += 2)
        messages.push_back({fields[i], fields[i + 1]});
    const ws::Tokenizer& tokenizer = chat.kind() == ws::ChatTemplate::Kind::ChatMl ? *chatMl : *llama3;
    for (bool generationPrompt : {true, false}) {
        const std::string prompt = chat.apply(messages, generationPrompt);
        const auto ids = tokenizer.encode(prompt, true, true);
        (void)tokenizer.decode(ids);
    }
    return 0;
}
