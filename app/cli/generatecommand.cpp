// waferscope-cli generate: text in, text out through the decode engine.
// The model is loaded as the chat loads it (GeneratorSessionModel: a GGUF
// file with its own tokenizer, or a llama2.c checkpoint with --tokenizer or
// the tokenizer beside it), the prompt is one completion turn (BOS when the
// vocabulary adds one, as llama.cpp), and the turn runs through the chat's
// pipeline (runTurn). The text is printed as it streams, or as one JSON
// object with --json.
#include "app/cli/cliutil.h"
#include "app/cli/commands.h"

#include "engine/decode/decodemodel.h"
#include "engine/session/generatorsessionmodel.h"
#include "engine/session/turnrun.h"

#include <QJsonArray>
#include <QJsonObject>

#include <cstdio>
#include <limits>

namespace ws::cli {

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
        {QStringLiteral("mmap"), QStringLiteral("Map the model file instead of reading it into memory (slower to "
                                                "decode, quicker to open; a file larger than half the free "
                                                "memory is always mapped).")},
        {QStringLiteral("json"), QStringLiteral("Print one JSON object.")},
    });
    if (!parseArgs(parser, QStringLiteral("generate"), args))
        return kExitBadInput;
    if (!parser.isSet(QStringLiteral("model")))
        return fail(QStringLiteral("generate: --model FILE is required"));
    const auto tokens = intOption(parser, QStringLiteral("tokens"), 128, 1, 1 << 20);
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

    GeneratorSessionModel::Options options;
    options.threads = int(*threads);
    options.tokenizerPath = parser.value(QStringLiteral("tokenizer")).toStdString();
    options.mapWeights = parser.isSet(QStringLiteral("mmap"));
    auto model = GeneratorSessionModel::load(parser.value(QStringLiteral("model")).toStdString(), options);
    if (!model)
        return fail(QString::fromStdString(model.error().message()));

    TurnRequest request;
    request.messages = {{ChatRole::User, parser.value(QStringLiteral("prompt")).toStdString()}};
    request.mode = PromptMode::Completion;
    request.maxTokens = int(*tokens);
    request.sampling.temperature = float(*temperature);
    request.sampling.topK = int(*topK);
    request.sampling.topP = float(*topP);
    request.sampling.minP = float(*minP);
    request.sampling.repetitionPenalty = float(*penalty);
    request.sampling.seed = uint64_t(*seed);
    const auto promptTokens = (*model)->promptTokens(request);
    if (!promptTokens)
        return fail(QStringLiteral("generate: ") + QString::fromStdString(promptTokens.error().message()));

    auto run = runTurn(**model, request, [json](const SessionSnapshot& snapshot) {
        if (json)
            return;
        for (const TokenPiece& piece : snapshot.newPieces)
            std::fwrite(piece.text.data(), 1, piece.text.size(), stdout);
        std::fflush(stdout);
    });
    if (!run)
        return fail(QString::fromStdString(run.error().message()));
    const SessionSnapshot& last = *run->last;
    if (!json) {
        std::fputc('\n', stdout);
        return kExitOk;
    }
    QJsonArray promptArray, tokenArray;
    for (TokenId id : *promptTokens)
        promptArray.append(id);
    for (TokenId id : run->tokens())
        tokenArray.append(id);
    // Decode speed after the first token (as llama.cpp's eval time); with one token, that token's.
    const double tokensPerSecond = last.cpuTokensPerSecond > 0  ? last.cpuTokensPerSecond
                                   : last.firstTokenSeconds > 0 ? last.generatedTokens / last.firstTokenSeconds
                                                                : 0.0;
    QJsonObject out;
    out.insert(QStringLiteral("prompt_tokens"), promptArray);
    out.insert(QStringLiteral("tokens"), tokenArray);
    out.insert(QStringLiteral("text"), QString::fromStdString(last.text));
    out.insert(QStringLiteral("tokens_per_second"), tokensPerSecond);
    out.insert(QStringLiteral("prompt_seconds"), last.firstTokenSeconds); // prompt evaluation + first token
    out.insert(QStringLiteral("stop_reason"), QString::fromLatin1(turnEndName(last.finishReason)));
    out.insert(QStringLiteral("threads"), (*model)->threadCount());
    out.insert(QStringLiteral("weights"),
               (*model)->model().weightsResident() ? QStringLiteral("resident") : QStringLiteral("mapped"));
    printJson(out);
    return kExitOk;
}

} // namespace ws::cli
