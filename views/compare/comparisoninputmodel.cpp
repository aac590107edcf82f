#include "views/compare/comparisoninputmodel.h"

namespace ws::views {

ComparisonInputModel::ComparisonInputModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComparisonInputModel::setInputs(std::vector<ComparisonInput> inputs)
{
    beginResetModel();
    m_inputs = std::move(inputs);
    endResetModel();
}

int ComparisonInputModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_inputs.size());
}

int ComparisonInputModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ComparisonInputModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const ComparisonInput& in = m_inputs[size_t(index.row())];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Group:
            return in.group;
        case Name:
            return in.name;
        case Value:
            return in.value;
        case Source:
            return in.source;
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole)
        return tr("%1 — %2: %3\nSource: %4").arg(in.group, in.name, in.value, in.source);
    if (role == Qt::TextAlignmentRole && index.column() == Value)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant ComparisonInputModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Group:
        return tr("Group");
    case Name:
        return tr("Parameter");
    case Value:
        return tr("Value");
    case Source:
        return tr("Source");
    default:
        return {};
    }
}

} // namespace ws::views
