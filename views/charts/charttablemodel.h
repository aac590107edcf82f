#pragma once
// A ChartTable as an item model, for a QTableView: the shown columns and every
// row, with the cells' text, tooltips, colours and alignment (ChartTable::data).
// What the view shows is the table the chart exports (table().exported()).

#include "views/charts/charttable.h"

#include <QAbstractTableModel>

namespace ws::views {

class ChartTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    explicit ChartTableModel(QObject* parent = nullptr);

    void setTable(ChartTable table);
    const ChartTable& table() const { return m_table; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    ChartTable m_table;
};

} // namespace ws::views
