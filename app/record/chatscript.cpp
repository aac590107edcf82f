#include "app/record/chatscript.h"

#include "engine/decode/decodemodel.h"
#include "engine/decode/generator.h"
#include "engine/tokenizer/streamingdecoder.h"
#include "engine/tokenizer/tokenizer.h"

#include <QFileInfo>

namespace ws {

std::optional<ChatScript> ChatScript::generate(const QString& ggufPath, const QString& prompt, int tokens,
                                               QString* error)
{
    auto model = DecodeModel::load(ggufPath.toStdString());
    if (!model) {
        *error = QString::fromStdString(model.error().message());
        return std::nullopt;
    }
    const GgufFile* gguf = model->gguf();
    if (!gguf) {
        *error = tr("%1: --model-file must be a GGUF file (it carries its tokenizer)").arg(ggufPath);
        return std::nullopt;
    }
    auto tokenizer = Tokenizer::fromGguf(*gguf);
    if (!tokenizer) {
        *error = QString::fromStdString(tokenizer.error().message());
        return std::nullopt;
    }
    const std::vector<TokenId> promptTokens = tokenizer->encode(prompt.toStdString(), true, false);
    if (promptTokens.empty()) {
        *error = tr("the prompt is empty and the model adds no BOS token: give --prompt");
        return std::nullopt;
    }
    if (int64_t(promptTokens.size()) >= model->config().contextLength) {
        *error = tr("the prompt has %1 tokens, the model's context only %2")
                     .arg(promptTokens.size())
                     .arg(model->config().contextLength);
        return std::nullopt;
    }
    GenerationSettings settings;
    settings.maxTokens = tokens; // greedy: the default sampler settings have temperature 0
    const int context = int(std::min<int64_t>(int64_t(promptTokens.size()) + tokens, model->config().contextLength));
    Generator generator(*model, context, 0);
    StreamingDecoder stream(*tokenizer);
    ChatScript script;
    script.modelName = QFileInfo(ggufPath).fileName();
    std::string text;
    auto result = generator.generate(promptTokens, settings, [&](TokenId id) {
        text += stream.push(id);
        script.textAfterToken << QString::fromStdString(text);
        return true;
    });
    if (!result) {
        *error = QString::fromStdString(result.error().message());
        return std::nullopt;
    }
    text += stream.flush();
    if (!script.textAfterToken.isEmpty())
        script.textAfterToken.last() = QString::fromStdString(text);
    script.cpuTokensPerSecond = result->tokensPerSecond();
    return script;
}

QString ChatScript::textAt(int token) const
{
    if (token <= 0 || textAfterToken.isEmpty())
        return {};
    return textAfterToken.at(std::min<qsizetype>(token, textAfterToken.size()) - 1);
}

} // namespace ws
