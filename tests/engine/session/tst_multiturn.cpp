// A conversation over several turns on the real test models: the KV cache is
// kept from turn to turn (the second turn evaluates only its own tokens and
// gives the text that evaluating the whole conversation from scratch gives)
// and the context-full policies. (The F16 cache against F32: tst_generator.)
#include "engine/session/generatorsessionmodel.h"
#include "engine/session/turnrun.h"
#include "tests/common/testmodels.h"

#include <QTest>

namespace {

std::unique_ptr<ws::GeneratorSessionModel> load(const std::string& path, int contextLength = 4096)
{
    ws::GeneratorSessionModel::Options options;
    options.threads = 1;
    options.contextLength = contextLength;
    auto model = ws::GeneratorSessionModel::load(path, options);
    if (!model)
        qWarning("%s", model.error().message().c_str());
    return model ? std::move(*model) : nullptr;
}

ws::TurnRequest request(std::vector<ws::TurnMessage> messages, ws::PromptMode mode, int maxTokens)
{
    ws::TurnRequest r;
    r.messages = std::move(messages);
    r.mode = mode;
    r.maxTokens = maxTokens;
    return r;
}

struct TwoTurns
{
    ws::TurnRun first, second;
    size_t firstPrompt = 0; // tokens of the first turn's prompt
    ws::TurnRequest secondRequest;
};

// Runs a first turn, then a second that carries the reply and a new user message, on one session model.
std::optional<TwoTurns> twoTurns(ws::GeneratorSessionModel& model, ws::PromptMode mode, const std::string& first,
                                 const std::string& second, int maxTokens)
{
    TwoTurns t;
    const ws::TurnRequest r1 = request({{ws::ChatRole::User, first}}, mode, maxTokens);
    auto p1 = model.promptTokens(r1);
    auto run1 = ws::runTurn(model, r1);
    if (!p1 || !run1)
        return std::nullopt;
    t.firstPrompt = p1->size();
    t.first = std::move(*run1);
    t.secondRequest = request(
        {{ws::ChatRole::User, first}, {ws::ChatRole::Assistant, t.first.last->text}, {ws::ChatRole::User, second}},
        mode, maxTokens);
    auto run2 = ws::runTurn(model, t.secondRequest);
    if (!run2)
        return std::nullopt;
    t.second = std::move(*run2);
    return t;
}

// The two turns on one session model, checked against a fresh one for the second.
void checkSecondTurn(const std::string& path, ws::PromptMode mode)
{
    auto model = load(path);
    QVERIFY(model);
    auto turns = twoTurns(*model, mode, "Once upon a time", " Then the sun came out.", 24);
    QVERIFY(turns);
    const ws::SessionSnapshot& s1 = *turns->first.last;
    const ws::SessionSnapshot& s2 = *turns->second.last;
    QCOMPARE(s1.reusedPromptTokens, 0);
    QCOMPARE(size_t(s1.promptTokens), turns->firstPrompt);
    // The cache holds the first prompt and every reply token that was run (a reply cut by the token
    // limit ends on a token that was sampled but not run yet).
    const int runReply = s1.generatedTokens - (s1.finishReason == ws::TurnEnd::TokenLimit ? 1 : 0);
    const int firstTurn = s1.promptTokens + runReply;
    QVERIFY2(s2.reusedPromptTokens == firstTurn,
             qPrintable(QStringLiteral("reused %1 of %2 prompt tokens; the first turn has %3")
                            .arg(s2.reusedPromptTokens)
                            .arg(s2.promptTokens)
                            .arg(firstTurn)));
    const int evaluated = s2.promptTokens - s2.reusedPromptTokens;
    QVERIFY(evaluated > 0 && evaluated < s2.promptTokens - s1.promptTokens);
    qInfo("second turn: %d prompt tokens, %d from the cache, %d evaluated", s2.promptTokens, s2.reusedPromptTokens,
          evaluated);

    auto fresh = load(path);
    QVERIFY(fresh);
    auto scratch = ws::runTurn(*fresh, turns->secondRequest);
    QVERIFY(scratch);
    QCOMPARE(scratch->last->reusedPromptTokens, 0);
    QCOMPARE(scratch->last->promptTokens, s2.promptTokens);
    QCOMPARE(scratch->tokens(), turns->second.tokens());
    QCOMPARE(scratch->last->text, s2.text);
    QVERIFY(s2.generatedTokens > 0);
}

} // namespace

class TestMultiTurn : public QObject
{
    Q_OBJECT
private slots:
    // stories260K (base model, running text) and the qwen2 random model (chat template): the second turn
    // takes the whole first turn from the cache and evaluates only what follows it; its ids and text are
    // those of a fresh session model that evaluates the whole conversation.
    void secondTurnEvaluatesOnlyItsOwnTokensCompletion()
    {
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.gguf");
        checkSecondTurn(path, ws::PromptMode::Completion);
    }
    void secondTurnEvaluatesOnlyItsOwnTokensChat()
    {
        WS_REQUIRE_MODEL(path, "random/qwen2-tiny-random.gguf");
        checkSecondTurn(path, ws::PromptMode::Chat);
    }

    // A new conversation shares no turn with the cached one: only the common prefix (BOS) is kept.
    void aNewConversationReusesOnlyTheCommonPrefix()
    {
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.gguf");
        auto model = load(path);
        QVERIFY(model);
        QVERIFY(
            ws::runTurn(*model, request({{ws::ChatRole::User, "Once upon a time"}}, ws::PromptMode::Completion, 8)));
        auto other =
            ws::runTurn(*model, request({{ws::ChatRole::User, "Lily had a dog"}}, ws::PromptMode::Completion, 8));
        QVERIFY(other);
        QCOMPARE(other->last->reusedPromptTokens, 1); // BOS
        auto fresh = load(path);
        QVERIFY(fresh);
        auto scratch =
            ws::runTurn(*fresh, request({{ws::ChatRole::User, "Lily had a dog"}}, ws::PromptMode::Completion, 8));
        QVERIFY(scratch);
        QCOMPARE(scratch->tokens(), other->tokens());
    }

    // Stop: a conversation longer than the context is refused, a reply stops when the context is full.
    // DropOldest: the oldest turns are left out (and counted) until the prompt and the token limit fit.
    void contextFullPolicies()
    {
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.gguf");
        auto model = load(path);
        QVERIFY(model);
        std::vector<ws::TurnMessage> conversation;
        for (int i = 0; i < 6; ++i) {
            conversation.push_back({ws::ChatRole::User, "Once upon a time there was a little girl."});
            conversation.push_back({ws::ChatRole::Assistant, " She liked to play in the park with her dog."});
        }
        conversation.push_back({ws::ChatRole::User, " One day"});
        ws::TurnRequest r = request(conversation, ws::PromptMode::Completion, 16);
        r.contextLength = 64;
        auto all = model->promptTokens(request(conversation, ws::PromptMode::Completion, 16));
        QVERIFY(all && all->size() > 64);

        r.contextFull = ws::ContextFullPolicy::Stop;
        auto refused = ws::runTurn(*model, r);
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, ws::ErrorCode::OutOfRange);

        ws::TurnRequest fits = request({{ws::ChatRole::User, "Once upon a time"}}, ws::PromptMode::Completion, 200);
        fits.contextLength = 64;
        fits.contextFull = ws::ContextFullPolicy::Stop;
        auto full = ws::runTurn(*model, fits);
        QVERIFY(full);
        QCOMPARE(full->last->finishReason, ws::TurnEnd::ContextFull);
        QCOMPARE(full->last->contextTokens, 64);
        QCOMPARE(full->last->promptTokens + full->last->generatedTokens, 64 + 1);

        r.contextFull = ws::ContextFullPolicy::DropOldest;
        ws::TurnRequest kept = r;
        int dropped = 0;
        auto fitted = model->fitToContext(kept, dropped);
        QVERIFY(fitted);
        QVERIFY(dropped > 0 && dropped % 2 == 0); // whole turns: a user message and its reply
        QCOMPARE(kept.messages.size(), conversation.size() - size_t(dropped));
        QVERIFY(int(fitted->size()) + r.maxTokens <= 64);
        // One turn fewer would not have fitted.
        ws::TurnRequest more = r;
        more.messages.erase(more.messages.begin(), more.messages.begin() + (dropped - 2));
        more.contextFull = ws::ContextFullPolicy::Stop;
        auto moreIds = model->promptTokens(more);
        QVERIFY(!moreIds || int(moreIds->size()) + r.maxTokens > 64);
        auto run = ws::runTurn(*model, r);
        QVERIFY(run);
        QCOMPARE(run->last->droppedMessages, dropped);
        QCOMPARE(size_t(run->last->promptTokens), fitted->size());
        QCOMPARE(run->last->finishReason, ws::TurnEnd::TokenLimit);
    }
};

QTEST_GUILESS_MAIN(TestMultiTurn)
#include "tst_multiturn.moc"
