#pragma once
// One chart's rows, described once: the table a view shows and the data it
// exports come from the same ChartTable. A column says what the table shows
// (its header; none: export only) and what the export writes (its keys, with
// units; none: shown only); a cell carries its shown text and its exported
// values together, so what is shown and what is written cannot drift apart.
// data() maps a cell to the item roles once, for showTable() (a QTableWidget)
// and ChartTableModel (a QTableView) alike; exported() is the ChartData the
// app writes as CSV or JSON.

#include "views/charts/chartdata.h"

#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>

class QTableWidget;

namespace ws::views {

struct ChartColumn
{
    QString header;               // shown; empty: the column is exported only
    QStringList keys;             // exported columns, with units; empty: the column is shown only
    Qt::Alignment alignment = {}; // none: the view's
};

struct ChartCell
{
    QString text;        // shown
    QVariantList values; // one per key of its column; missing or null: unknown, written empty (never 0)
    QString tip;         // where the value comes from; empty: the text
    QColor color = {};   // the text's; invalid: the view's
    bool italic = false;
};

struct ChartRow
{
    QList<ChartCell> cells; // one per column
    bool exported = true;   // false: shown only (a reference row, e.g. a human reader)
    QColor background = {}; // every cell's; invalid: the view's (e.g. the row an answer picks)
};

struct ChartTable
{
    QString name; // file-name friendly, e.g. "range_drivers"
    QList<ChartColumn> columns;
    QList<ChartRow> rows;

    // The shown columns (those with a header), counted and addressed in order.
    int shownColumnCount() const;
    QVariant headerData(int shownColumn, int role) const;
    QVariant data(int row, int shownColumn, int role) const;
    // The exported columns (every key in column order) and rows (the exported ones).
    ChartData exported() const;
};

// A cell whose text is its one value (a name, a source).
ChartCell textCell(const QString& text, const QString& tip = {});
// A cell showing a number to three significant figures, exporting it unrounded.
ChartCell numberCell(double value, const QString& tip = {});

// Fills `table` with the shown columns and every row, read-only.
void showTable(QTableWidget* table, const ChartTable& rows);

} // namespace ws::views
