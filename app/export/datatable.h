#pragma once
// A table of exported data (per-core SRAM map, per-phase timings,
// predictions): named columns, rows of values, and the inputs and sources the
// numbers came from. Exporter writes it as CSV or JSON. Small tables hold
// their rows; a large one leaves `rows` empty and names a TableRows source the
// writer pulls from row by row. An invalid QVariant is an unknown value: an
// empty CSV field, a JSON null.

#include "app/export/tablerows.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <memory>

namespace ws {

struct DataTable
{
    QString name;                              // e.g. "sram_map"
    QStringList columns;                       // column names, with units ("sram_used_bytes")
    QList<QVariantList> rows;                  // each row has columns.size() values (numbers, strings or bools)
    std::shared_ptr<const TableRows> lazyRows; // when set, the rows come from here instead
    QJsonObject inputs;                        // what the numbers were computed from (model, hardware, workload, ...)
    QJsonObject sources;                       // field -> citation, for the preset numbers used

    qsizetype rowCount() const { return lazyRows ? lazyRows->count() : rows.size(); }
    QVariantList row(qsizetype index) const { return lazyRows ? lazyRows->row(index) : rows.at(index); }
};

} // namespace ws
