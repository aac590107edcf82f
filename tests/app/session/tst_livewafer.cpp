// Acceptance: the main window's wafer lives with the chat. stories260K is
// loaded in the chat of the real MainWindow and a prompt is sent, once per
// mode of "Wafer shows":
// - the scenario's model (Qwen3-32B on 2 x WSE-3): every snapshot's main-view
//   frame is the dataflow of its last token (frames advance once per token),
//   the text comes at the pace the engine predicts for that system (within 5 %; where this CPU falls
//   behind that pace for part of the answer, never ahead of it and late by no more than the session's
//   own work and the OS's wake-up lateness),
//   and the header names both models;
// - the loaded model: stories260K itself is placed on a small rectangle of one
//   WSE-3 in the main view, and its frames advance once per token likewise.
// In both, the KV layer holds the conversation's tokens. In Chat mode the Values layer is the mesh engine's run
// of the loaded model, as in the workbench.
#include "app/common/languagemanager.h"
#include "app/common/presetlibrary.h"
#include "app/dataflow/dataflowcontroller.h"
#include "app/dataflow/dataflowdock.h"
#include "app/session/chatcontroller.h"
#include "app/session/livewafer.h"
#include "app/session/runcontroller.h"
#include "app/session/systempaces.h"
#include "app/session/tokenframes.h"
#include "app/stage/stage.h"
#include "app/window/mainwindow.h"
#include "app/window/modecontroller.h"
#include "engine/predict/predictor.h"
#include "engine/session/kvoccupancy.h"
#include "engine/wafer/dataflow/meshframe.h"
#include "engine/wafer/placement/layout.h"
#include "tests/common/testmodels.h"
#include "views/chat/chatpane.h"
#include "views/chat/chatsettingspanel.h"
#include "views/mesh/meshview.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace ws;

namespace {

struct Seen
{
    int snapshots = 0;     // snapshots that brought tokens
    int tokensCounted = 0; // shown tokens summed over the snapshots' new pieces
    int frames = 0;        // frames the main view showed
    int framesMatched = 0; // frames equal to the dataflow of their token
    int frameChanges = 0;  // frames whose activity differs from the previous one's
    int lastIndex = -1;    // the token of the last frame shown
    bool indexWentBack = false;
    double kvBytesSeen = -1; // the last frame's KV layer, in bytes
    bool kvShrank = false;
    struct Time
    {
        int tokens;      // generated tokens
        double elapsed;  // seconds since the turn started
        double heldBack; // seconds the pacer held tokens back so far
    };
    std::vector<Time> times; // per snapshot that brought tokens
    std::shared_ptr<const SessionSnapshot> last;
};

double kvBytes(const MeshSnapshot& s)
{
    double bytes = 0;
    for (const auto& device : s.kvFraction)
        for (float f : device)
            bytes += double(f) * double(s.sramBytesPerCore);
    return bytes;
}

// Whether the frame the view shows lights any core.
// The chat opens `path` and the main wafer shows it ("Wafer shows: the loaded model"): true once it is placed.
bool showLoadedModel(MainWindow& window, const QString& path)
{
    LiveWafer* live = window.chat()->liveWafer();
    QSignalSpy placed(live, &LiveWafer::placementReady);
    live->setShows(LiveWafer::Shows::LoadedModel);
    window.chat()->openModelFile(path);
    return placed.wait(60000);
}

bool lit(const views::MeshView* view)
{
    const std::shared_ptr<const MeshFrame> frame = view->frame();
    if (frame)
        for (const auto& device : frame->activity)
            for (const float a : device)
                if (a > 0)
                    return true;
    return false;
}

} // namespace

class TestLiveWafer : public QObject
{
    Q_OBJECT

    std::unique_ptr<PresetLibrary> m_presets;

    // The window at 1366 x 768 with the default scenario placed, shown.
    static bool placeAndShow(MainWindow& window)
    {
        window.resize(1366, 768);
        QSignalSpy placed(&window, &MainWindow::placementFinished);
        window.ensurePlacement();
        if (!placed.wait(60000) || !placed.at(0).at(0).toBool())
            return false;
        window.show();
        return true;
    }

    // Sends `prompt` and follows the main view until the turn ends. `schedule` is the dataflow the view plays.
    Seen runTurn(MainWindow& window, const TokenSchedule& schedule, const QString& prompt, int maxTokens)
    {
        ChatController* chat = window.chat();
        const views::MeshView* view = window.stage()->view();
        views::ChatSettings settings = chat->pane()->settings();
        settings.maxTokens = maxTokens;
        settings.sampling.temperature = 0;
        chat->pane()->setSettings(settings);
        Seen seen;
        std::vector<float> previous;
        std::vector<float> expected;
        auto snapshots = connect(chat->runController(), &RunController::snapshotReady, this,
                                 [&](std::shared_ptr<const SessionSnapshot> s) {
                                     seen.last = s;
                                     for (const TokenPiece& piece : s->newPieces)
                                         seen.tokensCounted += piece.token >= 0 ? 1 : 0;
                                     if (s->newPieces.empty() || s->generatedTokens == 0)
                                         return;
                                     ++seen.snapshots;
                                     seen.times.push_back({s->generatedTokens, s->elapsedSeconds, s->heldBackSeconds});
                                 });
        auto frames = connect(
            chat->liveWafer(), &LiveWafer::frameShown, this, [&](std::shared_ptr<const MeshFrame> frame, int index) {
                if (!frame || view->frame() != frame)
                    return;
                ++seen.frames;
                seen.indexWentBack = seen.indexWentBack || index <= seen.lastIndex;
                seen.lastIndex = index;
                const int device = view->device();
                DataflowFrameOptions options;
                options.device = device;
                options.cycle = goldenRatioCycle(schedule, index);
                options.trailCycles = TokenFrames::trailFraction * schedule.totalCycles;
                fillDataflowGlow(schedule, frame->base->meshCols, frame->base->meshRows, options, expected);
                if (size_t(device) < frame->activity.size() && frame->activity[size_t(device)] == expected)
                    ++seen.framesMatched;
                if (previous != expected)
                    ++seen.frameChanges;
                previous = expected;
                const double kv = kvBytes(*frame->base);
                seen.kvShrank = seen.kvShrank || kv < seen.kvBytesSeen;
                seen.kvBytesSeen = kv;
            });
        QSignalSpy finished(chat->runController(), &RunController::runFinished);
        chat->pane()->send(prompt);
        finished.wait(60000);
        // The last frame is made after the turn's end: wait for it.
        const bool lastFrame =
            QTest::qWaitFor([&] { return seen.last && seen.lastIndex == seen.last->generatedTokens - 1; }, 10000);
        if (!lastFrame)
            qWarning("the last token's frame did not come");
        disconnect(snapshots);
        disconnect(frames);
        return seen;
    }

private slots:
    void initTestCase() { m_presets = std::make_unique<PresetLibrary>(QString()); }

    // Slow motion (the default): the scenario model's answer is slowed to about reading pace by the factor the
    // header names, every token's frame is seen (at least 10 frame changes in a 64-token answer), the wafer
    // rests (nothing lit) 1 s after the answer, and a second turn plays again.
    void slowMotionPlaysEveryTurnAndRests()
    {
        WS_REQUIRE_MODEL(modelPath, "stories260K/stories260K.gguf");
        LanguageManager languages;
        MainWindow window(*m_presets, languages);
        QVERIFY(placeAndShow(window));
        ChatController* chat = window.chat();
        LiveWafer* live = chat->liveWafer();
        QVERIFY(live->slowMotionOn());
        QSignalSpy loaded(chat, &ChatController::modelChanged);
        chat->openModelFile(modelPath_q);
        QVERIFY(loaded.wait(30000));
        QTRY_VERIFY_WITH_TIMEOUT(live->isReady() && live->scenarioPace(), 60000);
        const double rate = live->scenarioPace()->tokensPerSecondPerUser;
        const double factor = live->slowMotion();
        QCOMPARE(factor, TokenPacer::slowMotionFor(rate));
        QVERIFY2(factor >= 10, qPrintable(QStringLiteral("%1 tokens/s slowed %2x").arg(rate).arg(factor)));
        QVERIFY(rate / factor <= TokenPacer::readingTokensPerSecond);
        const std::optional<TokenPacer> pacer = live->pacer();
        QVERIFY(pacer && pacer->slowMotion() == factor && pacer->tokensPerSecond() == rate);
        auto* header = chat->pane()->findChild<QLabel*>(QStringLiteral("liveWaferHeader"));
        QVERIFY(header);
        const QString slowed = QStringLiteral("slowed %1×").arg(QLocale().toString(factor, 'f', 0));
        QVERIFY2(header->text().contains(slowed), qPrintable(header->text()));

        const auto timing = scheduleScene(*window.result()->scene, window.result()->scene->spec.kv);
        QVERIFY(timing);
        const views::MeshView* view = window.stage()->view();
        auto nothingLit = [view] {
            const std::shared_ptr<const MeshFrame> frame = view->frame();
            if (!frame)
                return false;
            for (const auto& device : frame->activity)
                for (const float a : device)
                    if (a > 0)
                        return false;
            return true;
        };
        for (int turn = 0; turn < 2; ++turn) {
            QSignalSpy rested(live, &LiveWafer::idleShown);
            const Seen seen = runTurn(window, *timing->schedule, QStringLiteral("Once upon a time"), 64);
            QVERIFY(seen.last && seen.last->isFinal());
            const int tokens = seen.last->generatedTokens;
            QVERIFY2(tokens >= 20, qPrintable(QString::number(tokens)));
            qInfo("turn %d: %d tokens in %.1f s (%.0f tokens/s slowed %.0fx), %d frames, %d changes", turn + 1, tokens,
                  seen.last->elapsedSeconds, rate, factor, seen.frames, seen.frameChanges);
            QVERIFY2(seen.frameChanges >= std::min(10, tokens - 1), qPrintable(QString::number(seen.frameChanges)));
            QCOMPARE(seen.framesMatched, seen.frames);
            // Never ahead of the slowed pace.
            QVERIFY(seen.last->elapsedSeconds >= 0.99 * pacer->dueSeconds(tokens - 1));
            QVERIFY(rested.count() > 0 || rested.wait(1000));
            QVERIFY(nothingLit());
        }
    }

    // Chat mode before any turn: the wafer rests (nothing lit, the chat's source), not the Dataflow dock's frame.
    void chatModeStartsIdle()
    {
        LanguageManager languages;
        MainWindow window(*m_presets, languages);
        QVERIFY(placeAndShow(window));
        window.setLayer(MeshLayer::Dataflow);
        DataflowController* dataflow = window.dataflowDock()->controller();
        QTRY_VERIFY_WITH_TIMEOUT(dataflow->totalCycles() > 0, 60000);
        dataflow->seekFraction(0.5);
        const views::MeshView* view = window.stage()->view();
        QTRY_VERIFY_WITH_TIMEOUT(window.stage()->frameSource() == Stage::FrameSource::Dataflow && lit(view), 10000);
        QSignalSpy rested(window.chat()->liveWafer(), &LiveWafer::idleShown);
        window.modes()->setMode(ModeController::Mode::Chat);
        QVERIFY(rested.count() > 0 || rested.wait(60000));
        QCOMPARE(window.stage()->frameSource(), Stage::FrameSource::Chat);
        QVERIFY(view->frame() && !lit(view));
    }

    // As `waferscope --wafer-shows loaded --model FILE` starts: the window's own placement (Qwen3-32B) is still
    // running when the chat's model is placed for the wafer; when it ends it must not take the stage back.
    void loadedModelKeepsTheStage()
    {
        WS_REQUIRE_MODEL(modelPath, "stories260K/stories260K.gguf");
        LanguageManager languages;
        MainWindow window(*m_presets, languages);
        window.resize(1366, 768);
        window.show();
        window.ensurePlacement(); // the scenario's placement starts
        QVERIFY(window.isBusy());
        QVERIFY(showLoadedModel(window, modelPath_q));
        LiveWafer* live = window.chat()->liveWafer();
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 180000);
        QTest::qWait(200);
        QVERIFY(live->chatPlacement());
        QCOMPARE(window.result(), live->chatPlacement());
        QCOMPARE(window.result()->devices, 1);

        // The scenario bar names what the stage shows: the loaded model, at the 2,048 tokens of context it was
        // trained for (its GGUF header), below the scenario's 8,192.
        auto* model = window.findChild<QComboBox*>(QStringLiteral("scenarioModel"));
        auto* context = window.findChild<QComboBox*>(QStringLiteral("scenarioContext"));
        QVERIFY(model && context);
        QVERIFY2(model->currentText().startsWith(QStringLiteral("llama (stories260K.gguf)")),
                 qPrintable(model->currentText()));
        QCOMPARE(context->currentData().toLongLong(), 2048);
        QCOMPARE(window.result()->spec().workload.contextTokens, 2048);
        QCOMPARE(window.scenario().contextTokens, 8192); // the scenario's own stays

        // A preset picked there puts the scenario's model back on the wafer, with the scenario's context.
        QSignalSpy placed(&window, &MainWindow::placementFinished);
        const int qwen8 = model->findData(QStringLiteral("qwen3-8b"));
        QVERIFY(qwen8 >= 0);
        model->setCurrentIndex(qwen8);
        QCOMPARE(live->shows(), LiveWafer::Shows::ScenarioModel);
        QVERIFY(placed.wait(180000));
        QVERIFY(placed.last().at(0).toBool());
        QCOMPARE(window.result()->model().id, std::string("qwen3-8b"));
        QCOMPARE(window.result()->spec().workload.contextTokens, 8192);
        QCOMPARE(context->currentData().toLongLong(), 8192);
        QCOMPARE(model->currentData().toString(), QStringLiteral("qwen3-8b"));
    }

    // Seen in the real window: in Chat mode with stories260K shown on the wafer, the Values layer said "no values:
    // they need a loaded model's weights" while Explore mode showed the engine's values of that same model. The
    // live wafer made its last token's dataflow frame again for the new layer and put it over the Dataflow dock's
    // engine run. The engine's still pictures are the dock's: on them the live wafer stays out.
    void valuesLayerIsTheEnginesInChatMode()
    {
        WS_REQUIRE_MODEL(modelPath, "stories260K/stories260K.gguf");
        LanguageManager languages;
        MainWindow window(*m_presets, languages);
        window.resize(1366, 768);
        window.show();
        QVERIFY(showLoadedModel(window, modelPath_q));
        LiveWafer* live = window.chat()->liveWafer();
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy() && window.result() == live->chatPlacement(), 180000);
        QSignalSpy rested(live, &LiveWafer::idleShown);
        window.modes()->setMode(ModeController::Mode::Chat);
        QVERIFY(rested.count() > 0 || rested.wait(60000));
        QCOMPARE(window.stage()->frameSource(), Stage::FrameSource::Chat);

        // A turn: the Values layer then decodes it on the mesh engine as the chat decoded it (the prompt the chat
        // built and the answer's tokens), not the default "Once upon a time".
        ChatController* chat = window.chat();
        views::ChatSettings settings = chat->pane()->settings();
        settings.maxTokens = 24;
        settings.sampling.temperature = 0;
        chat->pane()->setSettings(settings);
        QSignalSpy finished(chat->runController(), &RunController::runFinished);
        QSignalSpy decoded(chat, &ChatController::turnDecoded);
        rested.clear();
        chat->pane()->send(QStringLiteral("Lily went to the park"));
        QVERIFY(finished.wait(60000));
        QVERIFY(rested.count() > 0 || rested.wait(60000)); // its frames played (on the Dataflow layer), then rest
        const auto turn = finished.last().at(0).value<std::shared_ptr<const SessionSnapshot>>();
        QVERIFY(turn && turn->generatedTokens > 0);
        QTRY_COMPARE_WITH_TIMEOUT(decoded.count(), 1, 10000);
        DataflowDock* dock = window.dataflowDock();
        QCOMPARE(int(dock->valuesTurn().answer.size()), turn->generatedTokens);
        QVERIFY2(dock->valuesTurn().label.startsWith(QStringLiteral("Lily went to the park")),
                 qPrintable(dock->valuesTurn().label));

        window.setLayer(MeshLayer::Values);
        DataflowController* engine = dock->controller();
        QTRY_VERIFY_WITH_TIMEOUT(engine->executed() && engine->executed()->hasValues(), 60000);
        // The last token of that turn: the chat's own count of its prompt and answer tokens.
        const QString token = QStringLiteral("values of token %1 of").arg(turn->promptTokens + turn->generatedTokens);
        QVERIFY2(dock->statusText().contains(token), qPrintable(dock->statusText()));
        QTest::qWait(300); // a frame of the live wafer's would be made and shown by now
        const views::MeshView* view = window.stage()->view();
        QCOMPARE(window.stage()->frameSource(), Stage::FrameSource::Dataflow);
        QVERIFY(view->frame() && view->frame()->overlayTop > 0); // the largest |value|: the engine's values
        QVERIFY(lit(view));

        // Seen in the real window: the workbench fitted the whole wafer again, and stories260K's 50 cores were a
        // dot at 0.28 px a core. A mode fits the loaded model's cores, as placing it did.
        window.modes()->setMode(ModeController::Mode::Explore);
        QTest::qWait(200); // the mode's docks laid out and its view fitted (ModeController::Parts::arranged)
        QVERIFY2(view->transform().scale > 1.5 * view->transform().fitScale(),
                 qPrintable(QStringLiteral("%1 px a core, fitted %2")
                                .arg(view->transform().scale)
                                .arg(view->transform().fitScale())));
    }

    void mainWaferFollowsTheChat()
    {
        WS_REQUIRE_MODEL(modelPath, "stories260K/stories260K.gguf");
        LanguageManager languages;
        MainWindow window(*m_presets, languages);
        QVERIFY(placeAndShow(window));
        const std::shared_ptr<const PlacementResult> scenario = window.result();
        QCOMPARE(scenario->devices, 2); // Qwen3-32B on 2 x WSE-3

        ChatController* chat = window.chat();
        LiveWafer* live = chat->liveWafer();
        QCOMPARE(live->shows(), LiveWafer::Shows::ScenarioModel); // the default
        live->setSlowMotion(false); // the predicted pace itself (slowMotionPlaysEveryTurnAndRests: the demo's)
        QSignalSpy loaded(chat, &ChatController::modelChanged);
        chat->openModelFile(modelPath_q);
        QVERIFY(loaded.wait(30000));
        QTRY_VERIFY_WITH_TIMEOUT(live->isReady() && live->scenarioPace(), 60000);

        // The scenario system's pace, straight from the predictor: the scenario's workload (its context, batch,
        // prompt and answer lengths) on the layout shown, as the Layout dock and `predict --json` give it.
        const Layout layout = layoutOf(*scenario->scene->placement, scenario->model().id, scenario->hardware().id);
        PredictOptions options;
        options.wafer.placedLayout = &layout;
        const auto predicted = predict(scenario->model(), scenario->hardware(), scenario->spec().workload, options);
        QVERIFY(predicted);
        QCOMPARE(live->scenarioPace()->tokensPerSecondPerUser, predicted->tokensPerSecondPerUser);
        auto* header = chat->pane()->findChild<QLabel*>(QStringLiteral("liveWaferHeader"));
        QVERIFY(header);
        QVERIFY2(header->text().contains(QStringLiteral("stories260K")) &&
                     header->text().contains(QString::fromStdString(scenario->model().name)),
                 qPrintable(header->text()));

        const auto timing = scheduleScene(*scenario->scene, scenario->scene->spec.kv);
        QVERIFY(timing);
        const int maxTokens = 256;
        Seen seen = runTurn(window, *timing->schedule, QStringLiteral("Once upon a time"), maxTokens);
        QVERIFY(seen.last && seen.last->isFinal());
        const int tokens = seen.last->generatedTokens;
        QVERIFY2(tokens > 50, qPrintable(QString::number(tokens)));
        QCOMPARE(window.stage()->view()->layer(), MeshLayer::Dataflow); // the turn brought the Dataflow layer up
        QVERIFY2(window.stage()->view()->snapshot(), qPrintable(window.lastError()));
        QCOMPARE(window.stage()->view()->snapshot()->deviceCount, 2);
        // Frames advance once per token: every frame shown is the dataflow of its token, the tokens only go
        // forward, and the last frame is the last token's.
        QCOMPARE(seen.tokensCounted, tokens);
        QVERIFY(seen.frames >= 2 && seen.frames <= seen.snapshots);
        QCOMPARE(seen.framesMatched, seen.frames);
        QVERIFY(!seen.indexWentBack);
        QCOMPARE(seen.lastIndex, tokens - 1);
        QVERIFY(seen.frameChanges > seen.frames / 2);
        // Paced at the predicted speed: the answer's duration and its token rate within 5 %. The pacer only
        // waits, so where this machine cannot keep up with the pace (a loaded machine, a sanitizer build) the
        // text comes as fast as the session's own work allows (decode steps and the wafer frames it builds
        // for the views: the time between two snapshots less the time the pacer held tokens back in it).
        // The session kept up where, between every two snapshots, its own work took less than the pace
        // allowed: then every snapshot is on time and the answer comes at the pace. Otherwise (a machine that
        // falls behind for part of the answer, as a sanitizer build does when another test takes the CPU)
        // the answer is never ahead of the pace, and each snapshot comes no later than a bound built from
        // the snapshots before it: the previous bound plus the work between them, and where the pacer held
        // a token back between them, at most that token's due moment plus the OS's latest wake-up plus the
        // work after it. A pacer that held a token back without need, or past its due moment, fails it.
        const SystemPace& pace = *live->scenarioPace();
        for (const Seen::Time& t : seen.times)
            qInfo("  %d tokens at %.3f s (due %.3f s, held back %.3f s)", t.tokens, t.elapsed,
                  pace.secondsForTokens(t.tokens), t.heldBack);
        const double due = pace.secondsForTokens(tokens);
        const double elapsed = seen.last->elapsedSeconds;
        const double cpu = seen.last->firstTokenSeconds + seen.last->decodeSeconds;
        const double work = elapsed - seen.last->heldBackSeconds;
        const double wake = seen.last->latestWakeSeconds;
        QVERIFY(!seen.times.empty());
        const Seen::Time start{0, 0, 0};
        const Seen::Time finalTime{tokens, elapsed, seen.last->heldBackSeconds};
        bool keptUp = true;
        double bound = 0;
        const Seen::Time* previousTime = &start;
        auto advance = [&](const Seen::Time& t) {
            const double betweenWork = (t.elapsed - t.heldBack) - (previousTime->elapsed - previousTime->heldBack);
            const double betweenDue = pace.secondsForTokens(t.tokens) - pace.secondsForTokens(previousTime->tokens);
            keptUp = keptUp && betweenWork < 0.95 * betweenDue;
            const bool heldBetween = t.heldBack > previousTime->heldBack;
            bound = (heldBetween ? std::max(bound, pace.secondsForTokens(t.tokens) + wake) : bound) + betweenWork;
            previousTime = &t;
        };
        for (const Seen::Time& t : seen.times) {
            advance(t);
            QVERIFY2(
                t.elapsed <= 1.05 * bound,
                qPrintable(
                    QStringLiteral("%1 tokens at %2 s, due to come by %3 s").arg(t.tokens).arg(t.elapsed).arg(bound)));
        }
        if (previousTime->tokens != tokens || previousTime->elapsed != elapsed)
            advance(finalTime);
        const double end = keptUp ? due : bound;
        qInfo("CPU %.3f s, the session's own work %.3f s (held back %.3f s, latest wake-up %.4f s) for %d tokens "
              "against %.3f s due: %s; due to end by %.3f s",
              cpu, work, seen.last->heldBackSeconds, wake, tokens, due,
              keptUp ? "the session kept up, paced" : "the session fell behind the pace", end);
        QVERIFY2(
            elapsed >= 0.95 * due,
            qPrintable(
                QStringLiteral("%1 s for %2 tokens, ahead of the predicted %3 s").arg(elapsed).arg(tokens).arg(due)));
        QVERIFY2(elapsed <= 1.05 * end + wake,
                 qPrintable(QStringLiteral("%1 s for %2 tokens, predicted %3 s, due to end by %4 s, wake-up %5 s")
                                .arg(elapsed)
                                .arg(tokens)
                                .arg(due)
                                .arg(end)
                                .arg(wake)));
        const Seen::Time& first = seen.times.front();
        const Seen::Time& lastTime = seen.times.back();
        QVERIFY(lastTime.tokens - first.tokens > 20);
        // Either end of that span may be late by up to the latest wake-up, so the rate is bounded with it.
        const double span = lastTime.elapsed - first.elapsed;
        const double rate = (lastTime.tokens - first.tokens) / span;
        const double fastest = (lastTime.tokens - first.tokens) / (span + wake);
        const double slowest = (lastTime.tokens - first.tokens) / std::max(1e-9, span - wake);
        QVERIFY2(fastest <= 1.05 * pace.tokensPerSecondPerUser,
                 qPrintable(QStringLiteral("%1 tokens/s, faster than the predicted %2")
                                .arg(rate)
                                .arg(pace.tokensPerSecondPerUser)));
        if (keptUp)
            QVERIFY2(
                slowest >= 0.95 * pace.tokensPerSecondPerUser,
                qPrintable(QStringLiteral("%1 tokens/s, predicted %2").arg(rate).arg(pace.tokensPerSecondPerUser)));
        qInfo("scenario's model: %d tokens in %.3f s (predicted %.3f s), %.1f tokens/s (predicted %.1f), %d frames",
              tokens, seen.last->elapsedSeconds, due, rate, pace.tokensPerSecondPerUser, seen.frames);

        // The loaded model: stories260K on a small rectangle of one WSE-3, in the main view.
        QSignalSpy chatPlaced(live, &LiveWafer::placementReady);
        live->setShows(LiveWafer::Shows::LoadedModel);
        QVERIFY(chatPlaced.wait(60000));
        QTRY_VERIFY(live->isReady());
        const std::shared_ptr<const PlacementResult> own = live->chatPlacement();
        QVERIFY(own);
        QCOMPARE(window.result(), own);
        QCOMPARE(window.stage()->view()->snapshot(), own->snapshot);
        QCOMPARE(own->devices, 1);
        int64_t regionCores = 0;
        int right = 0, bottom = 0;
        for (const MeshRegion& r : own->snapshot->regions) {
            right = std::max(right, r.x + r.width);
            bottom = std::max(bottom, r.y + r.height);
            regionCores += int64_t(r.width) * r.height;
        }
        QVERIFY(regionCores > 0);
        QVERIFY2(int64_t(right) * bottom * 100 < int64_t(own->snapshot->meshCols) * own->snapshot->meshRows,
                 qPrintable(QStringLiteral("%1 x %2").arg(right).arg(bottom)));
        QVERIFY(header->text().contains(QStringLiteral("stories260K")));

        // On the KV layer the cache fills with the conversation (both turns' text is the prompt now).
        window.setLayer(MeshLayer::KvCache);
        const SceneSchedule& ownTiming = *own->scene->timing;
        seen = runTurn(window, *ownTiming.schedule, QStringLiteral("Once upon a time"), 64);
        QCOMPARE(window.stage()->view()->layer(), MeshLayer::KvCache);
        QVERIFY(seen.last && seen.last->isFinal());
        QVERIFY(seen.last->generatedTokens > 10);
        QCOMPARE(seen.tokensCounted, seen.last->generatedTokens);
        QVERIFY(seen.frames >= 1 && seen.frames <= seen.snapshots);
        QCOMPARE(seen.framesMatched, seen.frames);
        QVERIFY(!seen.indexWentBack);
        QCOMPARE(seen.lastIndex, seen.last->generatedTokens - 1);
        // The KV layer holds the conversation's tokens, and only grows.
        QVERIFY(!seen.kvShrank);
        const int64_t step = kvOccupancyStep(*own->scene->placement);
        const int64_t cached = (seen.last->promptTokens + seen.last->generatedTokens) / step * step;
        const double held = double(kvBytesHeld(*own->scene->placement, cached));
        QVERIFY(held > 0);
        QVERIFY2(std::abs(seen.kvBytesSeen - held) <= 1e-3 * held,
                 qPrintable(QStringLiteral("%1 vs %2 bytes").arg(seen.kvBytesSeen).arg(held)));
        qInfo("loaded model: %d x %d cores of %d x %d, %d tokens, %d frames", right, bottom, own->snapshot->meshCols,
              own->snapshot->meshRows, seen.last->generatedTokens, seen.frames);

        // Back to the scenario's model: the window places Qwen3-32B again.
        QSignalSpy again(&window, &MainWindow::placementFinished);
        live->setShows(LiveWafer::Shows::ScenarioModel);
        QVERIFY(again.wait(60000));
        QCOMPARE(window.result()->devices, 2);
    }
};

QTEST_MAIN(TestLiveWafer)
#include "tst_livewafer.moc"
