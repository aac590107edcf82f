// Presentation mode in the real MainWindow, offscreen: each shipped tour runs to its end with time compressed
// (the tour's clock advanced by hand), its captions filled with the engine's values; the keys (→ ← Space Esc)
// drive the tour and leaving gives the window back; captions follow the interface language.
#include "app/common/languagemanager.h"
#include "app/common/presetlibrary.h"
#include "app/dataflow/dataflowdock.h"
#include "app/defects/defectsdock.h"
#include "app/present/presentationmode.h"
#include "app/present/tourcaptions.h"
#include "app/present/windowstage.h"
#include "app/stage/stage.h"
#include "app/window/filemenucontroller.h"
#include "app/window/mainwindow.h"
#include "tests/common/clirunner.h"
#include "views/chat/chatstats.h"
#include "views/mesh/meshview.h"

#include <QDockWidget>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenuBar>
#include <QSignalSpy>
#include <QtTest>

using namespace ws;

class TestTourWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_presets = std::make_unique<PresetLibrary>(QString());
    }

    void shippedTourRunsToItsEnd_data()
    {
        QTest::addColumn<QString>("path");
        for (const QString& path : TourFormat::shippedTours())
            QTest::newRow(qPrintable(path)) << path;
    }

    void shippedTourRunsToItsEnd()
    {
        QFETCH(QString, path);
        Rig rig(*m_presets);
        MainWindow& window = *rig.window;
        PresentationMode* mode = rig.mode;
        QString error;
        QVERIFY2(mode->present(path, &error), qPrintable(error));
        QVERIFY(mode->isPresenting());
        QVERIFY(!window.menuBar()->isVisible());
        TourPlayer* player = mode->player();
        QStringList captions;
        bool raceShown = false;
        auto* raceDock = window.findChild<QDockWidget*>(QStringLiteral("tokenRaceDock"));
        connect(player, &TourPlayer::captionChanged, this, [&](const QString& c) {
            if (!c.isEmpty() && !captions.contains(c))
                captions << c;
        });
        connect(player, &TourPlayer::stepChanged, this, [&] { raceShown = raceShown || raceDock->isVisible(); });
        runToEnd(player);
        QVERIFY2(player->error().isEmpty(), qPrintable(player->error()));
        QVERIFY(player->isFinished());
        QCOMPARE(player->stepIndex(), int(player->tour().steps.size()));
        // Every caption shown, with every placeholder filled from the engine.
        int expected = 0;
        for (const TourStep& step : player->tour().steps)
            expected += step.kind == TourStepKind::Caption;
        QCOMPARE(captions.size(), expected);
        for (const QString& c : captions) {
            QVERIFY2(!c.contains(QLatin1Char('{')) && !c.contains(QStringLiteral("–")), qPrintable(c));
        }
        const QLocale locale;
        const auto result = window.result();
        QVERIFY(result);
        const QString model = QString::fromStdString(result->model().name);
        if (!path.endsWith(QLatin1String("defects-redundancy.json"))) // these two start with the model's name
            QVERIFY2(captions.first().startsWith(model), qPrintable(captions.first()));
        if (path.endsWith(QLatin1String("token-trip.json"))) {
            // The token's time and rate: the engine's prediction for the scenario on stage, as every view and
            // `waferscope-cli predict --json` give it (issue 31), not the Dataflow timetable's closed forms.
            const Scenario shown = window.request();
            const wstest::CliRun run = wstest::runCli(
                {"predict", "--model", shown.modelPreset, "--hardware", shown.hardwarePreset, "--precision",
                 QString::fromLatin1(precisionId(shown.precision).data()), "--context",
                 QString::number(shown.contextTokens), "--batch", QString::number(shown.batch), "--prompt-tokens",
                 QString::number(shown.promptTokens), "--output-tokens", QString::number(shown.outputTokens),
                 "--devices", QString::number(result->devices), "--json"});
            QVERIFY2(run.exitCode == 0, run.err.constData());
            const QJsonObject cli = QJsonDocument::fromJson(run.out).object();
            const double seconds = cli.value("ms_per_token").toDouble() / 1e3;
            QVERIFY2(captions.last().contains(views::ChatStats::formatSeconds(seconds, locale)),
                     qPrintable(captions.last()));
            QVERIFY2(
                captions.last().contains(locale.toString(cli.value("tokens_per_second_per_user").toDouble(), 'f', 0)),
                qPrintable(captions.last()));
            QCOMPARE(window.stage()->view()->layer(), MeshLayer::Dataflow);
        } else if (path.endsWith(QLatin1String("wafer-gpu-groq.json"))) {
            QVERIFY(raceShown);
        } else {
            const auto outcome = window.defectsDock()->controller()->outcome();
            QVERIFY(outcome && outcome->remapped() && outcome->summary.deadCores > 0);
            QVERIFY(captions.join(QLatin1Char('\n')).contains(locale.toString(qlonglong(outcome->summary.deadCores))));
        }
        QTest::keyClick(&window, Qt::Key_Escape);
        QVERIFY(!mode->isPresenting());
        QVERIFY(window.menuBar()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 120000);
    }

    void keysDriveTheTour()
    {
        Rig rig(*m_presets);
        MainWindow& window = *rig.window;
        PresentationMode* mode = rig.mode;
        QString error;
        QVERIFY2(mode->present(TourFormat::shippedTours().constFirst(), &error), qPrintable(error));
        TourPlayer* player = mode->player();
        waitIdle(window, player);
        const QString first = player->caption();
        QVERIFY(!first.isEmpty());
        QTest::keyClick(&window, Qt::Key_Right);
        waitIdle(window, player);
        QVERIFY(player->caption() != first);
        const int step = player->stepIndex();
        QTest::keyClick(&window, Qt::Key_Space);
        QVERIFY(player->isPaused());
        QCOMPARE(window.stage()->view()->layer(), MeshLayer::Dataflow);
        QVERIFY(!window.dataflowDock()->controller()->isPlaying()); // its own Space shortcut did not fire
        player->advance(100);
        QCOMPARE(player->stepIndex(), step);
        QTest::keyClick(&window, Qt::Key_Space);
        QVERIFY(!player->isPaused());
        QTest::keyClick(&window, Qt::Key_Left);
        waitIdle(window, player);
        QCOMPARE(player->caption(), first);
        for (int i = 0; i < 2; ++i) { // each from the open step placed (a key while it places starts from there)
            QTest::keyClick(&window, Qt::Key_Right);
            waitIdle(window, player);
        }
        QVERIFY(player->stepIndex() > step);
        QTest::keyClick(&window, Qt::Key_Home); // from the start again (the Home key of the window, not a list's)
        waitIdle(window, player);
        QCOMPARE(player->caption(), first);
        QTest::keyClick(&window, Qt::Key_Escape);
        QVERIFY(!mode->isPresenting());
        QVERIFY(window.menuBar()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 120000);
        // F11 (View > Present) presents the first shipped tour.
        QTest::keyClick(&window, Qt::Key_F11);
        QVERIFY(mode->isPresenting());
        QTest::keyClick(&window, Qt::Key_F11);
        QVERIFY(!mode->isPresenting());
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 120000);
    }

    void captionsFollowTheLanguage()
    {
        Rig rig(*m_presets);
        MainWindow& window = *rig.window;
        LanguageManager& languages = rig.languages;
        PresentationMode* mode = rig.mode;
        QString error;
        QVERIFY2(mode->present(TourFormat::shippedTours().constFirst(), &error), qPrintable(error));
        TourPlayer* player = mode->player();
        waitIdle(window, player);
        const QString english = mode->captionText();
        QVERIFY(english.startsWith(QString::fromStdString(window.result()->model().name)));
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        QCoreApplication::processEvents();
        const QString chinese = mode->captionText();
        QVERIFY(chinese != english);
        QVERIFY2(chinese.contains(QRegularExpression(QStringLiteral("[\\x{4e00}-\\x{9fff}]"))), qPrintable(chinese));
        QCOMPARE(chinese, TourCaptions::display(player->tour().steps[3].text, mode->stage()->values()));
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
        QCoreApplication::processEvents();
        QCOMPARE(mode->captionText(), english);
        mode->leave();
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 120000);
    }

    // Large type on what the presentation shows (the stage, a dock a step shows), not on the hidden menus and
    // docks, whose font change cost the switch 5-7 ms each way; leaving gives every widget its font back.
    void largeTypeOnWhatIsShown()
    {
        Rig rig(*m_presets);
        MainWindow& window = *rig.window;
        PresentationMode* mode = rig.mode;
        const double normal = window.font().pointSizeF();
        auto* comparison = window.findChild<QDockWidget*>(QStringLiteral("comparisonDock"));
        auto* layout = window.findChild<QDockWidget*>(QStringLiteral("layoutDock"));
        QVERIFY(comparison && layout);
        QString error;
        QVERIFY2(mode->present(TourFormat::shippedTours().constFirst(), &error), qPrintable(error));
        QCOMPARE(window.font().pointSizeF(), normal);
        QCOMPARE(window.centralWidget()->font().pointSizeF(), normal * 1.25);
        QCOMPARE(window.stage()->view()->font().pointSizeF(), normal * 1.25);
        QVERIFY(layout->isHidden());
        QCOMPARE(layout->font().pointSizeF(), normal);
        mode->stage()->showComparison(true); // as a tour step shows it
        QVERIFY(comparison->isVisible());
        QCOMPARE(comparison->font().pointSizeF(), normal * 1.25);
        mode->leave();
        QCOMPARE(window.font().pointSizeF(), normal);
        for (QWidget* w : {window.centralWidget(), static_cast<QWidget*>(comparison)}) {
            QCOMPARE(w->font().pointSizeF(), normal);
            QVERIFY(!w->testAttribute(Qt::WA_SetFont)); // inherits the window's again
        }
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 120000);
    }

    // Presenting and leaving lay the whole window out again; its paint comes on the next turn of the event loop,
    // so the two are not served back to back (bench_present's switch). The window paints again after it, also
    // when present() leaves a presentation first, and nothing keeps it from painting.
    void windowPaintsOnTheTurnAfterTheSwitch()
    {
        Rig rig(*m_presets);
        MainWindow& window = *rig.window;
        PresentationMode* mode = rig.mode;
        QString error;
        for (int round = 0; round < 2; ++round) { // the second present() leaves the first presentation itself
            QVERIFY2(mode->present(TourFormat::shippedTours().constFirst(), &error), qPrintable(error));
            QVERIFY(!window.updatesEnabled());
            QCoreApplication::processEvents();
            QVERIFY(window.updatesEnabled());
        }
        mode->leave();
        QVERIFY(!window.updatesEnabled());
        QCoreApplication::processEvents();
        QVERIFY(window.updatesEnabled());
        window.setUpdatesEnabled(false); // held by someone else: leaving does not let it paint
        QVERIFY2(mode->present(TourFormat::shippedTours().constFirst(), &error), qPrintable(error));
        mode->leave();
        QCoreApplication::processEvents();
        QVERIFY(!window.updatesEnabled());
        window.setUpdatesEnabled(true);
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 120000);
    }

    // A layer step that also changes what the Dataflow dock plays (the engine's layer back to the whole token)
    // makes one frame, not one per setting (the overlay, the pace, the schedule), and the view shows it.
    void aLayerStepMakesOneFrame()
    {
        Rig rig(*m_presets);
        MainWindow& window = *rig.window;
        QString error;
        QVERIFY2(rig.mode->present(TourFormat::shippedTours().constFirst(), &error), qPrintable(error));
        WindowStage* stage = rig.mode->stage();
        stage->setLayer(MeshLayer::Dataflow);
        waitIdle(window, rig.mode->player());
        stage->setLayer(MeshLayer::Links, 0);
        QTRY_VERIFY_WITH_TIMEOUT(!stage->isBusy(), 120000); // the engine's run of layer 0
        auto* dock = window.findChild<DataflowDock*>();
        QVERIFY(dock && dock->source() == 1);
        dock->controller()->pause(); // the frame shown at once, not made off the GUI thread as one that plays
        QSignalSpy frames(dock->controller(), &DataflowController::frameReady);
        stage->setLayer(MeshLayer::Dataflow, -1);
        QCOMPARE(dock->source(), 0);
        QCOMPARE(frames.count(), 1);
        QCOMPARE(window.findChild<Stage*>()->view()->frame(), dock->controller()->currentFrame());
        QVERIFY(!dock->controller()->executed()); // the closed forms' whole token
    }

    // The engine's run of a layer arrives on a wafer the view is not on: the dock shows its schedule on that
    // wafer (focusExecutedLayer), and no frame is made for the wafer it leaves.
    void noFrameForTheWaferAnEngineRunLeaves()
    {
        Rig rig(*m_presets);
        MainWindow& window = *rig.window;
        QString error;
        QVERIFY2(rig.mode->present(TourFormat::shippedTours().constFirst(), &error), qPrintable(error));
        WindowStage* stage = rig.mode->stage();
        waitIdle(window, rig.mode->player());
        auto* dock = window.findChild<DataflowDock*>();
        auto* mainStage = window.findChild<Stage*>();
        QVERIFY(dock && mainStage->view()->snapshot());
        QVERIFY2(mainStage->view()->snapshot()->deviceCount > 1, "the tour's model spans two wafers");
        stage->setLayer(MeshLayer::Dataflow);
        mainStage->setDevice(1); // layer 0 runs on the first wafer
        dock->controller()->pause();
        QCOMPARE(dock->controller()->device(), 1);
        stage->setLayer(MeshLayer::Dataflow, 0);
        QSignalSpy frames(dock->controller(), &DataflowController::frameReady);
        QTRY_VERIFY_WITH_TIMEOUT(!stage->isBusy(), 120000); // the engine's run of layer 0
        QCOMPARE(mainStage->view()->device(), 0);
        QCOMPARE(dock->controller()->device(), 0);
        QVERIFY(dock->controller()->executed());
        // The frames since (the run's, then those it plays): none made for the wafer left.
        QVERIFY(!frames.isEmpty());
        for (const QList<QVariant>& args : frames) {
            const auto frame = args.at(0).value<std::shared_ptr<const MeshFrame>>();
            QVERIFY(frame && frame->activity.size() >= 1);
            QVERIFY(frame->activity.size() < 2 || frame->activity[1].empty());
        }
    }

private:
    // The real window at a laptop's size, in English, its presentation mode on the test's clock.
    struct Rig
    {
        LanguageManager languages;
        std::unique_ptr<MainWindow> window;
        PresentationMode* mode = nullptr;
        explicit Rig(const PresetLibrary& presets)
        {
            languages.setLanguage(QStringLiteral("en"));
            window = std::make_unique<MainWindow>(presets, languages);
            window->fileMenu()->setInteractive(false);
            window->resize(1366, 768);
            window->show();
            mode = window->findChild<PresentationMode*>();
            mode->setFullScreen(false);
            mode->setAutoPlay(false); // the test's clock
        }
    };

    // Until the stage is idle and the steps waiting for it have run. A step that ran may start work of its own
    // (the open step after the engine's run of a layer finished): wait for that too, as the recorder does.
    static void waitIdle(MainWindow& window, TourPlayer* player)
    {
        QElapsedTimer t;
        t.start();
        PresentationMode* mode = window.findChild<PresentationMode*>();
        do {
            while (mode->stage()->isBusy() && t.elapsed() < 120000)
                QTest::qWait(10);
            player->advance(0);
        } while (mode->stage()->isBusy() && t.elapsed() < 120000);
    }

    static void runToEnd(TourPlayer* player)
    {
        QElapsedTimer t;
        t.start();
        while (!player->isFinished() && t.elapsed() < 300000) {
            QTest::qWait(5);
            player->advance(0.5); // half a second of tour time a turn: ten times real time or more
        }
    }

    std::unique_ptr<PresetLibrary> m_presets;
};

QTEST_MAIN(TestTourWindow)
#include "tst_tourwindow.moc"
