// One decode pipeline: `waferscope-cli generate`, the chat (RunController on
// its worker thread, as the chat pane drives it) and `waferscope-cli record
// --model-file` load the same model the same way and run the same turn, so
// for the same model, prompt and settings (greedy, a token limit) they give
// byte-identical text. The chat's streamed pieces join to that text too.
#include "app/session/runcontroller.h"
#include "engine/session/generatorsessionmodel.h"
#include "tests/common/clirunner.h"
#include "tests/common/testmodels.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace {

using SnapshotPtr = std::shared_ptr<const ws::SessionSnapshot>;

constexpr int kTokens = 12;
const char* const kPrompt = "Lily and Tom went to the park";

} // namespace

class TestDecodePipeline : public QObject
{
    Q_OBJECT
private slots:
    void generateChatAndRecordAgree_data()
    {
        QTest::addColumn<QString>("modelFile");
        QTest::newRow("gguf") << "stories260K/stories260K.gguf";
        QTest::newRow("llama2.c checkpoint with tok512.bin beside it") << "stories260K/stories260K.bin";
    }
    void generateChatAndRecordAgree()
    {
        QFETCH(QString, modelFile);
        const QString modelPath = wstest::testModelPath(modelFile);
        WS_REQUIRE_MODEL_FILE(modelPath);

        // 1. waferscope-cli generate.
        const wstest::CliRun generated =
            wstest::runCli({"generate", "--model", modelPath, "--prompt", kPrompt, "--tokens", QString::number(kTokens),
                            "--threads", "1", "--json"});
        QVERIFY2(generated.exitCode == 0, generated.err.constData());
        const QByteArray cliText = QJsonDocument::fromJson(generated.out).object().value("text").toString().toUtf8();
        QVERIFY(!cliText.isEmpty());

        // 2. The chat: the run controller's worker thread and the session model.
        ws::RunController controller;
        QSignalSpy loaded(&controller, &ws::RunController::modelLoaded);
        const std::string path = modelPath.toStdString();
        controller.loadModel([path]() -> ws::Expected<std::unique_ptr<ws::SessionModel>> {
            auto model = ws::GeneratorSessionModel::load(path);
            if (!model)
                return model.error();
            return std::unique_ptr<ws::SessionModel>(std::move(*model));
        });
        QVERIFY(loaded.wait(20000));
        ws::RunRequest request;
        request.turn.messages = {{ws::ChatRole::User, kPrompt}};
        request.turn.maxTokens = kTokens; // sampling: the defaults, greedy, as generate's and record's
        QSignalSpy finished(&controller, &ws::RunController::runFinished);
        QSignalSpy snapshots(&controller, &ws::RunController::snapshotReady);
        controller.start(request);
        QVERIFY(finished.wait(30000));
        const auto last = finished.at(0).at(0).value<SnapshotPtr>();
        const QByteArray chatText = QByteArray::fromStdString(last->text);
        QCOMPARE(last->generatedTokens, kTokens);
        QCOMPARE(last->finishReason, ws::TurnEnd::TokenLimit);
        // The snapshots' pieces are every shown token once, in order, and join to the text.
        std::string joined;
        int pieceTokens = 0;
        for (const auto& args : snapshots) {
            for (const ws::TokenPiece& piece : args.at(0).value<SnapshotPtr>()->newPieces) {
                joined += piece.text;
                pieceTokens += piece.token >= 0 ? 1 : 0;
            }
        }
        QCOMPARE(QByteArray::fromStdString(joined), chatText);
        QCOMPARE(pieceTokens, kTokens);

        // 3. waferscope-cli record --model-file: the chat panel's answer after the last token.
        QTemporaryDir dir;
        const wstest::CliRun recorded = wstest::runCli({"record",
                                                        "--model",
                                                        "llama-3.1-8b",
                                                        "--hardware",
                                                        "wse3",
                                                        "--model-file",
                                                        modelPath,
                                                        "--prompt",
                                                        kPrompt,
                                                        "--tokens",
                                                        QString::number(kTokens),
                                                        "--fps",
                                                        "1",
                                                        "--width",
                                                        "160",
                                                        "--height",
                                                        "90",
                                                        "--out",
                                                        dir.filePath("chat.gif"),
                                                        "--json"});
        QVERIFY2(recorded.exitCode == 0, recorded.err.constData());
        const QByteArray recordText =
            QJsonDocument::fromJson(recorded.out).object().value("answer").toString().toUtf8();

        QCOMPARE(chatText, cliText);
        QCOMPARE(recordText, cliText);
    }
};

QTEST_MAIN(TestDecodePipeline)
#include "tst_decodepipeline.moc"
