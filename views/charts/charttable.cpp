#include "views/charts/charttable.h"

#include "views/charts/chartformat.h"

#include <QFont>
#include <QTableWidget>

#include <algorithm>

namespace ws::views {

namespace {
// The index in `columns` of the shown column `shown`; -1 when there is none.
qsizetype columnAt(const QList<ChartColumn>& columns, int shown)
{
    for (qsizetype c = 0; c < columns.size(); ++c)
        if (!columns[c].header.isEmpty() && shown-- == 0)
            return c;
    return -1;
}

const int kRoles[] = {Qt::DisplayRole,    Qt::ToolTipRole, Qt::ForegroundRole,
                      Qt::BackgroundRole, Qt::FontRole,    Qt::TextAlignmentRole};
} // namespace

int ChartTable::shownColumnCount() const
{
    return int(std::count_if(columns.begin(), columns.end(), [](const ChartColumn& c) { return !c.header.isEmpty(); }));
}

QVariant ChartTable::headerData(int shownColumn, int role) const
{
    const qsizetype c = columnAt(columns, shownColumn);
    if (c < 0 || role != Qt::DisplayRole)
        return {};
    return columns[c].header;
}

QVariant ChartTable::data(int row, int shownColumn, int role) const
{
    const qsizetype c = columnAt(columns, shownColumn);
    if (row < 0 || row >= rows.size() || c < 0 || c >= rows[row].cells.size())
        return {};
    const ChartCell& cell = rows[row].cells[c];
    switch (role) {
    case Qt::DisplayRole:
        return cell.text;
    case Qt::ToolTipRole:
        return cell.tip.isEmpty() ? cell.text : cell.tip;
    case Qt::ForegroundRole:
        return cell.color.isValid() ? QVariant(cell.color) : QVariant();
    case Qt::BackgroundRole:
        return rows[row].background.isValid() ? QVariant(rows[row].background) : QVariant();
    case Qt::FontRole: {
        if (!cell.italic)
            return {};
        QFont italic;
        italic.setItalic(true);
        return italic;
    }
    case Qt::TextAlignmentRole:
        return columns[c].alignment ? QVariant::fromValue(columns[c].alignment) : QVariant();
    default:
        return {};
    }
}

ChartData ChartTable::exported() const
{
    ChartData d;
    d.name = name;
    for (const ChartColumn& c : columns)
        d.columns << c.keys;
    for (const ChartRow& r : rows) {
        if (!r.exported)
            continue;
        QVariantList values;
        for (qsizetype c = 0; c < columns.size(); ++c)
            for (qsizetype k = 0; k < columns[c].keys.size(); ++k)
                values << (c < r.cells.size() ? r.cells[c].values.value(k) : QVariant());
        d.rows.append(values);
    }
    return d;
}

ChartCell textCell(const QString& text, const QString& tip)
{
    return {text, {text}, tip};
}

ChartCell numberCell(double value, const QString& tip)
{
    return {formatSignificant(value), {value}, tip};
}

void showTable(QTableWidget* table, const ChartTable& rows)
{
    const int columns = rows.shownColumnCount();
    table->setColumnCount(columns);
    QStringList headers;
    for (int c = 0; c < columns; ++c)
        headers << rows.headerData(c, Qt::DisplayRole).toString();
    table->setHorizontalHeaderLabels(headers);
    table->setRowCount(int(rows.rows.size()));
    for (int r = 0; r < table->rowCount(); ++r)
        for (int c = 0; c < columns; ++c) {
            auto* item = new QTableWidgetItem;
            item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
            for (int role : kRoles)
                if (const QVariant v = rows.data(r, c, role); v.isValid())
                    item->setData(role, v);
            table->setItem(r, c, item);
        }
}

} // namespace ws::views
