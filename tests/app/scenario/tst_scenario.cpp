// ScenarioFormat: .waferscope files round-trip byte for byte, and every kind
// of bad file gives one clear error that names the file and the field.
#include "app/scenario/scenarioformat.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace ws;

namespace {

Scenario richScenario()
{
    Scenario s;
    s.modelPreset = QStringLiteral("qwen3-32b");
    s.modelFile = QStringLiteral("models/qwen3 0.6b.gguf");
    s.hardwarePreset = QStringLiteral("wse3");
    s.devices = 2;
    s.precision = Precision::Int8;
    s.batch = 16;
    s.contextTokens = 32768;
    s.promptTokens = 1000;
    s.outputTokens = 2000;
    s.prompt = QStringLiteral("Explain wafer-scale \"decode\"\n晶圆级推理");
    s.defects.rate = 0.0012345678901234;
    s.defects.seed = 123456789012345ULL;
    s.defects.cores = {{0, 10, 20}, {1, 749, 993}};
    s.layer = MeshLayer::Dataflow;
    s.viewDevice = 1;
    s.zoom = 3.3333333333333335;
    s.center = QPointF(123.25, -0.1);
    return s;
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeAll(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

const char* const kValid = R"({"version": 1, "model": {"preset": "llama-3.1-70b"}, "hardware": {"preset": "wse3"},
 "precision": "bf16"})";

} // namespace

class TestScenario : public QObject
{
    Q_OBJECT

private slots:
    void saveOpenSaveIsByteIdentical()
    {
        QTemporaryDir dir;
        const QString first = dir.filePath("a.waferscope");
        const QString second = dir.filePath("b.waferscope");
        QString error;
        QVERIFY2(ScenarioFormat::save(richScenario(), first, &error), qPrintable(error));
        const auto opened = ScenarioFormat::load(first, &error);
        QVERIFY2(opened, qPrintable(error));
        QVERIFY(*opened == richScenario());
        QVERIFY2(ScenarioFormat::save(*opened, second, &error), qPrintable(error));
        QCOMPARE(readAll(second), readAll(first));
        QVERIFY(readAll(first).contains("\"version\": 1"));
    }

    void layoutMakesVersionTwoAndRoundTrips()
    {
        // A scenario with a layout is written as version 2 and round-trips byte for byte; without one it stays 1.
        QTemporaryDir dir;
        Scenario s = richScenario();
        ws::Layout l;
        l.origin = "edit";
        l.modelId = "llama-3.1-70b";
        l.hardwareId = "wse3";
        l.order = ws::LayerOrder::ColumnMajor;
        l.precisions = {ws::Precision::Bf16, ws::Precision::Int8, ws::Precision::Fp8};
        l.deviceCount = 2;
        l.usableCols = 10;
        l.usableRows = 8;
        l.layers = {{0, {0, 0, 5, 8}}, {1, {5, 0, 5, 8}}};
        l.embeddingLayers = {0};
        l.headLayers = {1};
        l.notes = {"hand made"};
        s.layout = l;
        const QString first = dir.filePath("a.waferscope");
        QString error;
        QVERIFY2(ScenarioFormat::save(s, first, &error), qPrintable(error));
        QVERIFY(readAll(first).contains("\"version\": 2"));
        const auto opened = ScenarioFormat::load(first, &error);
        QVERIFY2(opened, qPrintable(error));
        QVERIFY(opened->layout.has_value());
        QVERIFY(*opened->layout == l);
        QVERIFY(*opened == s);
        QCOMPARE(ScenarioFormat::toJson(*opened), readAll(first));
        // A version-1 file may not carry a layout, and a broken layout is named.
        QByteArray v1 = readAll(first);
        v1.replace("\"version\": 2", "\"version\": 1");
        QVERIFY(!ScenarioFormat::fromJson(v1, "v1", &error));
        QVERIFY2(error.contains("layout"), qPrintable(error));
        QByteArray broken = readAll(first);
        broken.replace("\"column-major\"", "\"spiral\"");
        QVERIFY(!ScenarioFormat::fromJson(broken, "broken", &error));
        QVERIFY2(error.contains("order"), qPrintable(error));
    }

    void draftModelMakesVersionTwoAndRoundTrips()
    {
        // Speculative decoding's draft model: workload.draft_model, version 2; files without it load as before.
        Scenario s = richScenario();
        const QByteArray before = ScenarioFormat::toJson(s);
        s.draftModel = QStringLiteral("qwen3-0.6b");
        const QByteArray json = ScenarioFormat::toJson(s);
        QVERIFY(json.contains("\"draft_model\": \"qwen3-0.6b\""));
        QVERIFY(json.contains("\"version\": 2"));
        QString error;
        const auto opened = ScenarioFormat::fromJson(json, "draft", &error);
        QVERIFY2(opened, qPrintable(error));
        QCOMPARE(opened->draftModel, s.draftModel);
        QVERIFY(*opened == s);
        const auto old = ScenarioFormat::fromJson(before, "old", &error);
        QVERIFY2(old, qPrintable(error));
        QVERIFY(old->draftModel.isEmpty());
        QByteArray v1 = json;
        v1.replace("\"version\": 2", "\"version\": 1");
        QVERIFY(!ScenarioFormat::fromJson(v1, "v1", &error));
        QVERIFY2(error.contains("draft_model"), qPrintable(error));
        QByteArray bad = json;
        bad.replace("qwen3-0.6b", "Qwen 3");
        QVERIFY(!ScenarioFormat::fromJson(bad, "bad", &error));
        QVERIFY2(error.contains("draft_model"), qPrintable(error));
    }

    void editedDefectsRoundTrip()
    {
        // The Defects dock's edits: wafers edited by hand and the die row/column scheme, written only when set.
        Scenario s = richScenario();
        QVERIFY(!ScenarioFormat::toJson(s).contains("exact_devices"));
        QVERIFY(!ScenarioFormat::toJson(s).contains("spare_scheme"));
        s.defects.exactDevices = {0, 2};
        s.defects.scheme = SpareScheme::DieRowColumn;
        s.defects.dieSpares = 3;
        const QByteArray json = ScenarioFormat::toJson(s);
        QVERIFY(json.contains("\"exact_devices\""));
        QVERIFY(json.contains("\"die-row-column\""));
        QString error;
        const auto opened = ScenarioFormat::fromJson(json, "edited", &error);
        QVERIFY2(opened, qPrintable(error));
        QVERIFY(*opened == s);
        QCOMPARE(ScenarioFormat::toJson(*opened), json);
    }

    void handWrittenFileBecomesCanonical()
    {
        // Keys out of order, compact, defaults left out: opens, and its canonical form is a fixed point.
        QTemporaryDir dir;
        const QString hand = dir.filePath("hand.waferscope");
        writeAll(hand, R"({"view":{"zoom":2,"layer":"kv"},"precision":"fp8","hardware":{"preset":"wse2"},)"
                       R"("model":{"preset":"qwen3-32b"},"version":1})");
        QString error;
        const auto opened = ScenarioFormat::load(hand, &error);
        QVERIFY2(opened, qPrintable(error));
        QCOMPARE(opened->hardwarePreset, QStringLiteral("wse2"));
        QCOMPARE(opened->precision, Precision::Fp8);
        QCOMPARE(opened->layer, MeshLayer::KvCache);
        QCOMPARE(opened->zoom, 2.0);
        QCOMPARE(opened->batch, Scenario().batch);
        const QByteArray canonical = ScenarioFormat::toJson(*opened);
        const auto again = ScenarioFormat::fromJson(canonical, "canonical", &error);
        QVERIFY2(again, qPrintable(error));
        QCOMPARE(ScenarioFormat::toJson(*again), canonical);
    }

    void badFilesGiveClearErrors_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected"); // a phrase the error must contain

        const QByteArray valid = ScenarioFormat::toJson(richScenario());
        QTest::newRow("empty file") << QByteArray() << "empty";
        QTest::newRow("binary garbage") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0", 11) << "not valid JSON";
        QTest::newRow("truncated") << valid.left(valid.size() / 2) << "corrupt or truncated";
        QTest::newRow("truncated one byte short") << valid.left(valid.trimmed().size() - 1) << "not valid JSON";
        QTest::newRow("top level array") << QByteArray("[1, 2]") << "JSON object";
        QTest::newRow("no version") << QByteArray(R"({"model": {"preset": "x"}})") << "no \"version\"";
        QTest::newRow("future version") << QByteArray(valid).replace("\"version\": 1", "\"version\": 3")
                                        << "newer WaferScope";
        QTest::newRow("far future version") << QByteArray(R"({"version": 99, "whatever": true})") << "version 99";
        QTest::newRow("version zero") << QByteArray(R"({"version": 0})") << "version: must be an integer";
        QTest::newRow("version as string") << QByteArray(R"({"version": "1"})") << "version: must be an integer";
        QTest::newRow("fractional version") << QByteArray(R"({"version": 1.5})") << "version: must be an integer";
        QTest::newRow("unknown top-level key")
            << QByteArray(kValid).replace("\"precision\"", "\"colour\": 1, \"precision\"") << "colour: unknown key";
        QTest::newRow("missing model") << QByteArray(
                                              R"({"version": 1, "hardware": {"preset": "wse3"}, "precision": "bf16"})")
                                       << "model: missing";
        QTest::newRow("model without preset or file")
            << QByteArray(kValid).replace("\"preset\": \"llama-3.1-70b\"", "\"preset\": \"\"") << "model.preset";
        QTest::newRow("model as string") << QByteArray(kValid).replace("{\"preset\": \"llama-3.1-70b\"}", "\"x\"")
                                         << "model: must be an object";
        QTest::newRow("hardware id with spaces")
            << QByteArray(kValid).replace("\"wse3\"", "\"WSE 3\"") << "hardware.preset";
        QTest::newRow("unknown precision") << QByteArray(kValid).replace("bf16", "fp12") << "unknown precision";
        QTest::newRow("negative batch") << QByteArray(valid).replace("\"batch\": 16", "\"batch\": -3")
                                        << "workload.batch: must be an integer from 1";
        QTest::newRow("batch as string") << QByteArray(valid).replace("\"batch\": 16", "\"batch\": \"16\"")
                                         << "workload.batch";
        QTest::newRow("defect rate above one")
            << QByteArray(valid).replace("0.0012345678901234", "1.5") << "defects.rate: must be a number from 0 to 1";
        QTest::newRow("tokens exceed context")
            << QByteArray(valid).replace("\"output_tokens\": 2000", "\"output_tokens\": 40000")
            << "exceed context_tokens";
        QTest::newRow("unknown layer") << QByteArray(valid).replace("\"dataflow\"", "\"thermal\"") << "view.layer";
        QTest::newRow("dead core without x")
            << QByteArray(valid).replace("\"x\": 749,", "") << "defects.dead_cores[1].x: missing";
        QTest::newRow("unknown spare scheme")
            << QByteArray(valid).replace("\"rate\"", "\"spare_scheme\": \"hexagonal\", \"rate\"")
            << "defects.spare_scheme: must be \"row-shift\" or \"die-row-column\"";
        QTest::newRow("exact devices not indices")
            << QByteArray(valid).replace("\"rate\"", "\"exact_devices\": [0, -1], \"rate\"")
            << "defects.exact_devices: must be an array of wafer indices";
        QTest::newRow("center with one number")
            << QByteArray(valid).replace("-0.1\n", "\n").replace("123.25,", "123.25") << "view.center";
        QTest::newRow("nan zoom") << QByteArray(valid).replace("3.3333333333333335", "NaN") << "not valid JSON";
    }
    void badFilesGiveClearErrors()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath("bad.waferscope");
        writeAll(path, content);
        QString error;
        const auto loaded = ScenarioFormat::load(path, &error);
        QVERIFY(!loaded);
        QVERIFY2(error.contains(expected), qPrintable(QStringLiteral("error was: ") + error));
        QVERIFY2(error.startsWith(path), qPrintable(error)); // names the file
        QVERIFY(!error.contains(QLatin1Char('\n')));         // one line
        QCOMPARE(readAll(path), content);                    // reading changes nothing
    }

    void missingFileIsAnError()
    {
        QString error;
        QVERIFY(!ScenarioFormat::load(QStringLiteral("/nonexistent/x.waferscope"), &error));
        QVERIFY(error.contains("cannot open"));
    }

    void failedSaveKeepsTheOldFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("sub/x.waferscope"); // directory does not exist
        QString error;
        QVERIFY(!ScenarioFormat::save(richScenario(), path, &error));
        QVERIFY(error.contains("cannot save"));
        QVERIFY(!QFile::exists(path));
    }
};

QTEST_MAIN(TestScenario)
#include "tst_scenario.moc"
