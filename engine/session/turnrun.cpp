#include "engine/session/turnrun.h"

#include "engine/session/decodesession.h"
#include "engine/session/sessionmodel.h"

namespace ws {

std::vector<TokenId> TurnRun::tokens() const
{
    std::vector<TokenId> ids;
    for (const TokenPiece& p : pieces)
        if (p.token >= 0)
            ids.push_back(p.token);
    return ids;
}

Expected<TurnRun> runTurn(SessionModel& model, const TurnRequest& request,
                          const std::function<void(const SessionSnapshot&)>& onSnapshot)
{
    Expected<std::unique_ptr<TokenStream>> stream = model.startTurn(request);
    if (!stream)
        return stream.error();
    TurnRun run;
    DecodeSession session(DecodeOptions{});
    run.last = session.run(**stream, {}, [&](std::shared_ptr<const SessionSnapshot> s) {
        run.pieces.insert(run.pieces.end(), s->newPieces.begin(), s->newPieces.end());
        if (onSnapshot)
            onSnapshot(*s);
    });
    if (run.last->state == TurnState::Failed && run.last->error)
        return *run.last->error;
    return run;
}

} // namespace ws
