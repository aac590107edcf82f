// PredictionTables: predictions, their breakdown and the token schedule as
// tables, with the workload and the preset sources alongside.
#include "app/export/exporter.h"
#include "app/export/predictiontables.h"
#include "engine/wafer/dataflow/schedule.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace ws;

class TestPredictionTables : public QObject
{
    Q_OBJECT

private slots:
    void predictionsCarryInputsAndSources()
    {
        Prediction p;
        p.modelId = "llama-3.1-70b";
        p.hardwareId = "h100";
        p.kind = HardwareKind::Gpu;
        p.devices = 2;
        p.tokensPerSecondPerUser = 41.5;
        p.tokensPerSecondPerUserRange = {35, 48};
        p.notes = {"a", "b"};
        HardwareSpec h100;
        h100.id = "h100";
        h100.sources = {{"hbmBandwidthBytesPerS", "NVIDIA H100 datasheet"}};
        HardwareSpec other;
        other.id = "a100";
        other.sources = {{"hbmBytes", "x"}};
        Workload w;
        w.concurrency = 4;
        const DataTable t = PredictionTables::predictions({p}, w, {h100, other});
        QCOMPARE(t.rows.size(), 1);
        QCOMPARE(t.rows[0].size(), t.columns.size());
        QCOMPARE(t.rows[0][t.columns.indexOf("tokens_per_second_per_user")].toDouble(), 41.5);
        QCOMPARE(t.rows[0][t.columns.indexOf("kind")].toString(), QString("gpu"));
        QCOMPARE(t.rows[0][t.columns.indexOf("notes")].toString(), QString("a; b"));
        QCOMPARE(t.inputs["concurrency"].toInt(), 4);
        QCOMPARE(t.sources["h100"].toObject()["hbmBandwidthBytesPerS"].toString(), QString("NVIDIA H100 datasheet"));
        QVERIFY(!t.sources.contains("a100")); // only systems that were predicted
        const QJsonObject json = QJsonDocument::fromJson(Exporter::toJson(t)).object();
        QCOMPARE(json["rows"].toArray()[0].toObject()["devices"].toInt(), 2);
    }

    // WSE-3's preset has no power figure: its power and energy per token are empty in the CSV and null in the
    // JSON, not 0; a GPU's known figures are written as they are.
    void unknownPowerIsEmpty()
    {
        Prediction wafer;
        wafer.modelId = "qwen3-32b";
        wafer.hardwareId = "wse3";
        wafer.aggregateTokensPerSecond = 2000;
        Prediction gpu = wafer;
        gpu.hardwareId = "h100";
        gpu.powerWatts = 700;
        gpu.joulesPerToken = 0.35;
        const DataTable t = PredictionTables::predictions({wafer, gpu}, Workload(), {});
        const int power = int(t.columns.indexOf("power_watts"));
        const int joules = int(t.columns.indexOf("joules_per_token"));
        QVERIFY(power >= 0 && joules >= 0);
        QVERIFY(t.rows[0][power].isNull() && t.rows[0][joules].isNull());
        QCOMPARE(t.rows[1][power].toDouble(), 700.0);
        QCOMPARE(t.rows[1][joules].toDouble(), 0.35);

        QList<QByteArray> lines = Exporter::toCsv(t).split('\n');
        lines.removeIf([](const QByteArray& l) { return l.startsWith('#') || l.trimmed().isEmpty(); });
        QCOMPARE(lines.size(), 3); // header, wafer, GPU
        const QList<QByteArray> waferFields = lines[1].trimmed().split(',');
        const QList<QByteArray> gpuFields = lines[2].trimmed().split(',');
        QCOMPARE(waferFields.size(), t.columns.size());
        QCOMPARE(waferFields[power], QByteArray());
        QCOMPARE(waferFields[joules], QByteArray());
        QCOMPARE(gpuFields[power], QByteArray("700"));
        QCOMPARE(gpuFields[joules], QByteArray("0.35"));

        const QJsonArray rows = QJsonDocument::fromJson(Exporter::toJson(t)).object()["rows"].toArray();
        QVERIFY(rows[0].toObject()["power_watts"].isNull());
        QVERIFY(rows[0].toObject()["joules_per_token"].isNull());
        QCOMPARE(rows[1].toObject()["power_watts"].toDouble(), 700.0);
    }

    void breakdownSharesSumToOne()
    {
        Prediction p;
        p.breakdown = {{"qkv_gemv", 3e-6}, {"allreduce", 1e-6}};
        const DataTable t = PredictionTables::breakdown(p);
        QCOMPARE(t.rows.size(), 2);
        QCOMPARE(t.rows[0][2].toDouble(), 0.75);
        QCOMPARE(t.rows[1][2].toDouble(), 0.25);
    }

    void scheduleRowsPerPhase()
    {
        TokenSchedule s;
        s.clockHz = 1e9;
        Phase a;
        a.kind = PhaseKind::QkvGemv;
        a.layer = 3;
        a.startCycle = 100;
        a.endCycle = 600;
        a.rect = CoreRect{1, 2, 3, 4};
        s.phases = {a};
        s.totalCycles = 600;
        const DataTable t = PredictionTables::schedule(s);
        QCOMPARE(t.rows.size(), 1);
        QCOMPARE(t.rows[0][0].toString(), QString("qkv_gemv"));
        QCOMPARE(t.rows[0][t.columns.indexOf("duration_seconds")].toDouble(), 500e-9);
        QCOMPARE(t.rows[0][t.columns.indexOf("width")].toInt(), 3);
        QCOMPARE(t.inputs["token_seconds"].toDouble(), 600e-9);
    }
};

QTEST_MAIN(TestPredictionTables)
#include "tst_predictiontables.moc"
