#pragma once
// What the worker thread publishes while a chat turn runs: the assistant text
// so far, token counts and timings on this CPU, and for each compared system
// the time the engine's predictor says the same tokens would take there. A
// snapshot is immutable once published and travels to the GUI as
// std::shared_ptr<const SessionSnapshot>; requestId lets the receiver drop
// snapshots of a request it has cancelled.

#include "engine/core/error.h"
#include "engine/decode/expertrouting.h"
#include "engine/decode/turnend.h"
#include "engine/tokenizer/tokenid.h"
#include "engine/wafer/placement/meshsnapshot.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ws {

// One compared system's predicted speed for the loaded model (from the
// engine/predict predictor of that hardware; not measured here).
struct SystemPace
{
    std::string id;   // hardware preset id, e.g. "wse3"
    std::string name; // display name
    double tokensPerSecondPerUser = 0;
    double firstTokenSeconds = 0; // predicted time to first token

    // Predicted wall time until `tokens` new tokens are out (0 for 0 tokens).
    double secondsForTokens(int tokens) const;
    // Tokens out after `seconds` at this pace (fractional, not capped).
    double tokensAfter(double seconds) const;
};

// One shown token and the text it completed (whole UTF-8 characters, may be
// empty). token is -1 for bytes that were held back for the rest of a
// character and came out only when the turn ended.
struct TokenPiece
{
    TokenId token = -1;
    std::string text;
};

enum class TurnState
{
    Running,
    Finished,
    Stopped,
    Failed
};

struct SessionSnapshot
{
    uint64_t requestId = 0;
    TurnState state = TurnState::Running;
    TurnEnd finishReason = TurnEnd::None;
    std::optional<Error> error; // set when state == Failed

    std::string text; // assistant text so far, whole UTF-8 characters
    int promptTokens = 0;
    int reusedPromptTokens = 0; // of promptTokens, kept in the KV cache from the previous turn
    // While the prompt is read: its tokens evaluated so far of those to evaluate (promptTokens less the
    // reused ones); both 0 until the first block of it is done. "Reading the prompt: N of M tokens".
    int promptEvaluatedTokens = 0;
    int promptTokensToEvaluate = 0;
    int droppedMessages = 0; // oldest messages left out of the prompt to fit the context
    int contextTokens = 0;   // the context the turn runs in, 0 where unknown
    int generatedTokens = 0; // new tokens shown (an end-of-text token is not counted)
    TokenId lastToken = -1;
    // The tokens shown since the previous snapshot of this turn, in order,
    // with their text: their texts joined are exactly what `text` gained
    // since then (snapshots are throttled, so one may carry many tokens).
    std::vector<TokenPiece> newPieces;

    double elapsedSeconds = 0;        // wall time since the turn started (with pacing waits)
    double firstTokenSeconds = 0;     // CPU: prompt evaluation + first decode step
    double promptSeconds = 0;         // CPU: the prompt's evaluation alone, once done (0 until then)
    double promptTokensPerSecond = 0; // promptTokensToEvaluate / promptSeconds, 0 until known
    double decodeSeconds = 0;         // CPU: time in decode steps after the first token
    double cpuTokensPerSecond = 0;    // (generatedTokens - 1) / decodeSeconds, 0 until known
    // Pacing: the time tokens were held back to match a system's pace, and the latest the thread woke
    // after a token's due moment (the OS's wake-up lateness). elapsedSeconds - heldBackSeconds is the
    // session's own work: decode steps, the wafer frames it builds for the views, handing snapshots over.
    double heldBackSeconds = 0;
    double latestWakeSeconds = 0;

    std::vector<SystemPace> systems;       // compared systems (predicted), for the stats line
    std::shared_ptr<const MeshFrame> mesh; // wafer frame for lastToken, may be null
    // MoE models: the experts the step that produced lastToken ran through (TokenStep::routing); null
    // for dense models. The chat's wafer lights these experts.
    std::shared_ptr<const ExpertRouting> routing;

    bool isFinal() const { return state != TurnState::Running; }
};

} // namespace ws
