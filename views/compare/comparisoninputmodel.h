#pragma once
// Every input of a comparison as a table: group (model, a system, workload,
// calibration), parameter, value with unit, and the source it came from.
// The tooltip of each cell repeats the source, so a number never appears
// without where it came from.

#include "views/compare/comparisonsnapshot.h"

#include <QAbstractTableModel>

#include <vector>

namespace ws::views {

class ComparisonInputModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        Group,
        Name,
        Value,
        Source,
        ColumnCount
    };

    explicit ComparisonInputModel(QObject* parent = nullptr);

    void setInputs(std::vector<ComparisonInput> inputs);
    const std::vector<ComparisonInput>& inputs() const { return m_inputs; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<ComparisonInput> m_inputs;
};

} // namespace ws::views
