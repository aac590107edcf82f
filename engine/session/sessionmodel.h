#pragma once
// A session model is a loaded model (weights, tokenizer, chat template) that
// can start chat turns. The worker thread that owns the live session owns
// the one SessionModel; every turn gets a fresh TokenStream from startTurn().
// The production implementation wraps the decode engine's Generator
// (GeneratorSessionModel); tests use a scripted one.

#include "engine/core/error.h"
#include "engine/decode/modelsummary.h"
#include "engine/model/modelconfig.h"
#include "engine/session/chatturn.h"
#include "engine/session/tokenstream.h"

#include <memory>
#include <string>

namespace ws {

struct SessionModelInfo
{
    std::string filePath;
    std::string displayName;      // general.name, else the file name
    ModelConfig config;           // architecture: becomes the placed model
    bool hasChatTemplate = false; // instruct model: Auto mode uses the template
    std::string templateName;     // "chatml", "llama3", empty for none
    // The file's tokenizer.chat_template when it cannot be rendered (ChatTemplate::unrenderedName: "harmony",
    // "unrecognised"): the model then runs in completion mode, as a base model does, and the chat says why.
    std::string unrenderedTemplate;
    int64_t fileBytes = 0;
    // Architecture, parameters, tensor types and the memory needed at the context it was opened for.
    ModelSummary summary;
};

class SessionModel
{
public:
    virtual ~SessionModel() = default;

    virtual const SessionModelInfo& info() const = 0;
    // Builds the prompt for `request` and returns a stream positioned before
    // the first new token. Errors: empty conversation, prompt longer than the
    // context, bad sampling settings.
    virtual Expected<std::unique_ptr<TokenStream>> startTurn(const TurnRequest& request) = 0;
};

} // namespace ws
