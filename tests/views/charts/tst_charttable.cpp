// One row description, two outputs: what a ChartTable shows (a QTableWidget
// through showTable, a QTableView through ChartTableModel) and what it exports
// (exported()) are the same rows. Export-only columns are not shown, shown-only
// columns and rows are not exported, and an unknown value is written empty,
// never as 0.
#include "views/charts/charttable.h"
#include "views/charts/charttablemodel.h"

#include <QAbstractItemModelTester>
#include <QFont>
#include <QTableWidget>
#include <QTest>

using namespace ws::views;

namespace {
// Two systems and a reference row; "low"/"high" share a shown column, "source" is export only,
// "note" shown only; the second system's cost is unknown.
ChartTable sample()
{
    ChartTable t{QStringLiteral("sample"),
                 {{QStringLiteral("System"), {QStringLiteral("system")}},
                  {QStringLiteral("Low – high"), {QStringLiteral("low"), QStringLiteral("high")}},
                  {QStringLiteral("Cost"), {QStringLiteral("usd")}, Qt::AlignRight | Qt::AlignVCenter},
                  {{}, {QStringLiteral("source")}},
                  {QStringLiteral("Note"), {}}},
                 {}};
    ChartCell a = textCell(QStringLiteral("A"), QStringLiteral("system A"));
    a.color = QColor(Qt::red);
    t.rows.append({{a,
                    {QStringLiteral("1 – 2"), {1.0, 2.0}},
                    numberCell(3.25),
                    {{}, {QStringLiteral("paper A")}},
                    {QStringLiteral("fast")}}});
    t.rows.append({{textCell(QStringLiteral("B")),
                    {QStringLiteral("4 – 5"), {4.0, 5.0}},
                    {QStringLiteral("–"), {}, QStringLiteral("no hourly cost")},
                    {{}, {QStringLiteral("paper B")}},
                    {}},
                   true,
                   QColor(Qt::green)});
    ChartCell reader = textCell(QStringLiteral("Reader"));
    reader.italic = true;
    t.rows.append({{reader, {QStringLiteral("7 – 8")}, {QStringLiteral("–")}, {}, {}}, false});
    return t;
}
} // namespace

class TestChartTable : public QObject
{
    Q_OBJECT

private slots:
    void exportedIsEveryKeyOfTheExportedRows()
    {
        const ChartData d = sample().exported();
        QCOMPARE(d.name, QStringLiteral("sample"));
        QCOMPARE(d.columns, (QStringList{QStringLiteral("system"), QStringLiteral("low"), QStringLiteral("high"),
                                         QStringLiteral("usd"), QStringLiteral("source")}));
        QCOMPARE(d.rows.size(), 2); // the reference row is shown only
        QCOMPARE(d.rows[0], (QVariantList{QStringLiteral("A"), 1.0, 2.0, 3.25, QStringLiteral("paper A")}));
        QCOMPARE(d.rows[1].size(), 5);
        QCOMPARE(d.rows[1][2].toDouble(), 5.0);
        // Unknown: a null value, written as an empty field, not 0.
        QVERIFY(d.rows[1][3].isNull());
        QVERIFY(!d.rows[1][3].isValid());
    }

    void shownColumnsAreThoseWithAHeader()
    {
        const ChartTable t = sample();
        QCOMPARE(t.shownColumnCount(), 4);
        QCOMPARE(t.headerData(2, Qt::DisplayRole).toString(), QStringLiteral("Cost"));
        QCOMPARE(t.headerData(3, Qt::DisplayRole).toString(), QStringLiteral("Note")); // "source" is skipped
        QVERIFY(!t.headerData(4, Qt::DisplayRole).isValid());
        QCOMPARE(t.data(0, 3, Qt::DisplayRole).toString(), QStringLiteral("fast"));
        QCOMPARE(t.data(0, 2, Qt::DisplayRole).toString(), QStringLiteral("3.25"));
        // The tooltip names the source where one is given, else repeats the text.
        QCOMPARE(t.data(0, 0, Qt::ToolTipRole).toString(), QStringLiteral("system A"));
        QCOMPARE(t.data(0, 1, Qt::ToolTipRole).toString(), QStringLiteral("1 – 2"));
        QCOMPARE(t.data(1, 2, Qt::ToolTipRole).toString(), QStringLiteral("no hourly cost"));
        QCOMPARE(t.data(0, 0, Qt::ForegroundRole).value<QColor>(), QColor(Qt::red));
        QVERIFY(!t.data(1, 0, Qt::ForegroundRole).isValid());
        // A row's background is every cell's.
        QCOMPARE(t.data(1, 0, Qt::BackgroundRole).value<QColor>(), QColor(Qt::green));
        QCOMPARE(t.data(1, 3, Qt::BackgroundRole).value<QColor>(), QColor(Qt::green));
        QVERIFY(!t.data(0, 0, Qt::BackgroundRole).isValid());
        QVERIFY(t.data(2, 0, Qt::FontRole).value<QFont>().italic());
        QCOMPARE(qvariant_cast<Qt::Alignment>(t.data(0, 2, Qt::TextAlignmentRole)), Qt::AlignRight | Qt::AlignVCenter);
        QVERIFY(!t.data(0, 0, Qt::TextAlignmentRole).isValid());
        QVERIFY(!t.data(3, 0, Qt::DisplayRole).isValid());
        QVERIFY(!t.data(0, 4, Qt::DisplayRole).isValid());
    }

    void modelPassesTester()
    {
        ChartTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        model.setTable(sample());
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), 4);
        QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("Low – high"));
        QCOMPARE(model.index(1, 2).data().toString(), QStringLiteral("–"));
        model.setTable({});
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), 0);
    }

    // The widget and the model are filled by the same mapping: every role of every cell agrees.
    void tableWidgetShowsWhatTheModelShows()
    {
        const ChartTable t = sample();
        ChartTableModel model;
        model.setTable(t);
        QTableWidget widget;
        showTable(&widget, t);
        QCOMPARE(widget.rowCount(), model.rowCount());
        QCOMPARE(widget.columnCount(), model.columnCount());
        for (int c = 0; c < widget.columnCount(); ++c)
            QCOMPARE(widget.horizontalHeaderItem(c)->text(), model.headerData(c, Qt::Horizontal).toString());
        for (int r = 0; r < widget.rowCount(); ++r)
            for (int c = 0; c < widget.columnCount(); ++c) {
                const QTableWidgetItem* item = widget.item(r, c);
                const QModelIndex index = model.index(r, c);
                QCOMPARE(item->text(), index.data().toString());
                QCOMPARE(item->toolTip(), index.data(Qt::ToolTipRole).toString());
                QCOMPARE(item->font().italic(), index.data(Qt::FontRole).value<QFont>().italic());
                QCOMPARE(item->flags(), Qt::ItemIsSelectable | Qt::ItemIsEnabled);
            }
        QCOMPARE(widget.item(0, 0)->foreground().color(), QColor(Qt::red));
        QCOMPARE(widget.item(1, 2)->background().color(), QColor(Qt::green));
        // Showing fewer rows replaces the old ones.
        ChartTable shorter = t;
        shorter.rows.resize(1);
        showTable(&widget, shorter);
        QCOMPARE(widget.rowCount(), 1);
    }
};

QTEST_MAIN(TestChartTable)
#include "tst_charttable.moc"
