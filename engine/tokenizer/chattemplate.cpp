#include "engine/tokenizer/chattemplate.h"

#include "engine/tokenizer/tokenizer.h"

namespace ws {

namespace {

// llama.cpp's trim(): strips ASCII whitespace at both ends.
std::string_view trim(std::string_view s)
{
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; };
    size_t begin = 0;
    size_t end = s.size();
    while (begin < end && space(s[begin]))
        ++begin;
    while (end > begin && space(s[end - 1]))
        --end;
    return s.substr(begin, end - begin);
}

} // namespace

ChatTemplate ChatTemplate::detect(std::string_view templateText, std::string_view architecture)
{
    const auto contains = [&](std::string_view needle) { return templateText.find(needle) != std::string_view::npos; };
    if (contains("<|im_start|>"))
        return ChatTemplate(Kind::ChatMl);
    if (contains("<|start_header_id|>") && contains("<|end_header_id|>"))
        return ChatTemplate(Kind::Llama3);
    if (templateText.empty() && architecture.starts_with("qwen"))
        return ChatTemplate(Kind::ChatMl);
    return ChatTemplate(Kind::Plain);
}

std::string ChatTemplate::unrenderedName(std::string_view templateText)
{
    if (templateText.empty() || detect(templateText, {}).isChat())
        return {};
    const auto contains = [&](std::string_view needle) { return templateText.find(needle) != std::string_view::npos; };
    return contains("<|start|>") && contains("<|message|>") ? "harmony" : "unrecognised";
}

ChatTemplate ChatTemplate::forTokenizer(const Tokenizer& tokenizer)
{
    return detect(tokenizer.vocab().chatTemplate, tokenizer.vocab().architecture);
}

const char* ChatTemplate::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Plain:
        return "plain";
    case Kind::ChatMl:
        return "chatml";
    case Kind::Llama3:
        return "llama3";
    }
    return "plain";
}

std::string ChatTemplate::apply(const std::vector<ChatMessage>& messages, bool addGenerationPrompt) const
{
    std::string out;
    switch (m_kind) {
    case Kind::ChatMl:
        for (const ChatMessage& m : messages)
            out += "<|im_start|>" + m.role + "\n" + m.content + "<|im_end|>\n";
        if (addGenerationPrompt)
            out += "<|im_start|>assistant\n";
        break;
    case Kind::Llama3:
        for (const ChatMessage& m : messages) {
            out += "<|start_header_id|>" + m.role + "<|end_header_id|>\n\n";
            out += trim(m.content);
            out += "<|eot_id|>";
        }
        if (addGenerationPrompt)
            out += "<|start_header_id|>assistant<|end_header_id|>\n\n";
        break;
    case Kind::Plain:
        for (size_t i = 0; i < messages.size(); ++i) {
            if (i > 0)
                out += "\n";
            out += messages[i].content;
        }
        break;
    }
    return out;
}

} // namespace ws
