#include "app/record/chatscript.h"

#include "engine/session/generatorsessionmodel.h"
#include "engine/session/turnrun.h"

#include <QFileInfo>

namespace ws {

std::optional<ChatScript> ChatScript::generate(const QString& modelPath, const QString& prompt, int tokens,
                                               QString* error)
{
    auto model = GeneratorSessionModel::load(modelPath.toStdString());
    if (!model) {
        *error = QString::fromStdString(model.error().message());
        return std::nullopt;
    }
    // The chat's own turn: one completion of the prompt, greedy (the sampler's defaults).
    TurnRequest request;
    request.messages = {{ChatRole::User, prompt.toStdString()}};
    request.mode = PromptMode::Completion;
    request.maxTokens = tokens;
    auto run = runTurn(**model, request);
    if (!run) {
        *error = QString::fromStdString(run.error().message());
        return std::nullopt;
    }
    ChatScript script;
    script.modelName = QFileInfo(modelPath).fileName();
    std::string text;
    for (const TokenPiece& piece : run->pieces) {
        text += piece.text;
        if (piece.token >= 0)
            script.textAfterToken << QString::fromStdString(text);
        else if (!script.textAfterToken.isEmpty())
            script.textAfterToken.last() = QString::fromStdString(text); // bytes held back to the end
    }
    script.cpuTokensPerSecond = run->last->cpuTokensPerSecond;
    return script;
}

QString ChatScript::textAt(int token) const
{
    if (token <= 0 || textAfterToken.isEmpty())
        return {};
    return textAfterToken.at(std::min<qsizetype>(token, textAfterToken.size()) - 1);
}

} // namespace ws
