#pragma once
// A table of exported data (per-core SRAM map, per-phase timings,
// predictions): named columns, rows of values, and the inputs and sources the
// numbers came from. Exporter writes it as CSV or JSON.

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>

namespace ws {

struct DataTable
{
    QString name;             // e.g. "sram_map"
    QStringList columns;      // column names, with units ("sram_used_bytes")
    QList<QVariantList> rows; // each row has columns.size() values (numbers, strings or bools)
    QJsonObject inputs;       // what the numbers were computed from (model, hardware, precision, workload, ...)
    QJsonObject sources;      // field -> citation, for the preset numbers used
};

} // namespace ws
