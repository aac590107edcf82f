#include "views/charts/charttablemodel.h"

namespace ws::views {

ChartTableModel::ChartTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ChartTableModel::setTable(ChartTable table)
{
    beginResetModel();
    m_table = std::move(table);
    endResetModel();
}

int ChartTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_table.rows.size());
}

int ChartTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : m_table.shownColumnCount();
}

QVariant ChartTableModel::data(const QModelIndex& index, int role) const
{
    return index.isValid() ? m_table.data(index.row(), index.column(), role) : QVariant();
}

QVariant ChartTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    return m_table.headerData(section, role);
}

} // namespace ws::views
