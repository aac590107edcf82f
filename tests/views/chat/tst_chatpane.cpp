// ChatPane on the offscreen platform: streaming answers, multi-turn
// conversation, stop/regenerate/clear/copy, errors as messages, the empty
// state without a model, dropped model files, the stats line, and a short
// dock whose rows never overlap; the view follows a streaming answer.
#include "views/chat/chatpane.h"
#include "views/chat/chatstats.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDockWidget>
#include <QDropEvent>
#include <QLabel>
#include <QLayout>
#include <QMainWindow>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QTextEdit>
#include <QTreeView>

using ws::views::ChatMessageWidget;
using ws::views::ChatPane;

namespace {

ws::SessionModelInfo storiesInfo()
{
    ws::SessionModelInfo info;
    info.displayName = "stories260K";
    info.config.architecture = "llama";
    return info;
}

std::shared_ptr<const ws::SessionSnapshot> snapshot(const std::string& text, int tokens,
                                                    ws::TurnState state = ws::TurnState::Running)
{
    auto s = std::make_shared<ws::SessionSnapshot>();
    s->text = text;
    s->generatedTokens = tokens;
    s->promptTokens = 5;
    s->state = state;
    s->finishReason = state == ws::TurnState::Finished ? ws::TurnEnd::TokenLimit : ws::TurnEnd::None;
    if (state == ws::TurnState::Stopped)
        s->finishReason = ws::TurnEnd::Stopped;
    return s;
}

QPushButton* button(ChatPane& pane, const QString& text)
{
    for (QPushButton* b : pane.findChildren<QPushButton*>()) {
        if (b->text() == text)
            return b;
    }
    return nullptr;
}

// The loader's summary of a qwen3-0.6B-shaped Q8_0 file.
ws::ModelSummary qwen3Summary()
{
    ws::ModelSummary m;
    m.architecture = "qwen3";
    m.parameters = 596'000'000;
    m.types = {{"Q8_0", 197, 630'000'000}, {"F32", 113, 9'000'000}};
    m.trainedContext = 40960;
    m.context = 4096;
    m.kvCacheType = ws::KvCacheType::F16;
    m.weightBytes = 639'000'000;
    m.kvCacheBytes = 470'000'000;
    m.availableBytes = 21'000'000'000ull;
    return m;
}

// Runs one full turn: send `prompt`, stream two snapshots, finish.
void turn(ChatPane& pane, const QString& prompt, const std::string& answer)
{
    pane.send(prompt);
    pane.setSnapshot(snapshot(answer.substr(0, answer.size() / 2), 1));
    pane.setSnapshot(snapshot(answer, 2, ws::TurnState::Finished));
}

} // namespace

class TestChatPane : public QObject
{
    Q_OBJECT
private slots:
    void emptyStateOffersModels()
    {
        ChatPane pane;
        pane.show();
        QSignalSpy download(&pane, &ChatPane::downloadModelRequested);
        QSignalSpy open(&pane, &ChatPane::openModelRequested);
        bool explains = false;
        for (QLabel* label : pane.findChildren<QLabel*>())
            explains = explains || (label->isVisible() && label->text().contains(QStringLiteral("Download from URL")));
        QVERIFY(explains);
        pane.input()->setPlainText(QStringLiteral("hello"));
        QVERIFY(!button(pane, QStringLiteral("Send"))->isEnabled()); // no model
        QPushButton* dl = button(pane, QStringLiteral("Download from URL…"));
        QVERIFY(dl);
        QTest::mouseClick(dl, Qt::LeftButton);
        QCOMPARE(download.count(), 1);
        QTest::mouseClick(button(pane, QStringLiteral("Open Model…")), Qt::LeftButton);
        QCOMPARE(open.count(), 1);
    }

    void streamsAnAnswer()
    {
        ChatPane pane;
        pane.setModel(storiesInfo());
        pane.show();
        QSignalSpy sent(&pane, &ChatPane::sendRequested);
        pane.input()->setPlainText(QStringLiteral("Once upon a time"));
        QVERIFY(button(pane, QStringLiteral("Send"))->isEnabled());
        QTest::keyClick(pane.input(), Qt::Key_Return);
        QCOMPARE(sent.count(), 1);
        QVERIFY(pane.input()->toPlainText().isEmpty());
        QCOMPARE(pane.messageCount(), 2);
        QVERIFY(pane.isRunning());
        const auto conv = pane.conversation();
        QCOMPARE(conv.size(), size_t(1));
        QCOMPARE(conv[0].role, ws::ChatRole::User);
        QCOMPARE(conv[0].content, std::string("Once upon a time"));

        pane.setSnapshot(snapshot(", there was", 3));
        ChatMessageWidget* answer = pane.message(1);
        QCOMPARE(answer->text(), QStringLiteral(", there was"));
        QCOMPARE(answer->state(), ChatMessageWidget::State::Streaming);
        pane.setSnapshot(snapshot(", there was a little girl", 6, ws::TurnState::Finished));
        QCOMPARE(answer->text(), QStringLiteral(", there was a little girl"));
        // The shown text grew by appending, and equals the snapshot's text.
        QCOMPARE(answer->findChild<QTextEdit*>()->toPlainText(), QStringLiteral(", there was a little girl"));
        QCOMPARE(answer->state(), ChatMessageWidget::State::Done);
        QVERIFY(answer->stats().contains(QStringLiteral("6 tokens")));
        QVERIFY(!pane.isRunning());
        // A late snapshot (no answer streaming) changes nothing.
        pane.setSnapshot(snapshot("stale", 1));
        QCOMPARE(answer->text(), QStringLiteral(", there was a little girl"));
    }

    void multiTurnConversation()
    {
        ChatPane pane;
        pane.setModel(storiesInfo());
        ws::views::ChatSettings settings = pane.settings();
        settings.systemPrompt = "Be brief.";
        pane.setSettings(settings);
        turn(pane, QStringLiteral("Hi"), "Hello there");
        turn(pane, QStringLiteral("Tell me a story"), "Once upon a time");
        pane.send(QStringLiteral("And then?"));
        const auto conv = pane.conversation();
        QCOMPARE(conv.size(), size_t(6));
        QCOMPARE(conv[0].role, ws::ChatRole::System);
        QCOMPARE(conv[0].content, std::string("Be brief."));
        QCOMPARE(conv[2].role, ws::ChatRole::Assistant);
        QCOMPARE(conv[2].content, std::string("Hello there"));
        QCOMPARE(conv[4].content, std::string("Once upon a time"));
        QCOMPARE(conv[5].role, ws::ChatRole::User);
        QCOMPARE(conv[5].content, std::string("And then?"));
    }

    void stopRegenerateClear()
    {
        ChatPane pane;
        pane.setModel(storiesInfo());
        QSignalSpy sent(&pane, &ChatPane::sendRequested);
        QSignalSpy stopped(&pane, &ChatPane::stopRequested);
        QSignalSpy cleared(&pane, &ChatPane::clearRequested);
        pane.send(QStringLiteral("Hi"));
        pane.setSnapshot(snapshot("Hel", 1));
        pane.stop();
        QCOMPARE(stopped.count(), 1);
        pane.setSnapshot(snapshot("Hel", 1, ws::TurnState::Stopped));
        QCOMPARE(pane.message(1)->state(), ChatMessageWidget::State::Stopped);
        QVERIFY(pane.message(1)->stats().contains(QStringLiteral("stopped")));

        pane.regenerate();
        QCOMPARE(sent.count(), 2);
        QCOMPARE(pane.messageCount(), 2); // the old answer was replaced
        QCOMPARE(pane.message(1)->state(), ChatMessageWidget::State::Streaming);
        QCOMPARE(pane.conversation().back().content, std::string("Hi"));

        pane.clear();
        QCOMPARE(stopped.count(), 2); // clearing a running turn stops it
        QCOMPARE(cleared.count(), 1);
        QCOMPARE(pane.messageCount(), 0);
        QVERIFY(!pane.isRunning());
        QVERIFY(pane.conversation().empty());
    }

    void errorIsAMessage()
    {
        ChatPane pane;
        pane.setModel(storiesInfo());
        pane.send(QStringLiteral("Hi"));
        pane.showError(QStringLiteral("The prompt is longer than the context"));
        QCOMPARE(pane.message(1)->state(), ChatMessageWidget::State::Error);
        bool shown = false;
        for (QTextEdit* text : pane.message(1)->findChildren<QTextEdit*>())
            shown = shown || text->toPlainText().contains(QStringLiteral("longer than the context"));
        QVERIFY(shown);
        QVERIFY(!pane.isRunning());
        QCOMPARE(pane.conversation().size(), size_t(1)); // the error is not sent back to the model
        // Regenerate replaces the failed answer.
        QSignalSpy sent(&pane, &ChatPane::sendRequested);
        pane.regenerate();
        QCOMPARE(sent.count(), 1);
        QCOMPARE(pane.messageCount(), 2);
    }

    void copiesTranscript()
    {
        ChatPane pane;
        pane.setModel(storiesInfo());
        turn(pane, QStringLiteral("Hi"), "Hello there");
        pane.copyTranscript();
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("You: Hi\n\nModel: Hello there"));
    }

    void dropModelFile_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("accepted");
        QTest::newRow("gguf") << "/tmp/models/qwen3-0.6b-q8_0.gguf" << true;
        QTest::newRow("llama2.c checkpoint") << "/tmp/stories260K.bin" << true;
        QTest::newRow("not a model") << "/tmp/notes.txt" << false;
    }
    void dropModelFile()
    {
        QFETCH(QString, path);
        QFETCH(bool, accepted);
        ChatPane pane;
        QSignalSpy dropped(&pane, &ChatPane::modelFileDropped);
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&pane, &enter);
        QCOMPARE(enter.isAccepted(), accepted);
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&pane, &drop);
        QCOMPARE(dropped.count(), accepted ? 1 : 0);
        if (accepted)
            QCOMPARE(dropped.at(0).at(0).toString(), path);
    }

    void paceChoices()
    {
        ChatPane pane;
        std::vector<ws::SystemPace> systems = {
            {"wse3", "WSE-3", 1800.0, 0.2}, {"h100", "H100", 95.0, 0.05}, {"none", "No prediction", 0.0, 0.0}};
        pane.setSystems(systems);
        QVERIFY(pane.paceSystem() == nullptr); // as fast as this CPU by default
        ws::views::ChatSettings s = pane.settings();
        s.paceSystemId = "h100";
        pane.setSettings(s);
        QVERIFY(pane.paceSystem());
        QCOMPARE(pane.paceSystem()->id, std::string("h100"));
        QCOMPARE(pane.settings().paceSystemId, std::string("h100"));
        s.paceSystemId = "none"; // no prediction: cannot pace at it
        pane.setSettings(s);
        QVERIFY(pane.paceSystem() == nullptr);
    }

    // The pane's sampling settings are the sampler's own: min-p and the repetition penalty are
    // there (off by default, as the CLI's) and come back as they were set.
    void samplingSettingsRoundTrip()
    {
        ChatPane pane;
        const ws::views::ChatSettings defaults = pane.settings();
        QCOMPARE(defaults.sampling.minP, 0.0f);
        QCOMPARE(defaults.sampling.repetitionPenalty, 1.0f);
        QCOMPARE(defaults.sampling.temperature, 0.0f);
        ws::views::ChatSettings s = defaults;
        s.sampling.temperature = 0.7f;
        s.sampling.topK = 40;
        s.sampling.topP = 0.9f;
        s.sampling.minP = 0.05f;
        s.sampling.repetitionPenalty = 1.1f;
        s.sampling.seed = 42;
        QSignalSpy changed(&pane, &ChatPane::settingsChanged);
        pane.setSettings(s);
        QVERIFY(!changed.isEmpty());
        const ws::SamplerSettings back = pane.settings().sampling;
        QCOMPARE(back.temperature, 0.7f);
        QCOMPARE(back.topK, 40);
        QCOMPARE(back.topP, 0.9f);
        QCOMPARE(back.minP, 0.05f);
        QCOMPARE(back.repetitionPenalty, 1.1f);
        QCOMPARE(back.seed, uint64_t(42));
        QVERIFY(back.validate());
    }

    // The conversation's memory settings: 4,096 tokens, F16 and stop by default (llama.cpp's defaults), the
    // weights read into memory; the context is capped at the model's trained context; the choices come
    // back as set.
    void memorySettings()
    {
        ChatPane pane;
        const ws::views::ChatSettings defaults = pane.settings();
        QCOMPARE(defaults.contextLength, 4096);
        QCOMPARE(defaults.kvCache, ws::KvCacheType::F16);
        QCOMPARE(defaults.contextFull, ws::ContextFullPolicy::Stop);
        QVERIFY(!defaults.mapWeights);
        ws::views::ChatSettings s = defaults;
        s.contextLength = 1000;
        s.kvCache = ws::KvCacheType::F32;
        s.contextFull = ws::ContextFullPolicy::DropOldest;
        s.mapWeights = true;
        pane.setSettings(s);
        QCOMPARE(pane.settings().contextLength, 1000);
        QCOMPARE(pane.settings().kvCache, ws::KvCacheType::F32);
        QCOMPARE(pane.settings().contextFull, ws::ContextFullPolicy::DropOldest);
        QVERIFY(pane.settings().mapWeights);
        auto* weights = pane.findChild<QComboBox*>(QStringLiteral("chatModelWeights"));
        QVERIFY(weights);
        QCOMPARE(weights->currentIndex(), 1);
        ws::SessionModelInfo info = storiesInfo();
        info.config.contextLength = 512;
        pane.setModel(info);
        QCOMPARE(pane.settings().contextLength, 512);
        s.contextLength = 100000;
        pane.setSettings(s);
        QCOMPARE(pane.settings().contextLength, 512);
    }

    // The loader's line: architecture, parameters, tensor types, the need against what is available.
    void loaderInfo()
    {
        const ws::ModelSummary m = qwen3Summary();
        QCOMPARE(ws::views::LoaderInfo::format(m, QLocale::c()),
                 QStringLiteral("qwen3 · 596.0 M parameters · tensors: Q8_0 99%, F32 1% · trained context 40960 · "
                                "needs 1.1 GB: weights 639 MB + KV cache 470 MB (4096 tokens, F16) · 21 GB available"));
        ChatPane pane;
        auto* label = pane.findChild<ws::views::LoaderInfo*>(QStringLiteral("chatLoaderInfo"));
        QVERIFY(label);
        QVERIFY(label->isHidden());
        ws::SessionModelInfo info = storiesInfo();
        info.summary = m;
        pane.setModel(info);
        QVERIFY(!label->isHidden());
        QVERIFY(label->text().contains(QStringLiteral("KV cache")));
    }

    // The chat in the window's right dock area below another dock (the inspector), the split dragged to give
    // the chat as little height as it allows: its rows stack without overlapping, however its labels wrap.
    void shortDockDoesNotOverlap()
    {
        QMainWindow window;
        window.setCentralWidget(new QWidget);
        auto* above = new QDockWidget(QStringLiteral("Inspector"));
        above->setWidget(new QTreeView);
        window.addDockWidget(Qt::RightDockWidgetArea, above);
        auto* pane = new ChatPane;
        window.addDockWidget(Qt::RightDockWidgetArea, pane);
        ws::SessionModelInfo info = storiesInfo();
        info.summary = qwen3Summary();
        pane->setModel(info);
        pane->setModelStatus(QStringLiteral("Text: kq-Q4_K_M on this CPU. Wafer timing: Qwen3-32B on 2 x Cerebras "
                                            "WSE-3 (CS-3), one token of its dataflow per token, at its predicted "
                                            "727 tokens/s."));
        turn(*pane, QStringLiteral("Once upon a time"), std::string(400, 'a'));
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.resizeDocks({above, pane}, {700, 300}, Qt::Vertical);
        window.resizeDocks({pane}, {400}, Qt::Horizontal);
        QTest::qWait(50);
        QWidget* body = pane->widget();
        QWidget* previous = nullptr;
        for (int i = 0; i < body->layout()->count(); ++i) {
            QWidget* w = body->layout()->itemAt(i)->widget();
            if (!w || w->isHidden())
                continue;
            if (previous)
                QVERIFY2(previous->geometry().bottom() < w->geometry().top(),
                         qPrintable(QStringLiteral("%1 (bottom %2) overlaps %3 (top %4) in a chat %5 high")
                                        .arg(previous->metaObject()->className())
                                        .arg(previous->geometry().bottom())
                                        .arg(w->metaObject()->className())
                                        .arg(w->geometry().top())
                                        .arg(pane->height())));
            previous = w;
        }
        QVERIFY(previous && previous->geometry().bottom() < body->height());
    }

    // A streaming answer longer than the view: the view follows its end, and stops following once the user
    // scrolls up to read (it resumes when they scroll back down).
    void followsTheStreamingAnswer()
    {
        ChatPane pane;
        pane.setModel(storiesInfo());
        pane.resize(420, 420);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        auto* list = pane.findChild<ws::views::ChatMessageList*>();
        QVERIFY(list);
        QScrollBar* bar = list->verticalScrollBar();
        pane.send(QStringLiteral("Tell me a long story"));
        std::string text;
        for (int i = 0; i < 40; ++i) {
            text += "and then the little dog ran to the park to play with the ball again.\n";
            pane.setSnapshot(snapshot(text, i + 1));
            QTest::qWait(5);
        }
        QVERIFY(bar->maximum() > 0);
        QTRY_COMPARE(bar->value(), bar->maximum());
        bar->setValue(0); // the user scrolls up
        for (int i = 0; i < 5; ++i) {
            text += "the end of the story is not here yet, the dog keeps running.\n";
            pane.setSnapshot(snapshot(text, 41 + i));
            QTest::qWait(5);
        }
        QCOMPARE(bar->value(), 0);
        bar->setValue(bar->maximum()); // and back down
        text += "and at last the dog went home.\n";
        pane.setSnapshot(snapshot(text, 50, ws::TurnState::Finished));
        QTRY_COMPARE(bar->value(), bar->maximum());
    }

    // Reuse and dropped turns in the stats line.
    void statsLineSaysWhatTheCacheKept()
    {
        auto s = std::make_shared<ws::SessionSnapshot>(*snapshot("x", 3, ws::TurnState::Finished));
        s->promptTokens = 40;
        s->reusedPromptTokens = 28;
        s->droppedMessages = 2;
        s->contextTokens = 64;
        s->finishReason = ws::TurnEnd::ContextFull;
        QCOMPARE(ws::views::ChatStats::format(*s, QLocale::c()),
                 QStringLiteral("3 tokens (prompt 40, 28 of them from the KV cache) · the 2 oldest messages were left "
                                "out to fit the context of 64 tokens · first token 0.0 µs · context full (64 tokens)"));
    }

    void statsLine_data()
    {
        QTest::addColumn<int>("tokens");
        QTest::addColumn<double>("cpuRate");
        QTest::addColumn<QString>("expected");
        // Predicted: WSE-3 0.1 s + 63 / 2000 = 131.5 ms -> "132 ms"; H100 0.05 + 63/100 = 0.68 s -> "680 ms".
        QTest::newRow("finished turn with predictions")
            << 64 << 5234.4
            << "64 tokens (prompt 5) · 5234 tokens/s on this CPU · first token 2.0 ms · predicted: WSE-3 132 ms, "
               "H100 680 ms · token limit reached";
        QTest::newRow("first token only") << 1 << 0.0
                                          << "1 tokens (prompt 5) · first token 2.0 ms · predicted: WSE-3 100 ms, "
                                             "H100 50 ms · token limit reached";
    }
    void statsLine()
    {
        QFETCH(int, tokens);
        QFETCH(double, cpuRate);
        QFETCH(QString, expected);
        auto s = std::make_shared<ws::SessionSnapshot>(*snapshot("x", tokens, ws::TurnState::Finished));
        s->cpuTokensPerSecond = cpuRate;
        s->firstTokenSeconds = 0.002;
        s->systems = {{"wse3", "WSE-3", 2000.0, 0.1}, {"h100", "H100", 100.0, 0.05}};
        QCOMPARE(ws::views::ChatStats::format(*s, QLocale::c()), expected);
    }

    void statsLineWhileReadingThePrompt()
    {
        auto s = std::make_shared<ws::SessionSnapshot>(*snapshot("", 0));
        s->promptTokensToEvaluate = 2000;
        s->promptEvaluatedTokens = 512;
        QCOMPARE(ws::views::ChatStats::format(*s, QLocale::c()),
                 QStringLiteral("reading the prompt: 512 of 2000 tokens"));
        s->promptEvaluatedTokens = 2000; // read: the line counts tokens again
        s->promptTokensPerSecond = 131.6;
        QCOMPARE(ws::views::ChatStats::format(*s, QLocale::c()),
                 QStringLiteral("0 tokens (prompt 5) · prompt read at 132 tokens/s"));
    }

    void promptProgressBarWhileReadingThePrompt()
    {
        ChatPane pane;
        pane.setModel(storiesInfo());
        pane.send(QStringLiteral("a long document"));
        auto s = std::make_shared<ws::SessionSnapshot>(*snapshot("", 0));
        s->promptTokensToEvaluate = 2000;
        s->promptEvaluatedTokens = 512;
        pane.setSnapshot(s);
        ws::views::ChatMessageWidget* answer = pane.message(pane.messageCount() - 1);
        QVERIFY(answer->showsPromptProgress());
        QCOMPARE(answer->promptProgressValue(), 512);
        pane.setSnapshot(snapshot("Once", 1)); // the first token: the bar goes
        QVERIFY(!answer->showsPromptProgress());
    }

    void formatSeconds_data()
    {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<QString>("expected");
        QTest::newRow("below what one decimal of ms shows: microseconds") << 0.00002 << QStringLiteral("20 µs");
        QTest::newRow("a few microseconds") << 0.0000013 << QStringLiteral("1.3 µs");
        QTest::newRow("sub-10 ms") << 0.00042 << "0.4 ms";
        QTest::newRow("ms") << 0.25 << "250 ms";
        QTest::newRow("seconds") << 3.14159 << "3.14 s";
        QTest::newRow("minutes") << 125.0 << "2 min 05 s";
        QTest::newRow("not a number") << std::nan("") << "n/a";
    }
    void formatSeconds()
    {
        QFETCH(double, seconds);
        QFETCH(QString, expected);
        QCOMPARE(ws::views::ChatStats::formatSeconds(seconds, QLocale::c()), expected);
    }
};

QTEST_MAIN(TestChatPane)
#include "tst_chatpane.moc"
