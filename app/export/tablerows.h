#pragma once
// Where a data table's rows come from when there are too many to hold: the
// table writer pulls them one at a time by index, so a large export (the
// per-core SRAM map of a full wafer, ~900,000 rows) is never built whole in
// memory. Small tables keep their rows in DataTable::rows; DataTable::row()
// reads either way, so every export goes through the same writer.

#include <QVariantList>
#include <QtGlobal>

namespace ws {

class TableRows
{
public:
    virtual ~TableRows() = default;
    virtual qsizetype count() const = 0;
    // Row `index` (0 <= index < count()), one value per column; an invalid QVariant is an unknown value.
    // Called from the export's worker thread: it must only read data the source owns.
    virtual QVariantList row(qsizetype index) const = 0;
};

} // namespace ws
