#include "engine/model/modelpresetparser.h"

#include "tests/common/testmodels.h"

#include <QDir>
#include <QFile>
#include <QTest>

namespace {
QByteArray model(const QByteArray& fields, const QByteArray& arch = "llama")
{
    return R"({"version": 1, "kind": "model", "id": "m", "name": "M", "architecture": ")" + arch + R"(", "fields": {)" +
           fields + "}}";
}
const QByteArray kGood = R"("layers": {"value": 2, "source": "s"}, "hiddenSize": {"value": 64, "source": "s"},
  "ffnSize": {"value": 128, "source": "s"}, "headCount": {"value": 4, "source": "s"},
  "kvHeadCount": {"value": 2, "source": "s"}, "vocabSize": {"value": 100, "source": "s"},
  "contextLength": {"value": 256, "source": "s"})";
QByteArray with(const QByteArray& from, const QByteArray& to)
{
    return QByteArray(kGood).replace(from, to);
}
} // namespace

class TestModelPresetParser : public QObject
{
    Q_OBJECT
private slots:
    void good()
    {
        const QByteArray text = model(kGood + R"(, "precision": {"value": "fp16", "source": "s"})");
        auto m = ws::parseModelPreset(std::string_view(text.constData(), size_t(text.size())), "m.json");
        QVERIFY2(m.hasValue(), m.hasValue() ? "" : m.error().message().c_str());
        QCOMPARE(m->headDim, 16); // derived: 64 / 4
        QCOMPARE(m->nativePrecision, ws::Precision::Fp16);
        QCOMPARE(m->layers, 2);
    }

    void bad_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expectInError");
        QTest::newRow("bad json") << QByteArray("{\"version\": 1, \"fields\": {") << "not valid JSON";
        QTest::newRow("missing layers") << model(QByteArray(kGood).replace(R"("layers": {"value": 2, "source": "s"},)",
                                                                           ""))
                                        << "layers";
        QTest::newRow("zero hidden") << model(with("\"value\": 64", "\"value\": 0")) << "hiddenSize";
        QTest::newRow("negative vocab") << model(with("\"value\": 100", "\"value\": -100")) << "vocabSize";
        QTest::newRow("heads do not divide hidden") << model(with("\"value\": 4,", "\"value\": 6,")
                                                                 .replace("\"value\": 2, \"source\": \"s\"}, \"vocab",
                                                                          "\"value\": 3, \"source\": \"s\"}, \"vocab"))
                                                    << "do not divide hiddenSize";
        QTest::newRow("kv heads do not divide heads")
            << model(with("\"kvHeadCount\": {\"value\": 2", "\"kvHeadCount\": {\"value\": 3")) << "kvHeadCount";
        QTest::newRow("unknown precision")
            << model(kGood + R"(, "precision": {"value": "fp12", "source": "s"})") << "unknown precision";
        QTest::newRow("bool as number") << model(kGood + R"(, "tiedEmbeddings": {"value": 1, "source": "s"})")
                                        << "true or false";
        QTest::newRow("string for layers")
            << model(with("\"layers\": {\"value\": 2", "\"layers\": {\"value\": \"two\"")) << "integer";
        QTest::newRow("unknown architecture") << model(kGood, "rwkv") << "architecture";
        QTest::newRow("top-k above experts")
            << model(
                   kGood +
                   R"(, "expertCount": {"value": 4, "source": "s"}, "expertsPerToken": {"value": 8, "source": "s"}, "expertFfnSize": {"value": 32, "source": "s"})")
            << "expertsPerToken";
        QTest::newRow("moe without expert size")
            << model(kGood +
                     R"(, "expertCount": {"value": 4, "source": "s"}, "expertsPerToken": {"value": 2, "source": "s"})")
            << "expertFfnSize";
        QTest::newRow("field without source") << model(kGood + R"(, "headDim": {"value": 16})") << "source";
    }
    void bad()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expectInError);
        auto m = ws::parseModelPreset(std::string_view(text.constData(), size_t(text.size())), "bad-model.json");
        QVERIFY(!m.hasValue());
        const QString message = QString::fromStdString(m.error().message());
        QVERIFY2(message.startsWith(QLatin1String("bad-model.json: ")), qPrintable(message));
        QVERIFY2(message.contains(expectInError), qPrintable(message));
    }

    void explicitHeadDimNeedNotDivide()
    {
        // gpt-oss: hidden 2880, 64 heads of 64 (64 * 64 != 2880) is legal when headDim is given.
        const QByteArray text = model(with("\"value\": 64,", "\"value\": 2880,")
                                          .replace("\"headCount\": {\"value\": 4", "\"headCount\": {\"value\": 64") +
                                      R"(, "headDim": {"value": 64, "source": "s"})");
        auto m = ws::parseModelPreset(std::string_view(text.constData(), size_t(text.size())), "m.json");
        QVERIFY2(m.hasValue(), m.hasValue() ? "" : m.error().message().c_str());
        QCOMPARE(m->qDim(), int64_t(4096));
    }

    void everyShippedPresetLoads_data()
    {
        QTest::addColumn<QString>("path");
        const QDir dir(wstest::sourcePath(QStringLiteral("resources/presets/models")));
        const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 23);
        for (const QString& f : files)
            QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }
    void everyShippedPresetLoads()
    {
        QFETCH(QString, path);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        auto m = ws::parseModelPreset(std::string_view(text.constData(), size_t(text.size())), path.toStdString());
        QVERIFY2(m.hasValue(), m.hasValue() ? "" : m.error().message().c_str());
        QCOMPARE(QString::fromStdString(m->id) + QStringLiteral(".json"), QFileInfo(path).fileName());
        QVERIFY(m->sources.count("layers"));
    }
};

QTEST_GUILESS_MAIN(TestModelPresetParser)
#include "tst_modelpresetparser.moc"
