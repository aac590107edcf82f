#pragma once
// Chat templates: how a conversation becomes the prompt text of an
// instruction-tuned model. Two formats are built in, written exactly as
// llama.cpp's built-in templates write them:
//
// * ChatML (Qwen2/Qwen3):  <|im_start|>{role}\n{content}<|im_end|>\n ...
//                          then <|im_start|>assistant\n for the reply
// * Llama 3:               <|start_header_id|>{role}<|end_header_id|>\n\n
//                          {content, trimmed}<|eot_id|> ... then the
//                          assistant header for the reply
//
// and Plain for base models (stories260K): the message texts joined by "\n",
// no markup. The kind is detected from the GGUF tokenizer.chat_template text
// (the markers llama.cpp's llm_chat_detect_template looks for), else from the
// architecture (qwen* -> ChatML), else Plain.
//
// apply() does not add BOS: encode the result with addSpecial = true (the
// tokenizer adds BOS when the model wants it) and parseSpecial = true (so the
// markers become their control tokens).

#include <string>
#include <string_view>
#include <vector>

namespace ws {

class Tokenizer;

struct ChatMessage
{
    std::string role; // "system", "user", "assistant"
    std::string content;
};

class ChatTemplate
{
public:
    enum class Kind
    {
        Plain,
        ChatMl,
        Llama3
    };

    explicit ChatTemplate(Kind kind = Kind::Plain) : m_kind(kind) {}

    static ChatTemplate detect(std::string_view templateText, std::string_view architecture);
    // A non-empty template text that detect() cannot render: "harmony" (gpt-oss's <|start|>...<|message|>
    // format), else "unrecognised"; empty when the text is empty or renderable.
    static std::string unrenderedName(std::string_view templateText);
    static ChatTemplate forTokenizer(const Tokenizer& tokenizer);

    Kind kind() const { return m_kind; }
    bool isChat() const { return m_kind != Kind::Plain; }
    static const char* kindName(Kind kind);

    // The prompt text; with addGenerationPrompt, the opening of the assistant's turn follows.
    std::string apply(const std::vector<ChatMessage>& messages, bool addGenerationPrompt) const;

private:
    Kind m_kind;
};

} // namespace ws
