// ScenarioTables: a scenario's SRAM map, token schedule and prediction as
// tables, computed by the engine, with the scenario's inputs and sources.
#include "app/common/presetlibrary.h"
#include "app/export/scenariotables.h"
#include "app/scenario/scenarioprediction.h"

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

Q_DECLARE_METATYPE(ws::Scenario)

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

    // The exported prediction is the window's (predictScenario) for the scenario as a whole: its dead cores, its
    // draft model reach it (the export predicted the bare model and workload before).
    void predictionIsTheWindows_data()
    {
        QTest::addColumn<Scenario>("scenario");
        Scenario defects = llama8bOnWse3();
        defects.modelPreset = "llama-3.1-70b";
        defects.defects.rate = 0.002;
        defects.defects.seed = 7;
        QTest::newRow("dead cores") << defects;
        Scenario draft;
        draft.modelPreset = "qwen3-32b";
        draft.hardwarePreset = "wse3";
        draft.draftModel = "qwen3-0.6b";
        QTest::newRow("draft model") << draft;
    }
    void predictionIsTheWindows()
    {
        QFETCH(Scenario, scenario);
        const PresetLibrary presets(QString{});
        QString error;
        const auto window = predictScenario(scenario, presets, QString(), &error);
        QVERIFY2(window, qPrintable(error));
        const auto table = ScenarioTables::prediction(scenario, presets, &error);
        QVERIFY2(table, qPrintable(error));
        auto column = [&](const char* name) { return table->rows[0][table->columns.indexOf(name)].toDouble(); };
        QCOMPARE(column("tokens_per_second_per_user"), window->prediction.tokensPerSecondPerUser);
        QCOMPARE(int(column("devices")), window->prediction.devices);
        // Not the bare model's figure: what the scenario adds changes it.
        Scenario bare = scenario;
        bare.defects = {};
        bare.draftModel.clear();
        const auto plain = ScenarioTables::prediction(bare, presets, &error);
        QVERIFY2(plain, qPrintable(error));
        QVERIFY(plain->rows[0][plain->columns.indexOf("tokens_per_second_per_user")].toDouble() !=
                column("tokens_per_second_per_user"));
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
