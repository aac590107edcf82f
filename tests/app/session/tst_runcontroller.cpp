// RunController with a scripted SessionModel: one worker thread, throttled
// snapshots, stop, stale-result dropping and errors as messages. The real
// generator is exercised by tst_chatturn.
#include "app/session/runcontroller.h"

#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>
#include <chrono>
#include <new>
#include <stdexcept>
#include <thread>

namespace {

struct Script
{
    int tokens = 20;
    std::chrono::microseconds stepTime{0};
    int failAtStep = -1;    // stream error at this step
    bool failStart = false; // startTurn() error
    int throwAtStep = -1;   // the stream throws at this step (a bug or bad_alloc deep in the model)
    std::atomic<QThread*>* ranOn = nullptr;
};

std::string piece(int i)
{
    std::string s = std::to_string(i);
    s.insert(s.begin(), 't'); // (not "t" + ...: GCC 12 -Wrestrict false positive at -O3)
    s.push_back(' ');
    return s;
}

std::string expectedText(int count)
{
    std::string text;
    for (int i = 0; i < count; ++i)
        text += piece(i);
    return text;
}

// Like the generator it stands for, the stream ends the turn at its token limit.
class ScriptedStream : public ws::TokenStream
{
public:
    ScriptedStream(Script script, int maxTokens) : m_script(script), m_maxTokens(maxTokens) {}
    int promptTokenCount() const override { return 3; }
    ws::Expected<ws::TokenStep> next() override
    {
        if (m_step >= m_maxTokens)
            return ws::TokenStep{0, "", true, ws::TurnEnd::TokenLimit};
        if (m_script.ranOn)
            m_script.ranOn->store(QThread::currentThread());
        if (m_script.stepTime.count() > 0)
            std::this_thread::sleep_for(m_script.stepTime);
        const int i = m_step++;
        if (i == m_script.throwAtStep)
            throw std::runtime_error("matmul: rows out of range");
        if (i == m_script.failAtStep)
            return ws::makeError(ws::ErrorCode::Format, "tensor blk.0.attn_q.weight is truncated");
        if (i >= m_script.tokens)
            return ws::TokenStep{2, "", true};
        return ws::TokenStep{100 + i, piece(i), false};
    }

private:
    Script m_script;
    int m_maxTokens;
    int m_step = 0;
};

class ScriptedModel : public ws::SessionModel
{
public:
    explicit ScriptedModel(Script script, std::string name = "scripted") : m_script(script)
    {
        m_info.displayName = std::move(name);
        m_info.config.architecture = "llama";
    }
    const ws::SessionModelInfo& info() const override { return m_info; }
    ws::Expected<std::unique_ptr<ws::TokenStream>> startTurn(const ws::TurnRequest& request) override
    {
        if (m_script.failStart || request.messages.empty())
            return ws::makeError(ws::ErrorCode::OutOfRange, "the prompt is longer than the context (512 tokens)");
        return std::unique_ptr<ws::TokenStream>(new ScriptedStream(m_script, request.maxTokens));
    }

private:
    Script m_script;
    ws::SessionModelInfo m_info;
};

ws::RunController::ModelLoader loaderFor(Script script, std::string name = "scripted")
{
    return [script, name]() -> ws::Expected<std::unique_ptr<ws::SessionModel>> {
        return std::unique_ptr<ws::SessionModel>(new ScriptedModel(script, name));
    };
}

ws::RunRequest request(int maxTokens)
{
    ws::RunRequest r;
    r.turn.messages = {{ws::ChatRole::User, "Once upon a time"}};
    r.turn.maxTokens = maxTokens;
    return r;
}

using SnapshotPtr = std::shared_ptr<const ws::SessionSnapshot>;

} // namespace

class TestRunController : public QObject
{
    Q_OBJECT
private slots:
    void fullTurnOnWorkerThread()
    {
        std::atomic<QThread*> ranOn{nullptr};
        Script script;
        script.tokens = 40;
        script.ranOn = &ranOn;
        ws::RunController controller;
        QSignalSpy loaded(&controller, &ws::RunController::modelLoaded);
        controller.loadModel(loaderFor(script));
        QVERIFY(controller.isLoadingModel());
        QVERIFY(loaded.wait(5000));
        QVERIFY(!controller.isLoadingModel());
        QVERIFY(controller.modelInfo());
        QCOMPARE(controller.modelInfo()->displayName, std::string("scripted"));

        QSignalSpy finished(&controller, &ws::RunController::runFinished);
        QSignalSpy snapshots(&controller, &ws::RunController::snapshotReady);
        const quint64 id = controller.start(request(100));
        QVERIFY(controller.isRunning());
        QVERIFY(finished.wait(5000));
        QVERIFY(!controller.isRunning());
        const auto last = finished.at(0).at(0).value<SnapshotPtr>();
        QCOMPARE(last->requestId, id);
        QCOMPARE(last->state, ws::TurnState::Finished);
        QCOMPARE(last->finishReason, ws::TurnEnd::EndOfGeneration);
        QCOMPARE(last->text, expectedText(40));
        QCOMPARE(last->generatedTokens, 40);
        QCOMPARE(controller.latestSnapshot(), last);
        for (const auto& args : snapshots)
            QCOMPARE(args.at(0).value<SnapshotPtr>()->requestId, id);
        QVERIFY(ranOn.load() != nullptr);
        QVERIFY(ranOn.load() != QThread::currentThread());
    }

    void snapshotsAreThrottled()
    {
        Script script;
        script.tokens = 3000;
        script.stepTime = std::chrono::microseconds(200);
        ws::RunController controller;
        QSignalSpy loaded(&controller, &ws::RunController::modelLoaded);
        controller.loadModel(loaderFor(script));
        QSignalSpy finished(&controller, &ws::RunController::runFinished);
        QSignalSpy snapshots(&controller, &ws::RunController::snapshotReady);
        controller.start(request(3000));
        QVERIFY(finished.wait(20000));
        const auto last = finished.at(0).at(0).value<SnapshotPtr>();
        QCOMPARE(last->generatedTokens, 3000);
        // At most one snapshot per 1/30 s of the run, plus the first and the final one.
        const double allowed = last->elapsedSeconds * 30.0 + 2.0;
        QVERIFY2(snapshots.count() <= allowed,
                 qPrintable(QStringLiteral("%1 snapshots in %2 s").arg(snapshots.count()).arg(last->elapsedSeconds)));
        QVERIFY(snapshots.count() < 3000);
    }

    void stopKeepsPartialText()
    {
        Script script;
        script.tokens = 5000;
        script.stepTime = std::chrono::milliseconds(2);
        ws::RunController controller;
        QSignalSpy loaded(&controller, &ws::RunController::modelLoaded);
        controller.loadModel(loaderFor(script));
        QSignalSpy finished(&controller, &ws::RunController::runFinished);
        QSignalSpy snapshots(&controller, &ws::RunController::snapshotReady);
        controller.start(request(5000));
        QVERIFY(snapshots.wait(5000));
        controller.stop();
        QVERIFY(finished.wait(5000));
        const auto last = finished.at(0).at(0).value<SnapshotPtr>();
        QCOMPARE(last->state, ws::TurnState::Stopped);
        QVERIFY(last->generatedTokens > 0);
        QVERIFY(last->generatedTokens < 5000);
        QCOMPARE(last->text, expectedText(last->generatedTokens));
        QVERIFY(!controller.isRunning());
    }

    void newRequestDropsTheOldOne()
    {
        Script script;
        script.tokens = 5000;
        script.stepTime = std::chrono::milliseconds(1);
        ws::RunController controller;
        QSignalSpy loaded(&controller, &ws::RunController::modelLoaded);
        controller.loadModel(loaderFor(script));
        QSignalSpy finished(&controller, &ws::RunController::runFinished);
        QSignalSpy snapshots(&controller, &ws::RunController::snapshotReady);
        const quint64 first = controller.start(request(5000));
        QVERIFY(snapshots.wait(5000));
        snapshots.clear();
        const quint64 second = controller.start(request(10)); // e.g. Regenerate
        QVERIFY(second > first);
        QVERIFY(finished.wait(5000));
        QTest::qWait(50); // let anything else still queued arrive
        QCOMPARE(finished.count(), 1);
        const auto last = finished.at(0).at(0).value<SnapshotPtr>();
        QCOMPARE(last->requestId, second);
        QCOMPARE(last->text, expectedText(10));
        for (const auto& args : snapshots)
            QCOMPARE(args.at(0).value<SnapshotPtr>()->requestId, second);
        // The first request's final (stopped) snapshot was posted after the
        // second request began, and was dropped.
        QVERIFY(controller.droppedSnapshots() >= 1);
    }

    void errorsBecomeMessages_data()
    {
        QTest::addColumn<bool>("loadModel");
        QTest::addColumn<bool>("failStart");
        QTest::addColumn<int>("failAtStep");
        QTest::addColumn<QString>("messagePart");
        QTest::newRow("no model loaded") << false << false << -1 << "No model is loaded";
        QTest::newRow("prompt too long") << true << true << -1 << "longer than the context";
        QTest::newRow("generator fails mid-turn") << true << false << 5 << "truncated";
    }
    void errorsBecomeMessages()
    {
        QFETCH(bool, loadModel);
        QFETCH(bool, failStart);
        QFETCH(int, failAtStep);
        QFETCH(QString, messagePart);
        Script script;
        script.failStart = failStart;
        script.failAtStep = failAtStep;
        ws::RunController controller;
        QSignalSpy loaded(&controller, &ws::RunController::modelLoaded);
        if (loadModel) {
            controller.loadModel(loaderFor(script));
            QVERIFY(loaded.wait(5000));
        }
        QSignalSpy failed(&controller, &ws::RunController::runFailed);
        QSignalSpy finished(&controller, &ws::RunController::runFinished);
        const quint64 id = controller.start(request(50));
        QVERIFY(failed.wait(5000));
        QCOMPARE(finished.count(), 0);
        QCOMPARE(failed.at(0).at(0).toULongLong(), id);
        QVERIFY2(failed.at(0).at(1).toString().contains(messagePart), qPrintable(failed.at(0).at(1).toString()));
        QVERIFY(!controller.isRunning());
        if (failAtStep >= 0) {
            QVERIFY(controller.latestSnapshot());
            QCOMPARE(controller.latestSnapshot()->text, expectedText(failAtStep)); // partial text kept
        }
    }

    void failedLoadKeepsTheOldModel()
    {
        Script script;
        script.tokens = 4;
        ws::RunController controller;
        QSignalSpy loaded(&controller, &ws::RunController::modelLoaded);
        QSignalSpy loadFailed(&controller, &ws::RunController::modelLoadFailed);
        controller.loadModel(loaderFor(script, "good"));
        QVERIFY(loaded.wait(5000));
        controller.loadModel([]() -> ws::Expected<std::unique_ptr<ws::SessionModel>> {
            ws::Error e = ws::makeError(ws::ErrorCode::Format, "bad magic", "magic");
            e.file = "broken.gguf";
            return e;
        });
        QVERIFY(loadFailed.wait(5000));
        QVERIFY2(loadFailed.at(0).at(0).toString().contains(QStringLiteral("broken.gguf")),
                 qPrintable(loadFailed.at(0).at(0).toString()));
        QCOMPARE(controller.modelInfo()->displayName, std::string("good"));
        QSignalSpy finished(&controller, &ws::RunController::runFinished);
        controller.start(request(50));
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.at(0).at(0).value<SnapshotPtr>()->text, expectedText(4));
    }

    // The worker thread throwing, in a turn or in a load: the request ends with the error as a message,
    // the worker stays up, the loaded model stays, and the next turn runs as usual.
    void throwingWorkerBecomesMessage()
    {
        Script script;
        script.throwAtStep = 3;
        ws::RunController controller;
        QSignalSpy loaded(&controller, &ws::RunController::modelLoaded);
        controller.loadModel(loaderFor(script, "thrower"));
        QVERIFY(loaded.wait(5000));
        QSignalSpy failed(&controller, &ws::RunController::runFailed);
        const quint64 id = controller.start(request(50));
        QVERIFY(failed.wait(5000));
        QCOMPARE(failed.at(0).at(0).toULongLong(), id);
        const QString message = failed.at(0).at(1).toString();
        QVERIFY2(message.contains(QStringLiteral("The generator failed: matmul: rows out of range")),
                 qPrintable(message));
        QVERIFY(!controller.isRunning());

        QSignalSpy loadFailed(&controller, &ws::RunController::modelLoadFailed);
        controller.loadModel([]() -> ws::Expected<std::unique_ptr<ws::SessionModel>> { throw std::bad_alloc(); });
        QVERIFY(loadFailed.wait(5000));
        QVERIFY2(loadFailed.at(0).at(0).toString().contains(QStringLiteral("out of memory")),
                 qPrintable(loadFailed.at(0).at(0).toString()));
        QCOMPARE(controller.modelInfo()->displayName, std::string("thrower"));

        Script good;
        good.tokens = 4;
        controller.loadModel(loaderFor(good, "good"));
        QVERIFY(loaded.wait(5000));
        QSignalSpy finished(&controller, &ws::RunController::runFinished);
        controller.start(request(50));
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.at(0).at(0).value<SnapshotPtr>()->text, expectedText(4));
    }

    void destroyWhileRunning()
    {
        Script script;
        script.tokens = 100000;
        script.stepTime = std::chrono::milliseconds(1);
        auto* controller = new ws::RunController;
        QSignalSpy snapshots(controller, &ws::RunController::snapshotReady);
        controller->loadModel(loaderFor(script));
        controller->start(request(100000));
        QVERIFY(snapshots.wait(5000));
        delete controller; // stops the worker and joins it; must not hang or crash
    }
};

QTEST_GUILESS_MAIN(TestRunController)
#include "tst_runcontroller.moc"
