// A full chat turn on the real stories260K model through the run controller
// (worker thread, real Generator and Tokenizer), and through the chat
// controller and chat pane as a user drives it. The text must equal the
// greedy reference made with llama.cpp (shared/models/stories260K/
// stories260K.reference.json: "Once upon a time", 64 greedy tokens).
#include "app/common/presetlibrary.h"
#include "app/compare/comparecontroller.h"
#include "app/scenario/scenario.h"
#include "app/session/chatcontroller.h"
#include "app/session/livewafer.h"
#include "app/session/runcontroller.h"
#include "app/session/tokenframes.h"
#include "engine/session/generatorsessionmodel.h"
#include "tests/common/testmodels.h"
#include "views/chat/chatpane.h"
#include "views/compare/tokenrace.h"
#include "views/mesh/meshview.h"

#include <QDockWidget>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMainWindow>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTranslator>

#include <algorithm>
#include <set>

namespace {

struct Reference
{
    QString prompt;
    QString text; // generated text after the prompt
    int promptTokens = 0;
    int tokens = 0;
};

Reference loadReference(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    for (const QJsonValue& v : root.value(QStringLiteral("results")).toArray()) {
        const QJsonObject r = v.toObject();
        if (r.value(QStringLiteral("prompt")).toString() != QLatin1String("Once upon a time"))
            continue;
        Reference ref;
        ref.prompt = r.value(QStringLiteral("prompt")).toString();
        ref.text = r.value(QStringLiteral("generated_text")).toString();
        ref.promptTokens = r.value(QStringLiteral("prompt_ids_with_bos")).toArray().size();
        ref.tokens = r.value(QStringLiteral("generated_ids")).toArray().size();
        return ref;
    }
    return {};
}

using SnapshotPtr = std::shared_ptr<const ws::SessionSnapshot>;

} // namespace

class TestChatTurn : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // recent files go to a test settings file
    }

    void greedyTurnMatchesReference_data()
    {
        QTest::addColumn<QString>("modelFile");
        QTest::newRow("gguf") << "stories260K/stories260K.gguf";
        QTest::newRow("llama2.c checkpoint with tok512.bin") << "stories260K/stories260K.bin";
    }
    void greedyTurnMatchesReference()
    {
        QFETCH(QString, modelFile);
        WS_REQUIRE_MODEL(referencePath, "stories260K/stories260K.reference.json");
        const QString modelPath = wstest::testModelPath(modelFile);
        QVERIFY(QFileInfo::exists(modelPath));
        const Reference ref = loadReference(referencePath_q);
        QCOMPARE(ref.tokens, 64);
        QVERIFY(!ref.text.isEmpty());

        ws::RunController controller;
        QSignalSpy loaded(&controller, &ws::RunController::modelLoaded);
        QSignalSpy loadFailed(&controller, &ws::RunController::modelLoadFailed);
        const std::string path = modelPath.toStdString();
        controller.loadModel([path]() -> ws::Expected<std::unique_ptr<ws::SessionModel>> {
            ws::GeneratorSessionModel::Options options;
            options.threads = 1;
            auto model = ws::GeneratorSessionModel::load(path, options);
            if (!model)
                return model.error();
            return std::unique_ptr<ws::SessionModel>(std::move(*model));
        });
        QVERIFY2(loaded.wait(20000), loadFailed.isEmpty() ? "timeout" : qPrintable(loadFailed.at(0).at(0).toString()));
        QCOMPARE(controller.modelInfo()->config.architecture, std::string("llama"));
        QCOMPARE(controller.modelInfo()->config.layers, 5);
        QCOMPARE(controller.modelInfo()->config.hiddenSize, 64);
        QVERIFY(!controller.modelInfo()->hasChatTemplate); // base model: completion

        ws::RunRequest request;
        request.turn.messages = {{ws::ChatRole::User, ref.prompt.toStdString()}};
        request.turn.sampling.temperature = 0;
        request.turn.maxTokens = ref.tokens;
        QSignalSpy finished(&controller, &ws::RunController::runFinished);
        QSignalSpy failed(&controller, &ws::RunController::runFailed);
        QSignalSpy snapshots(&controller, &ws::RunController::snapshotReady);
        controller.start(request);
        QVERIFY2(finished.wait(30000), failed.isEmpty() ? "timeout" : qPrintable(failed.at(0).at(1).toString()));
        const auto last = finished.at(0).at(0).value<SnapshotPtr>();
        QCOMPARE(QString::fromStdString(last->text), ref.text);
        QCOMPARE(last->generatedTokens, ref.tokens);
        QCOMPARE(last->promptTokens, ref.promptTokens);
        QCOMPARE(last->finishReason, ws::TurnEnd::TokenLimit);
        QVERIFY(last->cpuTokensPerSecond > 0);
        // Every streamed snapshot is a prefix of the final text.
        for (const auto& args : snapshots)
            QVERIFY(ref.text.startsWith(QString::fromStdString(args.at(0).value<SnapshotPtr>()->text)));
    }

    void chatPaneTurnThroughChatController()
    {
        WS_REQUIRE_MODEL(modelPath, "stories260K/stories260K.gguf");
        WS_REQUIRE_MODEL(referencePath, "stories260K/stories260K.reference.json");
        const Reference ref = loadReference(referencePath_q);
        QMainWindow window;
        ws::ChatController chat(&window);
        window.addDockWidget(Qt::RightDockWidgetArea, chat.pane());
        window.show();
        QSignalSpy modelChanged(&chat, &ws::ChatController::modelChanged);
        chat.openModelFile(modelPath_q);
        QVERIFY(modelChanged.wait(20000));
        QCOMPARE(modelChanged.at(0).at(0).value<ws::ModelConfig>().architecture, std::string("llama"));
        QVERIFY(chat.recentModels().contains(QFileInfo(modelPath_q).absoluteFilePath()));
        // The compared systems are predicted for the loaded model (off the GUI thread).
        QTRY_VERIFY_WITH_TIMEOUT(!chat.pane()->settingsPanel()->systems().empty(), 20000);
        for (const ws::SystemPace& system : chat.pane()->settingsPanel()->systems())
            QVERIFY2(system.tokensPerSecondPerUser > 0, system.id.c_str());

        ws::views::ChatSettings settings = chat.pane()->settings();
        settings.maxTokens = ref.tokens;
        settings.sampling.temperature = 0;
        chat.pane()->setSettings(settings);
        QSignalSpy finished(chat.runController(), &ws::RunController::runFinished);
        chat.pane()->input()->setPlainText(ref.prompt);
        QTest::keyClick(chat.pane()->input(), Qt::Key_Return);
        QVERIFY(finished.wait(30000));
        QCOMPARE(chat.pane()->messageCount(), 2);
        QCOMPARE(chat.pane()->message(1)->text(), ref.text);
        QCOMPARE(chat.pane()->message(1)->state(), ws::views::ChatMessageWidget::State::Done);
        const QString stats = chat.pane()->message(1)->stats();
        QVERIFY2(stats.contains(QStringLiteral("64 tokens")), qPrintable(stats));
        QVERIFY2(stats.contains(QStringLiteral("predicted: ")), qPrintable(stats));
        qInfo("stats line: %s", qPrintable(stats));
    }

    // The chat beside the wafer: the loaded model is placed on a WSE-3 and
    // every snapshot of the turn carries the dataflow frame of its token.
    // With WAFERSCOPE_SCREENSHOT_OUT=file.png the window is saved there
    // (packaging/screenshots/chat.png is made this way).
    // Switching the language while the app runs retranslates the chat's texts.
    void liveLanguageSwitch()
    {
        QMainWindow window;
        ws::ChatController chat(&window);
        window.addDockWidget(Qt::RightDockWidgetArea, chat.pane());
        QPushButton* send = nullptr;
        for (QPushButton* b : chat.pane()->findChildren<QPushButton*>())
            send = b->text() == QLatin1String("Send") ? b : send;
        QVERIFY(send);
        QTranslator zh;
        QVERIFY(zh.load(QStringLiteral(":/i18n/waferscope_zh_CN.qm")));
        QCoreApplication::installTranslator(&zh);
        QCoreApplication::processEvents();
        const QString translated = QCoreApplication::translate("ws::views::ChatPane", "Send");
        QVERIFY(translated != QLatin1String("Send"));
        QCOMPARE(send->text(), translated);
        QCOMPARE(chat.modelMenu()->title(), QCoreApplication::translate("ws::ModelMenu", "&Model"));
        QCoreApplication::removeTranslator(&zh);
        QCoreApplication::processEvents();
        QCOMPARE(send->text(), QStringLiteral("Send"));
    }

    void chatBesideAnimatedWafer()
    {
        WS_REQUIRE_MODEL(modelPath, "stories260K/stories260K.gguf");
        WS_REQUIRE_MODEL(referencePath, "stories260K/stories260K.reference.json");
        const Reference ref = loadReference(referencePath_q);
        QMainWindow window;
        window.resize(1500, 860);
        auto* mesh = new ws::views::MeshView;
        mesh->setLayer(ws::MeshLayer::Dataflow);
        window.setCentralWidget(mesh);
        ws::ChatController chat(&window);
        chat.liveWafer()->setShows(ws::LiveWafer::Shows::LoadedModel); // the wafer shows the chat's own model
        ws::Scenario scenario; // the wafer: WSE-3, FP32 weights as in the file, 512 tokens of context
        scenario.hardwarePreset = QStringLiteral("wse3");
        scenario.precision = ws::Precision::Fp32;
        scenario.contextTokens = 512;
        chat.setWaferScenario(scenario);
        QSignalSpy waferReady(&chat, &ws::ChatController::waferReady);
        QSignalSpy waferFailed(&chat, &ws::ChatController::waferFailed);
        connect(&chat, &ws::ChatController::waferReady, mesh, &ws::views::MeshView::setSnapshot);
        window.addDockWidget(Qt::RightDockWidgetArea, chat.pane());
        // The race view beside it, following the chat as the main window's race does.
        const ws::PresetLibrary presets;
        auto* race = new ws::views::TokenRace;
        ws::ComparisonController compare(presets, nullptr, race);
        connect(&chat, &ws::ChatController::sessionSnapshotReady, &compare,
                [&compare](SnapshotPtr s) { compare.followSession(s); });
        auto* raceDock = new QDockWidget(&window);
        raceDock->setWidget(race);
        window.addDockWidget(Qt::RightDockWidgetArea, raceDock);
        chat.pane()->setMinimumWidth(560);
        std::vector<std::shared_ptr<const ws::MeshFrame>> frames;
        int sessionSnapshots = 0;
        connect(&chat, &ws::ChatController::meshFrameReady, mesh, &ws::views::MeshView::setFrame);
        connect(&chat, &ws::ChatController::meshFrameReady, this,
                [&](std::shared_ptr<const ws::MeshFrame> f) { frames.push_back(f); });
        connect(&chat, &ws::ChatController::sessionSnapshotReady, this, [&] { ++sessionSnapshots; });
        int lastFrameToken = -1;
        connect(chat.liveWafer(), &ws::LiveWafer::frameShown, this,
                [&](std::shared_ptr<const ws::MeshFrame>, int index) { lastFrameToken = index; });
        window.show();

        QSignalSpy modelChanged(&chat, &ws::ChatController::modelChanged);
        chat.openModelFile(modelPath_q);
        QVERIFY(modelChanged.wait(20000));
        QTRY_VERIFY_WITH_TIMEOUT(!chat.pane()->settingsPanel()->systems().empty(), 20000);
        // The loaded model is the placed model: stories260K's 5 layers on the wafer.
        QTRY_VERIFY_WITH_TIMEOUT(!waferReady.isEmpty() || !waferFailed.isEmpty(), 30000);
        QVERIFY2(waferFailed.isEmpty(), waferFailed.isEmpty() ? "" : qPrintable(waferFailed.at(0).at(0).toString()));
        const auto placed = waferReady.at(0).at(0).value<std::shared_ptr<const ws::MeshSnapshot>>();
        QVERIFY(placed);
        QCOMPARE(mesh->snapshot(), placed);
        int layerRegions = 0;
        for (const ws::MeshRegion& region : placed->regions)
            layerRegions += region.layerIndex >= 0 ? 1 : 0;
        QCOMPARE(layerRegions, 5);
        ws::views::ChatSettings settings = chat.pane()->settings();
        settings.maxTokens = ref.tokens;
        chat.pane()->setSettings(settings);
        QSignalSpy finished(chat.runController(), &ws::RunController::runFinished);
        chat.pane()->send(ref.prompt);
        QVERIFY(finished.wait(30000));
        QCOMPARE(chat.pane()->message(1)->text(), ref.text);

        // The frames follow the tokens (made off the GUI thread, the latest snapshot's first): the last one shown
        // is the last token's; the frames differ from token to token.
        QTRY_COMPARE_WITH_TIMEOUT(lastFrameToken, ref.tokens - 1, 10000);
        QVERIFY(!frames.empty());
        QVERIFY(int(frames.size()) <= sessionSnapshots);
        std::set<int> activeCounts;
        for (const auto& f : frames) {
            QCOMPARE(f->base->meshCols, placed->meshCols);
            QVERIFY(!f->activity.empty());
            activeCounts.insert(
                int(std::count_if(f->activity[0].begin(), f->activity[0].end(), [](float v) { return v > 0; })));
        }
        QVERIFY(*activeCounts.rbegin() > 0);
        if (frames.size() > 2)
            QVERIFY(activeCounts.size() > 1);
        QCOMPARE(mesh->frame(), frames.back()); // the view shows the latest token's frame
        // The race view follows the same stream: this CPU and every predicted system.
        QCOMPARE(race->chart()->rows().size(), chat.pane()->settingsPanel()->systems().size() + 1);

        const QByteArray out = qgetenv("WAFERSCOPE_SCREENSHOT_OUT");
        if (!out.isEmpty()) {
            QTest::qWait(300); // let the nested layouts settle
            QVERIFY(window.grab().save(QString::fromLocal8Bit(out)));
        }
    }
};

QTEST_MAIN(TestChatTurn)
#include "tst_chatturn.moc"
