#pragma once
// TableWriter writes a DataTable as CSV or JSON row by row, pulling each row
// from the table (its own rows or its TableRows source), so memory stays flat
// however long the table is. It reports rows written every kProgressStep rows
// and can be cancelled between them. Files go through QSaveFile: a finished
// export replaces the file whole; a cancelled or failed one leaves no partial
// file and the old file as it was. Every data export (File > Export Data, the
// chart tables, the CLI's) uses it, small tables too.
//
// CSV: "# generator" and "# scenario" comment lines (ExportStamp), the header
// row, RFC 4180 fields, CRLF line ends; unknown values are empty fields.
// JSON: {"generator", "scenario", "name", "columns", "inputs", "sources",
// "rows": [{column: value}]}, one row per line, unknown values null. A table
// exported without a scenario records its inputs as the scenario.

#include "app/export/datatable.h"
#include "app/export/exportstamp.h"

#include <QCoreApplication>

#include <functional>
#include <optional>

class QIODevice;

namespace ws {

class TableWriter
{
    Q_DECLARE_TR_FUNCTIONS(ws::TableWriter)

public:
    enum class Format
    {
        Csv,
        Json
    };
    enum class Outcome
    {
        Written,
        Failed,
        Cancelled
    };
    static constexpr qsizetype kProgressStep = 4096;
    // Rows written so far and the table's row count: first (0, total), then every kProgressStep rows and
    // (total, total) at the end. Returning false cancels the export.
    using Progress = std::function<bool(qsizetype done, qsizetype total)>;

    // By the suffix of `path` (.csv or .json, any case); nothing for any other.
    static std::optional<Format> formatFor(const QString& path);
    // Writes to an open device; false when a write fails (`*error` set) or progress cancelled (`*cancelled`).
    static bool write(const DataTable& table, Format format, QIODevice* out, const ExportStamp& stamp, QString* error,
                      const Progress& progress = {}, bool* cancelled = nullptr);
    static QByteArray bytes(const DataTable& table, Format format, const ExportStamp& stamp);
    // The format chosen by the suffix; on Failed `*error` names the file and the reason.
    static Outcome save(const DataTable& table, const QString& path, const ExportStamp& stamp, QString* error,
                        const Progress& progress = {});
};

} // namespace ws
