#pragma once
// One chat turn as the session sees it: the conversation so far (system,
// user and assistant messages, oldest first), how to turn it into a prompt
// (the model's chat template, or plain completion for base models), the
// sampling settings and the token limit. Plain data, built by the app from
// the chat pane and handed to the worker thread by value. The sampling
// settings are the sampler's own type (SamplerSettings): the chat pane, the
// CLI and the recording fill the one struct the sampler reads.
//
// The context a conversation may use and what happens when it is full are
// the request's too: Stop ends the reply when the context has no position
// left (the conversation must fit it); DropOldest leaves the oldest turns
// out of the prompt (the system prompt stays) until the prompt and the
// token limit fit, and the turn's snapshot says how many messages it left out.

#include "engine/decode/kvcachetype.h"
#include "engine/decode/sampler.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ws {

enum class ChatRole
{
    System,
    User,
    Assistant
};

struct TurnMessage
{
    ChatRole role = ChatRole::User;
    std::string content; // UTF-8
};

// Auto: the chat template when the model has one (instruct models), else
// completion. Completion: the messages' contents are concatenated as one
// running text (a base model continues the story).
enum class PromptMode
{
    Auto,
    Chat,
    Completion
};

enum class ContextFullPolicy
{
    Stop,
    DropOldest
};

struct TurnRequest
{
    std::vector<TurnMessage> messages; // ends with the user message to answer
    PromptMode mode = PromptMode::Auto;
    SamplerSettings sampling;
    int maxTokens = 256;                // new tokens at most
    int contextLength = 0;              // tokens the conversation may use; 0: the session model's own
    std::optional<KvCacheType> kvCache; // nullopt: the session model's own
    ContextFullPolicy contextFull = ContextFullPolicy::Stop;
};

} // namespace ws
