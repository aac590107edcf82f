#pragma once
// Every input of a comparison as a table: group (model, a system, workload,
// calibration), parameter, value with unit, and the source it came from.
// The tooltip of each cell repeats the source, so a number never appears
// without where it came from. The rows are a ChartTable: the view shows them
// and the "Inputs and sources" export writes them (table().exported()).

#include "views/charts/charttablemodel.h"
#include "views/compare/comparisonsnapshot.h"

#include <vector>

namespace ws::views {

class ComparisonInputModel : public ChartTableModel
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

    void setInputs(const std::vector<ComparisonInput>& inputs);
};

} // namespace ws::views
