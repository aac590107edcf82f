// The Dataflow dock's tables: what is shown and what is exported come from one
// ChartTable, so the exported numbers are the shown ones unrounded. Expected
// values are worked out by hand from a hand-made schedule (1 GHz clock).
#include "views/charts/charttable.h"
#include "views/dataflow/dataflowtables.h"

#include <QTableWidget>
#include <QTest>

using namespace ws;
using namespace ws::views;

class TestDataflowTables : public QObject
{
    Q_OBJECT
private slots:
    void phaseCyclesShownAndExportedAlike()
    {
        TokenSchedule s;
        s.clockHz = 1e9;
        s.totalCycles = 2000;
        s.cyclesByKind[size_t(PhaseKind::QkvGemv)] = 1500;
        s.cyclesByKind[size_t(PhaseKind::Softmax)] = 500;
        const ChartTable t = DataflowTables::phaseCycles(s);
        QCOMPARE(t.name, QStringLiteral("phase_cycles"));
        QCOMPARE(t.rows.size(), 2); // kinds without cycles have no row
        const ChartData d = t.exported();
        QCOMPARE(d.columns, QStringList({"phase", "cycles", "microseconds", "share_of_token_percent"}));
        QCOMPARE(d.rows.size(), 2);
        // 1,500 cycles at 1 GHz = 1.5 µs = 75 % of 2,000 cycles; 500 cycles = 0.5 µs = 25 %.
        QCOMPARE(d.rows[0][0].toString(), QStringLiteral("qkv_gemv"));
        QCOMPARE(d.rows[0][1].toDouble(), 1500.0);
        QCOMPARE(d.rows[0][2].toDouble(), 1.5);
        QCOMPARE(d.rows[0][3].toDouble(), 75.0);
        QCOMPARE(d.rows[1][0].toString(), QStringLiteral("softmax"));
        QCOMPARE(d.rows[1][2].toDouble(), 0.5);
        QCOMPARE(d.rows[1][3].toDouble(), 25.0);

        QTableWidget shown;
        showTable(&shown, t);
        QCOMPARE(shown.columnCount(), 4);
        QCOMPARE(shown.rowCount(), 2);
        QCOMPARE(shown.item(0, 2)->text(), QLocale().toString(1.5, 'f', 3));
        QCOMPARE(shown.item(1, 3)->text(), QLocale().toString(25.0, 'f', 1));
    }

    void emptyScheduleHasNoRows()
    {
        const ChartTable t = DataflowTables::phaseCycles(TokenSchedule{});
        QCOMPARE(t.rows.size(), 0);
        QCOMPARE(t.shownColumnCount(), 4); // the headers stay
    }

    void timingConstantsCarryTheirSource()
    {
        std::vector<ParamInfo> params(2);
        params[0] = {"clockHz", "f", "Hz", 1.1e9, false, "cerebras-wse3", "core clock"};
        params[1] = {"routingStageCycles", "beta", "cycles", 3.25, true, "fitted: wse2", "per-hop latency"};
        const ChartTable t = DataflowTables::timingConstants(params);
        const ChartData d = t.exported();
        QCOMPARE(d.columns, QStringList({"constant", "name", "value", "unit", "source", "fitted"}));
        QCOMPARE(d.rows.size(), 2);
        QCOMPARE(d.rows[0], QVariantList({"f", "clockHz", 1.1e9, "Hz", "cerebras-wse3", false}));
        QCOMPARE(d.rows[1], QVariantList({"beta", "routingStageCycles", 3.25, "cycles", "fitted: wse2", true}));
        QTableWidget shown;
        showTable(&shown, t);
        QCOMPARE(shown.item(1, 3)->text(), QStringLiteral("fitted: wse2"));
        QCOMPARE(shown.item(1, 0)->toolTip(), QStringLiteral("per-hop latency"));
    }
};

QTEST_MAIN(TestDataflowTables)
#include "tst_dataflowtables.moc"
