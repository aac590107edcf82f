#pragma once
// A token stream is one running generation: the prompt has been (or will be,
// on the first next()) evaluated, and each next() runs one decode step and
// returns the new token with the text it completes. Text pieces are whole
// UTF-8 characters (a token that ends inside a multi-byte character gives an
// empty piece and the character comes with a later token). A stream is used
// by one thread only.
//
// The stream, not its consumer, decides when generation ends: the generator
// behind it is the one place that checks end of generation, the token limit
// of the turn and the model's context, and a final step says which it was.

#include "engine/core/error.h"
#include "engine/decode/expertrouting.h"
#include "engine/decode/turnend.h"
#include "engine/tokenizer/tokenid.h"

#include <functional>
#include <memory>
#include <string>

namespace ws {

struct TokenStep
{
    TokenId token = 0;
    std::string text;                       // UTF-8 text this token completes (may be empty)
    bool endOfText = false;                 // the stream is over: this step has no new token (why: `end`); text may
                                            // still hold bytes that were waiting for the rest of a character
    TurnEnd end = TurnEnd::EndOfGeneration; // the generator's reason; a user's stop is ErrorCode::Cancelled
    // MoE models: the experts the step that produced this token ran through (its input token's
    // routing, per layer); null for dense models.
    std::shared_ptr<const ExpertRouting> routing;
};

class TokenStream
{
public:
    virtual ~TokenStream() = default;

    // Prompt length in tokens (including BOS when the model adds one).
    virtual int promptTokenCount() const = 0;
    // Of those, the tokens whose keys and values were kept from the previous turn (known once the
    // first next() has evaluated the prompt); the rest were evaluated.
    virtual int reusedPromptTokenCount() const { return 0; }
    // Messages of the conversation left out of the prompt to fit the context (ContextFullPolicy::DropOldest).
    virtual int droppedMessageCount() const { return 0; }
    // The context the turn runs in (tokens), 0 where unknown.
    virtual int contextTokenCount() const { return 0; }
    // Called while the first next() evaluates the prompt, after each block of it: prompt tokens evaluated
    // so far and those to evaluate (the reused prefix excluded); returning false stops the prompt (next()
    // then fails with ErrorCode::Cancelled). A stream that evaluates its prompt in one go never calls it.
    using PromptProgress = std::function<bool(int evaluated, int total)>;
    virtual void setPromptProgress(PromptProgress) {}
    // One decode step (the first call also evaluates the prompt); after the
    // last token, one more call returns the end step.
    virtual Expected<TokenStep> next() = 0;
};

} // namespace ws
