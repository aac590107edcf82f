// A gemma3 file and a gpt-oss file in the chat, as a user opens them: the random-weight
// gemma3 and gpt-oss models of tests/engine/decode/data/ggmltypes (sliding and global
// layers, see its README) open in the chat pane, are placed on the wafer beside it,
// and a greedy turn gives the text of llama.cpp's greedy ids (reference-gemma3.json,
// reference-gptoss.json). Neither file has a chat template: completion mode.
#include "app/scenario/scenario.h"
#include "app/session/chatcontroller.h"
#include "app/session/livewafer.h"
#include "app/session/runcontroller.h"
#include "engine/gguf/gguffile.h"
#include "engine/tokenizer/tokenizer.h"
#include "tests/common/testmodels.h"
#include "views/chat/chatpane.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMainWindow>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

namespace {

const QString kData = QStringLiteral("tests/engine/decode/data/ggmltypes/");

// llama.cpp's greedy ids for `prompt` on `model`, from `reference`.
std::vector<ws::TokenId> referenceIds(const QString& reference, const QString& model, const QString& prompt)
{
    QFile file(wstest::sourcePath(kData + reference));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    for (const QJsonValue& m : root.value(QStringLiteral("models")).toArray()) {
        if (m.toObject().value(QStringLiteral("file")).toString() != model)
            continue;
        for (const QJsonValue& r : m.toObject().value(QStringLiteral("runs")).toArray()) {
            if (r.toObject().value(QStringLiteral("prompt")).toString() != prompt)
                continue;
            std::vector<ws::TokenId> ids;
            for (const QJsonValue& id : r.toObject().value(QStringLiteral("generated_ids")).toArray())
                ids.push_back(ws::TokenId(id.toInt()));
            return ids;
        }
    }
    return {};
}

} // namespace

class TestChatGemma3 : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void opensPlacesAndChats_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("reference");
        QTest::addColumn<QString>("architecture");
        QTest::addColumn<QString>("prompt");
        QTest::newRow("gemma3") << QStringLiteral("gemma3-random-Q8_0.gguf") << QStringLiteral("reference-gemma3.json")
                                << QStringLiteral("gemma3") << QStringLiteral("The cat");
        QTest::newRow("gpt-oss") << QStringLiteral("gptoss-random-Q8_0.gguf") << QStringLiteral("reference-gptoss.json")
                                 << QStringLiteral("gpt-oss") << QStringLiteral("Once upon a time");
    }
    void opensPlacesAndChats()
    {
        QFETCH(QString, model);
        QFETCH(QString, reference);
        QFETCH(QString, architecture);
        QFETCH(QString, prompt);
        const QString path = wstest::sourcePath(kData + model);
        QVERIFY(QFileInfo::exists(path));
        const auto ids = referenceIds(reference, model, prompt);
        QCOMPARE(ids.size(), size_t(24));
        auto gguf = ws::GgufFile::open(path.toStdString());
        QVERIFY(gguf);
        auto tokenizer = ws::Tokenizer::fromGguf(*gguf);
        QVERIFY(tokenizer);
        const QString expected = QString::fromStdString(tokenizer->decode(ids));
        QVERIFY(!expected.isEmpty());

        QMainWindow window;
        ws::ChatController chat(&window);
        window.addDockWidget(Qt::RightDockWidgetArea, chat.pane());
        window.show();
        // The wafer beside the chat shows the loaded model: a WSE-3, 8-bit weights as Q8_0, 512 tokens.
        chat.liveWafer()->setShows(ws::LiveWafer::Shows::LoadedModel);
        ws::Scenario wse3;
        wse3.contextTokens = 512;
        wse3.precision = ws::Precision::Int8;
        wse3.hardwarePreset = QStringLiteral("wse3");
        QSignalSpy waferReady(&chat, &ws::ChatController::waferReady);
        QSignalSpy waferFailed(&chat, &ws::ChatController::waferFailed);
        chat.setWaferScenario(wse3);

        QSignalSpy modelChanged(&chat, &ws::ChatController::modelChanged);
        chat.openModelFile(path);
        QVERIFY(modelChanged.wait(20000));
        const auto config = modelChanged.at(0).at(0).value<ws::ModelConfig>();
        QCOMPARE(config.architecture, architecture.toStdString());
        QCOMPARE(config.layers, 2);
        QCOMPARE(config.slidingWindow, 8);
        // Placed: both layers on the wafer.
        QTRY_VERIFY_WITH_TIMEOUT(!waferReady.isEmpty() || !waferFailed.isEmpty(), 30000);
        QVERIFY2(waferFailed.isEmpty(), waferFailed.isEmpty() ? "" : qPrintable(waferFailed.at(0).at(0).toString()));
        const auto placed = waferReady.at(0).at(0).value<std::shared_ptr<const ws::MeshSnapshot>>();
        QVERIFY(placed);
        int layerRegions = 0;
        for (const ws::MeshRegion& region : placed->regions)
            layerRegions += region.layerIndex >= 0 ? 1 : 0;
        QCOMPARE(layerRegions, 2);

        ws::views::ChatSettings settings = chat.pane()->settings();
        settings.maxTokens = int(ids.size());
        settings.sampling.temperature = 0;
        settings.kvCache = ws::KvCacheType::F32; // as the references were made (the chat's default is F16)
        chat.pane()->setSettings(settings);
        QSignalSpy finished(chat.runController(), &ws::RunController::runFinished);
        chat.pane()->send(prompt);
        QVERIFY(finished.wait(30000));
        QCOMPARE(chat.pane()->messageCount(), 2);
        QCOMPARE(chat.pane()->message(1)->text(), expected);
        const QString stats = chat.pane()->message(1)->stats();
        QVERIFY2(stats.contains(QStringLiteral("24 tokens")), qPrintable(stats));
        qInfo("%s turn: %s | %s", qPrintable(architecture), qPrintable(expected), qPrintable(stats));
    }
};

QTEST_MAIN(TestChatGemma3)
#include "tst_chatgemma3.moc"
