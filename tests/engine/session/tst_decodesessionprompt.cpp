// DecodeSession while the prompt is read: a snapshot per block of it ("reading the prompt: N of M tokens"), Stop
// between blocks, and the prompt's own speed once it is done.
#include "engine/session/decodesession.h"

#include <QTest>

#include <vector>

namespace {

// Reads a prompt of `total` tokens in blocks of 16 on its first next(), a fake second each, reporting each
// block; then two tokens.
class PromptStream : public ws::TokenStream
{
public:
    PromptStream(double* clock, int total) : m_clock(clock), m_total(total) {}
    int promptTokenCount() const override { return m_total + 3; }
    int reusedPromptTokenCount() const override { return 3; }
    void setPromptProgress(PromptProgress progress) override { m_progress = std::move(progress); }
    ws::Expected<ws::TokenStep> next() override
    {
        if (m_next == 0) {
            for (int done = 0; done < m_total;) {
                done = std::min(m_total, done + 16);
                *m_clock += 1.0;
                ++blocks;
                if (m_progress && !m_progress(done, m_total))
                    return ws::makeError(ws::ErrorCode::Cancelled, "cancelled");
            }
        }
        *m_clock += 0.25;
        if (m_next == 2)
            return ws::TokenStep{0, "", true, ws::TurnEnd::EndOfGeneration};
        ++m_next;
        return ws::TokenStep{100, "w", false};
    }
    int blocks = 0;

private:
    double* m_clock;
    int m_total;
    int m_next = 0;
    PromptProgress m_progress;
};

} // namespace

class TestDecodeSessionPrompt : public QObject
{
    Q_OBJECT
private slots:
    void publishesPromptProgress()
    {
        double clock = 0;
        std::vector<std::shared_ptr<const ws::SessionSnapshot>> published;
        ws::DecodeOptions o;
        o.nowSeconds = [&] { return clock; };
        o.sleepSeconds = [&](double s) { clock += s; };
        ws::DecodeSession session(o);
        PromptStream stream(&clock, 40);
        const auto last = session.run(stream, {}, [&](auto s) { published.push_back(std::move(s)); });
        std::vector<int> progress;
        for (const auto& s : published)
            if (s->generatedTokens == 0 && !s->isFinal())
                progress.push_back(s->promptEvaluatedTokens);
        QCOMPARE(progress, (std::vector<int>{16, 32, 40}));
        QCOMPARE(published.front()->promptTokensToEvaluate, 40);
        QCOMPARE(last->state, ws::TurnState::Finished);
        QCOMPARE(last->generatedTokens, 2);
        QCOMPARE(last->promptSeconds, 3.0); // three blocks of one second; the first token's 0.25 s is not in it
        QCOMPARE(last->promptTokensPerSecond, 40.0 / 3.0);
        QCOMPARE(last->firstTokenSeconds, 3.25);
    }

    void stopsWhileReadingThePrompt()
    {
        double clock = 0;
        int published = 0;
        ws::DecodeOptions o;
        o.nowSeconds = [&] { return clock; };
        ws::DecodeSession session(o);
        PromptStream stream(&clock, 160);
        const auto last = session.run(
            stream, [&] { return clock >= 2.0; }, [&](auto) { ++published; });
        QCOMPARE(stream.blocks, 2); // stopped after the second block, not at the end of the prompt
        QCOMPARE(last->state, ws::TurnState::Stopped);
        QCOMPARE(last->generatedTokens, 0);
        QCOMPARE(last->promptEvaluatedTokens, 32);
        QVERIFY(published >= 2);
    }
};

QTEST_GUILESS_MAIN(TestDecodeSessionPrompt)
#include "tst_decodesessionprompt.moc"
