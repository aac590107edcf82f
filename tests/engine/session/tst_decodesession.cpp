#include "engine/session/decodesession.h"

#include <QTest>

#include <cmath>
#include <string>
#include <vector>

namespace {

// A token stream that plays back a script and advances a fake clock by a
// fixed time per step (the "compute" time of that step). Like the generator
// it stands for, it ends the turn itself at its token limit or when the
// context (5 prompt tokens + the generated ones) is full.
class ScriptedStream : public ws::TokenStream
{
public:
    ScriptedStream(std::vector<ws::TokenStep> steps, double* clock, double stepSeconds, int context = 1 << 20)
        : m_steps(std::move(steps)), m_clock(clock), m_stepSeconds(stepSeconds), m_context(context)
    {
    }
    int promptTokenCount() const override { return 5; }
    ws::Expected<ws::TokenStep> next() override
    {
        if (m_next >= limit)
            return ws::TokenStep{0, "", true, ws::TurnEnd::TokenLimit};
        if (5 + m_next >= m_context)
            return ws::TokenStep{0, "", true, ws::TurnEnd::ContextFull};
        *m_clock += m_stepSeconds;
        if (m_next >= int(m_steps.size()))
            return ws::makeError(ws::ErrorCode::OutOfRange, "script exhausted");
        return m_steps[m_next++];
    }
    int calls() const { return m_next; }
    int limit = 1 << 20; // the turn's maxTokens

private:
    std::vector<ws::TokenStep> m_steps;
    double* m_clock;
    double m_stepSeconds;
    int m_context;
    int m_next = 0;
};

std::vector<ws::TokenStep> words(int count)
{
    std::vector<ws::TokenStep> steps;
    for (int i = 0; i < count; ++i)
        steps.push_back({100 + i, " w" + std::to_string(i), false});
    return steps;
}

std::string joined(int count)
{
    std::string text;
    for (int i = 0; i < count; ++i)
        text += " w" + std::to_string(i);
    return text;
}

struct Harness
{
    double clock = 0;
    std::vector<std::shared_ptr<const ws::SessionSnapshot>> published;

    ws::DecodeOptions options()
    {
        ws::DecodeOptions o;
        o.requestId = 7;
        o.nowSeconds = [this] { return clock; };
        o.sleepSeconds = [this](double s) { clock += s; };
        return o;
    }
    ws::DecodeSession::Publish publisher()
    {
        return [this](std::shared_ptr<const ws::SessionSnapshot> s) { published.push_back(std::move(s)); };
    }
};

} // namespace

class TestDecodeSession : public QObject
{
    Q_OBJECT
private slots:
    void endings_data()
    {
        QTest::addColumn<int>("scriptTokens");
        QTest::addColumn<int>("endOfTextAt"); // -1: none
        QTest::addColumn<int>("maxTokens");
        QTest::addColumn<int>("context");
        QTest::addColumn<int>("expectedTokens");
        QTest::addColumn<int>("expectedReason");
        QTest::newRow("token limit") << 50 << -1 << 20 << 1000 << 20 << int(ws::TurnEnd::TokenLimit);
        QTest::newRow("end of text is neither shown nor counted")
            << 50 << 12 << 40 << 1000 << 12 << int(ws::TurnEnd::EndOfGeneration);
        QTest::newRow("context full") << 50 << -1 << 40 << 5 + 9 << 9 << int(ws::TurnEnd::ContextFull);
    }
    void endings()
    {
        QFETCH(int, scriptTokens);
        QFETCH(int, endOfTextAt);
        QFETCH(int, maxTokens);
        QFETCH(int, context);
        QFETCH(int, expectedTokens);
        QFETCH(int, expectedReason);
        std::vector<ws::TokenStep> steps = words(scriptTokens);
        if (endOfTextAt >= 0)
            steps[endOfTextAt] = {2, "", true};
        Harness h;
        ScriptedStream stream(steps, &h.clock, 0.001, context);
        stream.limit = maxTokens;
        ws::DecodeOptions o = h.options();
        auto last = ws::DecodeSession(o).run(stream, {}, h.publisher());
        QCOMPARE(last->state, ws::TurnState::Finished);
        QCOMPARE(int(last->finishReason), expectedReason);
        QCOMPARE(last->generatedTokens, expectedTokens);
        QCOMPARE(last->text, joined(expectedTokens));
        QCOMPARE(last->requestId, uint64_t(7));
        QCOMPARE(last->promptTokens, 5);
        QVERIFY(!h.published.empty());
        QCOMPARE(h.published.back(), last);
    }

    void errors_data()
    {
        QTest::addColumn<int>("code");
        QTest::addColumn<int>("expectedState");
        QTest::newRow("generator error fails the turn") << int(ws::ErrorCode::Io) << int(ws::TurnState::Failed);
        QTest::newRow("generator cancel is a stop") << int(ws::ErrorCode::Cancelled) << int(ws::TurnState::Stopped);
    }
    void errors()
    {
        QFETCH(int, code);
        QFETCH(int, expectedState);
        class FailingStream : public ws::TokenStream
        {
        public:
            ws::ErrorCode code;
            int n = 0;
            int promptTokenCount() const override { return 1; }
            ws::Expected<ws::TokenStep> next() override
            {
                if (n++ < 3)
                    return ws::TokenStep{5, "x", false};
                return ws::makeError(code, "disk went away");
            }
        } stream;
        stream.code = ws::ErrorCode(code);
        Harness h;
        auto last = ws::DecodeSession(h.options()).run(stream, {}, h.publisher());
        QCOMPARE(int(last->state), expectedState);
        QCOMPARE(last->text, std::string("xxx"));
        QCOMPARE(last->error.has_value(), expectedState == int(ws::TurnState::Failed));
        if (last->error)
            QCOMPARE(last->error->text, std::string("disk went away"));
    }

    void stopFlag()
    {
        Harness h;
        ScriptedStream stream(words(100), &h.clock, 0.001);
        stream.limit = 100;
        ws::DecodeOptions o = h.options();
        auto last = ws::DecodeSession(o).run(
            stream, [&] { return stream.calls() >= 10; }, h.publisher());
        QCOMPARE(last->state, ws::TurnState::Stopped);
        QCOMPARE(last->generatedTokens, 10);
        QCOMPARE(last->text, joined(10));
        QCOMPARE(stream.calls(), 10); // no step after the stop
    }

    void throttlesSnapshots()
    {
        // 1000 tokens at 1 ms each = 1 s of generation: about 30 snapshots
        // plus the final one, not 1000.
        Harness h;
        ScriptedStream stream(words(1000), &h.clock, 0.001);
        stream.limit = 1000;
        ws::DecodeOptions o = h.options();
        o.maxSnapshotsPerSecond = 30;
        auto last = ws::DecodeSession(o).run(stream, {}, h.publisher());
        QCOMPARE(last->generatedTokens, 1000);
        QVERIFY2(h.published.size() >= 30 && h.published.size() <= 32, qPrintable(QString::number(h.published.size())));
        // Snapshots are immutable and grow monotonically.
        for (size_t i = 1; i < h.published.size(); ++i)
            QVERIFY(h.published[i]->generatedTokens >= h.published[i - 1]->generatedTokens);
        QCOMPARE(last->cpuTokensPerSecond, 999 / (999 * 0.001));
        QCOMPARE(last->firstTokenSeconds, 0.001);
    }

    void pacesAtSimulatedSystem()
    {
        Harness h;
        ScriptedStream stream(words(40), &h.clock, 0.0001); // CPU much faster than the system
        ws::SystemPace pace{"h100", "H100", 100.0, 0.2};
        stream.limit = 40;
        ws::DecodeOptions o = h.options();
        o.maxSnapshotsPerSecond = 1000; // see every token
        o.pacer = ws::TokenPacer::atPaceOf(pace);
        o.systems = {pace};
        auto last = ws::DecodeSession(o).run(stream, {}, h.publisher());
        QCOMPARE(last->generatedTokens, 40);
        for (const auto& s : h.published) {
            if (s->generatedTokens == 0)
                continue;
            // A token is not shown before the system would have produced it.
            QVERIFY(s->elapsedSeconds + 1e-9 >= pace.secondsForTokens(s->generatedTokens));
            QVERIFY(s->elapsedSeconds < pace.secondsForTokens(s->generatedTokens) + 0.011);
        }
        QCOMPARE(last->systems.size(), size_t(1));
        QCOMPARE(last->systems[0].id, std::string("h100"));
    }

    // The time held back and the wake-up lateness are what the clock says: a sleep that overshoots by
    // 2 ms is late by at most 2 ms, and the rest of the turn's time is the steps' own.
    void accountsForTimeHeldBack_data()
    {
        QTest::addColumn<double>("stepSeconds");
        QTest::addColumn<double>("overshoot");
        QTest::addColumn<double>("expectedHeldBack"); // -1: elapsed minus the steps' time
        QTest::newRow("cpu faster than the pace, sleeps overshoot") << 0.0001 << 0.002 << -1.0;
        // 0.2 s to the first token, which the CPU has after 0.02 s; from then on each step (0.02 s) is
        // slower than the pace (0.01 s), so nothing more is held back.
        QTest::newRow("cpu slower than the pace") << 0.02 << 0.0 << 0.18;
    }
    void accountsForTimeHeldBack()
    {
        QFETCH(double, stepSeconds);
        QFETCH(double, overshoot);
        QFETCH(double, expectedHeldBack);
        Harness h;
        ScriptedStream stream(words(40), &h.clock, stepSeconds);
        stream.limit = 40;
        ws::DecodeOptions o = h.options();
        o.sleepSeconds = [&](double s) { h.clock += s + overshoot; };
        o.pacer = ws::TokenPacer::atPaceOf(ws::SystemPace{"h100", "H100", 100.0, 0.2});
        auto last = ws::DecodeSession(o).run(stream, {}, h.publisher());
        QCOMPARE(last->generatedTokens, 40);
        const double steps = stream.calls() * stepSeconds;
        if (expectedHeldBack < 0)
            expectedHeldBack = last->elapsedSeconds - steps;
        QVERIFY2(std::abs(last->heldBackSeconds - expectedHeldBack) < 1e-9,
                 qPrintable(QString::number(last->heldBackSeconds)));
        QVERIFY(std::abs(last->elapsedSeconds - last->heldBackSeconds - steps) < 1e-9);
        if (overshoot > 0)
            QVERIFY(last->latestWakeSeconds > 0 && last->latestWakeSeconds <= overshoot + 1e-12);
        else
            QCOMPARE(last->latestWakeSeconds, 0.0);
    }

    void stopWhilePacing()
    {
        Harness h;
        ScriptedStream stream(words(40), &h.clock, 0.0001);
        stream.limit = 40;
        ws::DecodeOptions o = h.options();
        o.pacer = ws::TokenPacer::atPaceOf(ws::SystemPace{"slow", "slow", 1.0, 0.0});
        auto last = ws::DecodeSession(o).run(
            stream, [&] { return h.clock > 2.5; }, h.publisher());
        QCOMPARE(last->state, ws::TurnState::Stopped);
        QCOMPARE(last->text, joined(3)); // tokens due at 0, 1 and 2 s
        QVERIFY(h.clock < 2.6);          // stopped within one sleep slice
    }

    void snapshotsCarryTheirNewPieces_data()
    {
        QTest::addColumn<double>("snapshotsPerSecond");
        QTest::newRow("every token its own snapshot") << 1000.0;
        QTest::newRow("throttled: many tokens a snapshot") << 30.0;
    }
    void snapshotsCarryTheirNewPieces()
    {
        QFETCH(double, snapshotsPerSecond);
        Harness h;
        std::vector<ws::TokenStep> steps = words(300);
        steps[7].text = "";                     // a token that ends inside a character: an empty piece
        steps[8].text = "\xE4\xB8\xAD";         // ... and the token that completes it
        steps[299] = {2, "\xEF\xBF\xBD", true}; // end of text with bytes that were held back
        ScriptedStream stream(steps, &h.clock, 0.001);
        ws::DecodeOptions o = h.options();
        o.maxSnapshotsPerSecond = snapshotsPerSecond;
        auto last = ws::DecodeSession(o).run(stream, {}, h.publisher());
        QCOMPARE(last->generatedTokens, 299);
        std::string before;
        std::vector<ws::TokenId> shown;
        for (const auto& s : h.published) {
            std::string added;
            for (const ws::TokenPiece& piece : s->newPieces) {
                added += piece.text;
                if (piece.token >= 0)
                    shown.push_back(piece.token);
            }
            // Each snapshot's pieces are exactly what its text gained since the previous one.
            QCOMPARE(before + added, s->text);
            before = s->text;
        }
        std::vector<ws::TokenId> expected;
        for (int i = 0; i < 299; ++i)
            expected.push_back(100 + i);
        QCOMPARE(shown, expected);
        QCOMPARE(last->newPieces.back().token, ws::TokenId(-1)); // the held-back bytes, no token
        QCOMPARE(last->newPieces.back().text, std::string("\xEF\xBF\xBD"));
        if (snapshotsPerSecond < 100)
            QVERIFY(h.published.size() < 20); // throttled: the pieces were gathered, not lost
    }

    // A consumer that has not taken the last snapshot gets no new one (and no new wafer frame); the
    // tokens ride on the next snapshot it is ready for, and the final one always comes.
    void slowConsumerGetsNoBacklog()
    {
        Harness h;
        ScriptedStream stream(words(200), &h.clock, 0.001);
        stream.limit = 200;
        ws::DecodeOptions o = h.options();
        o.maxSnapshotsPerSecond = 1e6;
        int frames = 0;
        o.meshFrame = [&frames](int, int) {
            ++frames;
            return std::make_shared<const ws::MeshFrame>();
        };
        int asked = 0;
        o.consumerReady = [&asked] { return ++asked % 50 == 0; }; // ready once in 50 tokens
        auto last = ws::DecodeSession(o).run(stream, {}, h.publisher());
        QCOMPARE(h.published.size(), size_t(4 + 1)); // tokens 50, 100, 150, 200, then the final one
        QCOMPARE(frames, 5);
        std::string text;
        for (const auto& s : h.published)
            for (const ws::TokenPiece& piece : s->newPieces)
                text += piece.text;
        QCOMPARE(text, joined(200)); // nothing lost
        QCOMPARE(last->text, joined(200));
    }

    void meshFramesFollowTokens()
    {
        Harness h;
        ScriptedStream stream(words(10), &h.clock, 0.01);
        stream.limit = 10;
        ws::DecodeOptions o = h.options();
        o.maxSnapshotsPerSecond = 1000;
        o.meshFrame = [](int index, int cacheTokens) {
            auto m = std::make_shared<ws::MeshSnapshot>();
            m->meshCols = index;       // tag the frame with the token it shows
            m->meshRows = cacheTokens; // and with the tokens in the cache
            return std::make_shared<const ws::MeshFrame>(ws::MeshFrame{m, {}, {}});
        };
        ws::DecodeSession(o).run(stream, {}, h.publisher());
        QCOMPARE(h.published.size(), size_t(11)); // every token + final
        for (const auto& s : h.published) {
            QVERIFY(s->mesh);
            QCOMPARE(s->mesh->base->meshCols, s->generatedTokens - 1);
            QCOMPARE(s->mesh->base->meshRows, s->promptTokens + s->generatedTokens);
        }
    }
};

QTEST_GUILESS_MAIN(TestDecodeSession)
#include "tst_decodesession.moc"
