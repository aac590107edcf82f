#include "engine/hardware/hardwarepresetparser.h"

#include "tests/common/testmodels.h"

#include <QDir>
#include <QFile>
#include <QTest>

namespace {
// A minimal valid wafer preset; bad cases below change one thing each.
QByteArray wafer(const QByteArray& fields, const QByteArray& top = R"("type": "wafer")")
{
    return R"({"version": 1, "kind": "hardware", "id": "w", "name": "W", )" + top + R"(, "fields": {)" + fields + "}}";
}
const QByteArray kGoodFields = R"("meshCols": {"value": 10, "source": "s"}, "meshRows": {"value": 8, "source": "s"},
    "sramBytesPerCore": {"value": 49152, "source": "s"}, "clockHz": {"value": 1.1e9, "source": "s"})";
} // namespace

class TestHardwarePresetParser : public QObject
{
    Q_OBJECT
private slots:
    void goodWafer()
    {
        const QByteArray text = wafer(kGoodFields + R"(, "reservedCols": {"value": 2, "source": "t"})");
        auto spec = ws::parseHardwarePreset(std::string_view(text.constData(), size_t(text.size())), "w.json");
        QVERIFY2(spec.hasValue(), spec.hasValue() ? "" : spec.error().message().c_str());
        QCOMPARE(spec->kind, ws::HardwareKind::Wafer);
        QCOMPARE(spec->wafer.meshCols, 10);
        QCOMPARE(spec->wafer.usableCols(), 8);
        QCOMPARE(spec->wafer.sramBytesPerCore, int64_t(49152));
        QCOMPARE(spec->wafer.clockHz, 1.1e9);
        QCOMPARE(spec->sources.at("reservedCols"), std::string("t"));
    }

    void badPreset_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expectInError");
        QTest::newRow("not json") << QByteArray("{ \"version\": 1,") << "not valid JSON";
        QTest::newRow("array instead of object") << QByteArray("[1,2]") << "JSON object";
        QTest::newRow("missing version") << QByteArray(R"({"kind": "hardware"})") << "version";
        QTest::newRow("future version") << wafer(kGoodFields).replace("\"version\": 1", "\"version\": 7") << "version";
        QTest::newRow("model preset given as hardware")
            << wafer(kGoodFields).replace("\"hardware\"", "\"model\"") << "kind";
        QTest::newRow("unknown type") << wafer(kGoodFields, R"("type": "tpu")") << "unknown hardware type";
        QTest::newRow("missing required field")
            << wafer(
                   R"("meshCols": {"value": 10, "source": "s"}, "sramBytesPerCore": {"value": 1, "source": "s"}, "clockHz": {"value": 1, "source": "s"})")
            << "meshRows";
        QTest::newRow("negative mesh") << wafer(QByteArray(kGoodFields).replace("\"value\": 10", "\"value\": -10"))
                                       << "meshCols";
        QTest::newRow("zero sram") << wafer(QByteArray(kGoodFields).replace("49152", "0")) << "greater than zero";
        QTest::newRow("string instead of number")
            << wafer(QByteArray(kGoodFields).replace("\"value\": 10", "\"value\": \"10\"")) << "integer";
        QTest::newRow("fractional core count")
            << wafer(QByteArray(kGoodFields).replace("\"value\": 10", "\"value\": 10.5")) << "integer";
        QTest::newRow("missing source")
            << wafer(QByteArray(kGoodFields).replace("\"value\": 8, \"source\": \"s\"", "\"value\": 8")) << "source";
        QTest::newRow("unknown field (typo)")
            << wafer(kGoodFields + R"(, "meshColz": {"value": 1, "source": "s"})") << "unknown field";
        QTest::newRow("reserved border eats the mesh")
            << wafer(kGoodFields + R"(, "reservedCols": {"value": 10, "source": "s"})") << "usable";
        QTest::newRow("bad id") << wafer(kGoodFields).replace("\"id\": \"w\"", "\"id\": \"Big Wafer\"") << "id";
        QTest::newRow("gpu without bandwidth")
            << wafer(R"("hbmBytes": {"value": 80e9, "source": "s"}, "bf16Flops": {"value": 1e15, "source": "s"})",
                     R"("type": "gpu")")
            << "hbmBandwidthBytesPerS";
    }
    void badPreset()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expectInError);
        auto spec = ws::parseHardwarePreset(std::string_view(text.constData(), size_t(text.size())), "bad.json");
        QVERIFY(!spec.hasValue());
        const QString message = QString::fromStdString(spec.error().message());
        QVERIFY2(message.startsWith(QLatin1String("bad.json: ")), qPrintable(message));
        QVERIFY2(message.contains(expectInError), qPrintable(message));
    }

    void everyShippedPresetLoads_data()
    {
        QTest::addColumn<QString>("path");
        const QDir dir(wstest::sourcePath(QStringLiteral("resources/presets/hardware")));
        const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 7);
        for (const QString& f : files)
            QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }
    void everyShippedPresetLoads()
    {
        QFETCH(QString, path);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        auto spec =
            ws::parseHardwarePreset(std::string_view(text.constData(), size_t(text.size())), path.toStdString());
        QVERIFY2(spec.hasValue(), spec.hasValue() ? "" : spec.error().message().c_str());
        QCOMPARE(QString::fromStdString(spec->id) + QStringLiteral(".json"), QFileInfo(path).fileName());
        QVERIFY(!spec->sources.empty());
    }

    void wse3MatchesFacts()
    {
        QFile file(wstest::sourcePath(QStringLiteral("resources/presets/hardware/wse3.json")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        auto spec = ws::parseHardwarePreset(std::string_view(text.constData(), size_t(text.size())), "wse3.json");
        QVERIFY(spec.hasValue());
        // facts/wafer-mapping.md §2.1: 762 x 1176 PEs x 48 KiB = 44.0 GB.
        const double totalBytes = double(spec->wafer.meshCols) * spec->wafer.meshRows * spec->wafer.sramBytesPerCore;
        QVERIFY(std::abs(totalBytes - 44.0e9) < 0.1e9);
        QCOMPARE(spec->wafer.coresPhysical, int64_t(970000));
    }
};

QTEST_GUILESS_MAIN(TestHardwarePresetParser)
#include "tst_hardwarepresetparser.moc"
