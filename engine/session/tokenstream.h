#pragma once
// A token stream is one running generation: the prompt has been (or will be,
// on the first next()) evaluated, and each next() runs one decode step and
// returns the new token with the text it completes. Text pieces are whole
// UTF-8 characters (a token that ends inside a multi-byte character gives an
// empty piece and the character comes with a later token). A stream is used
// by one thread only.

#include "engine/core/error.h"
#include "engine/tokenizer/tokenid.h"

#include <string>

namespace ws {

struct TokenStep
{
    TokenId token = 0;
    std::string text;       // UTF-8 text this token completes (may be empty)
    bool endOfText = false; // the model emitted an end-of-generation token (not shown)
};

class TokenStream
{
public:
    virtual ~TokenStream() = default;

    // Prompt length in tokens (including BOS when the model adds one).
    virtual int promptTokenCount() const = 0;
    // Positions left before the context is full.
    virtual int remainingContext() const = 0;
    // One decode step (the first call also evaluates the prompt).
    virtual Expected<TokenStep> next() = 0;
};

} // namespace ws
