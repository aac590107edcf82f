// waferscope-cli generate: text in, text out through the decode engine.
// Loads a GGUF model (tokenizer from its metadata) or a llama2.c checkpoint
// (tokenizer from --tokenizer, else tok512.bin / tokenizer.bin beside the
// model), encodes the prompt as llama.cpp does (BOS when the vocabulary adds
// one), generates, and prints the text as it streams, or one JSON object
// with --json.
#include "app/cli/cliutil.h"
#include "app/cli/commands.h"

#include "engine/decode/decodemodel.h"
#include "engine/decode/generator.h"
#include "engine/tokenizer/streamingdecoder.h"
#include "engine/tokenizer/tokenizer.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

#include <cstdio>
#include <limits>
#include <optional>

namespace ws::cli {

namespace {

std::optional<Tokenizer> loadTokenizer(const DecodeModel& model, const QString& tokenizerOption, QString& error)
{
    if (const GgufFile* gguf = model.gguf()) {
        auto t = Tokenizer::fromGguf(*gguf);
        if (!t) {
            error = QString::fromStdString(t.error().message());
            return std::nullopt;
        }
        return std::move(*t);
    }
    QString path = tokenizerOption;
    if (path.isEmpty()) {
        const QDir dir = QFileInfo(QString::fromStdString(model.path())).absoluteDir();
        for (const char* name : {"tok512.bin", "tokenizer.bin"}) {
            if (QFileInfo::exists(dir.filePath(QLatin1String(name)))) {
                path = dir.filePath(QLatin1String(name));
                break;
            }
        }
        if (path.isEmpty()) {
            error = QStringLiteral("%1: a llama2.c model needs a tokenizer: pass --tokenizer FILE or put "
                                   "tokenizer.bin beside the model")
                        .arg(QString::fromStdString(model.path()));
            return std::nullopt;
        }
    }
    auto t = Tokenizer::fromLlama2cFile(path.toStdString(), model.config().vocabSize);
    if (!t) {
        error = QString::fromStdString(t.error().message());
        return std::nullopt;
    }
    return std::move(*t);
}

} // namespace

int runGenerate(const QStringList& args)
{
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOptions({
        {QStringLiteral("model"), QStringLiteral("GGUF file or llama2.c checkpoint."), QStringLiteral("FILE")},
        {QStringLiteral("tokenizer"), QStringLiteral("llama2.c tokenizer.bin (llama2.c models only)."),
         QStringLiteral("FILE")},
        {QStringLiteral("prompt"), QStringLiteral("Prompt text (default: empty, BOS only)."), QStringLiteral("TEXT")},
        {QStringLiteral("tokens"), QStringLiteral("Tokens to generate (default 128)."), QStringLiteral("N")},
        {QStringLiteral("temperature"), QStringLiteral("0 = greedy (default)."), QStringLiteral("T")},
        {QStringLiteral("top-k"), QStringLiteral("Top-k (0 = off)."), QStringLiteral("K")},
        {QStringLiteral("top-p"), QStringLiteral("Top-p (1 = off)."), QStringLiteral("P")},
        {QStringLiteral("min-p"), QStringLiteral("Min-p (0 = off)."), QStringLiteral("P")},
        {QStringLiteral("repeat-penalty"), QStringLiteral("Repetition penalty (1 = off)."), QStringLiteral("R")},
        {QStringLiteral("seed"), QStringLiteral("Sampling seed (default 0)."), QStringLiteral("S")},
        {QStringLiteral("threads"), QStringLiteral("Threads (default: all cores)."), QStringLiteral("N")},
        {QStringLiteral("json"), QStringLiteral("Print one JSON object.")},
    });
    if (!parseArgs(parser, QStringLiteral("generate"), args))
        return kExitBadInput;
    if (!parser.isSet(QStringLiteral("model")))
        return fail(QStringLiteral("generate: --model FILE is required"));
    const auto tokens = intOption(parser, QStringLiteral("tokens"), 128, 0, 1 << 20);
    const auto temperature = doubleOption(parser, QStringLiteral("temperature"), 0.0, 0.0, 100.0);
    const auto topK = intOption(parser, QStringLiteral("top-k"), 0, 0, 1 << 24);
    const auto topP = doubleOption(parser, QStringLiteral("top-p"), 1.0, 1e-6, 1.0);
    const auto minP = doubleOption(parser, QStringLiteral("min-p"), 0.0, 0.0, 1.0);
    const auto penalty = doubleOption(parser, QStringLiteral("repeat-penalty"), 1.0, 0.01, 10.0);
    const auto seed = intOption(parser, QStringLiteral("seed"), 0, 0, std::numeric_limits<long long>::max());
    const auto threads = intOption(parser, QStringLiteral("threads"), 0, 0, 256);
    if (!tokens || !temperature || !topK || !topP || !minP || !penalty || !seed || !threads)
        return kExitBadInput;
    const bool json = parser.isSet(QStringLiteral("json"));

    auto model = DecodeModel::load(parser.value(QStringLiteral("model")).toStdString());
    if (!model)
        return fail(QString::fromStdString(model.error().message()));
    QString tokenizerError;
    const auto tokenizer = loadTokenizer(*model, parser.value(QStringLiteral("tokenizer")), tokenizerError);
    if (!tokenizer)
        return fail(tokenizerError);
    const std::string prompt = parser.value(QStringLiteral("prompt")).toStdString();
    const std::vector<TokenId> promptTokens = tokenizer->encode(prompt, true, false);
    if (promptTokens.empty())
        return fail(QStringLiteral("generate: the prompt is empty and the model adds no BOS token"));
    if (int64_t(promptTokens.size()) > model->config().contextLength)
        return fail(QStringLiteral("generate: the prompt has %1 tokens, more than the model's context of %2")
                        .arg(promptTokens.size())
                        .arg(model->config().contextLength));

    GenerationSettings settings;
    settings.maxTokens = int(*tokens);
    settings.sampling.temperature = float(*temperature);
    settings.sampling.topK = int(*topK);
    settings.sampling.topP = float(*topP);
    settings.sampling.minP = float(*minP);
    settings.sampling.repetitionPenalty = float(*penalty);
    settings.sampling.seed = uint64_t(*seed);
    const int context = int(std::min<int64_t>(int64_t(promptTokens.size()) + *tokens, model->config().contextLength));
    Generator generator(*model, context, int(*threads));

    StreamingDecoder stream(*tokenizer);
    std::string text;
    auto result = generator.generate(promptTokens, settings, [&](TokenId id) {
        const std::string piece = stream.push(id);
        text += piece;
        if (!json) {
            std::fwrite(piece.data(), 1, piece.size(), stdout);
            std::fflush(stdout);
        }
        return true;
    });
    if (!result)
        return fail(QString::fromStdString(result.error().message()));
    const std::string tail = stream.flush();
    text += tail;
    if (!json) {
        std::fwrite(tail.data(), 1, tail.size(), stdout);
        std::fputc('\n', stdout);
        return kExitOk;
    }
    QJsonArray promptArray, tokenArray;
    for (TokenId id : promptTokens)
        promptArray.append(id);
    for (TokenId id : result->tokens)
        tokenArray.append(id);
    QJsonObject out;
    out.insert(QStringLiteral("prompt_tokens"), promptArray);
    out.insert(QStringLiteral("tokens"), tokenArray);
    out.insert(QStringLiteral("text"), QString::fromStdString(text));
    out.insert(QStringLiteral("tokens_per_second"), result->tokensPerSecond());
    out.insert(QStringLiteral("prompt_seconds"), result->promptSeconds);
    out.insert(QStringLiteral("stop_reason"), QString::fromLatin1(stopReasonName(result->reason)));
    out.insert(QStringLiteral("threads"), generator.threadCount());
    printJson(out);
    return kExitOk;
}

} // namespace ws::cli
