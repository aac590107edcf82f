// ScenarioTables: a scenario's SRAM map, token schedule and prediction as
// tables, computed by the engine, with the scenario's inputs and sources.
#include "app/common/presetlibrary.h"
#include "app/export/scenariotables.h"

#include <QJsonArray>
#include <QTest>

using namespace ws;

namespace {

Scenario llama8bOnWse3()
{
    Scenario s;
    s.modelPreset = "llama-3.1-8b";
    s.hardwarePreset = "wse3";
    s.batch = 1;
    return s;
}

} // namespace

class TestScenarioTables : public QObject
{
    Q_OBJECT

private slots:
    void sramMapCoversEveryCore()
    {
        const PresetLibrary presets(QString{});
        QString error;
        const auto table = ScenarioTables::sramMap(llama8bOnWse3(), presets, &error);
        QVERIFY2(table, qPrintable(error));
        const auto hardware = presets.hardware("wse3");
        QVERIFY(hardware);
        QCOMPARE(table->rowCount(),
                 qsizetype(hardware->wafer.meshCols) * hardware->wafer.meshRows * table->inputs["devices"].toInt());
        QCOMPARE(table->inputs["model"].toString(), QString("llama-3.1-8b"));
        // Bytes placed: the model's weights are somewhere (not all zero).
        const int bytesColumn = table->columns.indexOf("sram_used_bytes");
        qlonglong used = 0;
        for (qsizetype i = 0; i < table->rowCount(); ++i)
            used += table->row(i)[bytesColumn].toLongLong();
        QVERIFY(used > 8'000'000'000LL * 2 * 9 / 10); // ~8B parameters at bf16
    }

    void scheduleIsOrderedAndTimed()
    {
        const PresetLibrary presets(QString{});
        QString error;
        const auto table = ScenarioTables::schedule(llama8bOnWse3(), presets, &error);
        QVERIFY2(table, qPrintable(error));
        QVERIFY(table->rows.size() > 32); // at least one phase per layer
        const int start = table->columns.indexOf("start_cycle");
        double previous = -1;
        for (const QVariantList& row : table->rows) {
            QVERIFY(row[start].toDouble() >= previous);
            previous = row[start].toDouble();
        }
        QVERIFY(table->inputs["token_seconds"].toDouble() > 0);
    }

    void predictionCarriesSources()
    {
        const PresetLibrary presets(QString{});
        QString error;
        const auto table = ScenarioTables::prediction(llama8bOnWse3(), presets, &error);
        QVERIFY2(table, qPrintable(error));
        QCOMPARE(table->rowCount(), 1);
        QVERIFY(table->rows[0][table->columns.indexOf("tokens_per_second_per_user")].toDouble() > 0);
        QVERIFY(!table->sources["wse3"].toObject().isEmpty());
        QCOMPARE(table->inputs["hardware"].toString(), QString("wse3"));
        const auto breakdown = ScenarioTables::breakdown(llama8bOnWse3(), presets, &error);
        QVERIFY2(breakdown, qPrintable(error));
        double share = 0;
        for (const QVariantList& row : breakdown->rows)
            share += row[2].toDouble();
        QVERIFY(!breakdown->rows.isEmpty());
        QVERIFY(qAbs(share - 1.0) < 1e-9);
    }

    void unknownPresetIsAnError()
    {
        const PresetLibrary presets(QString{});
        Scenario s = llama8bOnWse3();
        s.hardwarePreset = "wse9";
        QString error;
        QVERIFY(!ScenarioTables::prediction(s, presets, &error));
        QVERIFY(error.contains("wse9"));
        QVERIFY(!ScenarioTables::sramMap(s, presets, &error));
    }
};

QTEST_MAIN(TestScenarioTables)
#include "tst_scenariotables.moc"
