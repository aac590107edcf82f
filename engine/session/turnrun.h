#pragma once
// One turn run to its end on the calling thread, for the drivers without a
// worker thread: `waferscope-cli generate` and the recording's chat script.
// It is the chat's pipeline (SessionModel::startTurn, then DecodeSession
// over the token stream), so all three give the same text for the same
// model, prompt and settings. Every token's piece is kept, in order.

#include "engine/core/error.h"
#include "engine/session/chatturn.h"
#include "engine/session/sessionsnapshot.h"

#include <functional>
#include <memory>
#include <vector>

namespace ws {

class SessionModel;

struct TurnRun
{
    std::vector<TokenPiece> pieces;              // every shown token in order (and held-back bytes, token -1)
    std::shared_ptr<const SessionSnapshot> last; // the final snapshot: text, counts, timings, finish reason

    std::vector<TokenId> tokens() const; // the generated ids
};

// `onSnapshot` sees every published snapshot (throttled), e.g. to print its new pieces. Errors: the
// request's (startTurn) or the generator's (then `last` would have been Failed).
Expected<TurnRun> runTurn(SessionModel& model, const TurnRequest& request,
                          const std::function<void(const SessionSnapshot&)>& onSnapshot = {});

} // namespace ws
