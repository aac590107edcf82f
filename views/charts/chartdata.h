#pragma once
// The numbers behind one chart, as a table: what a chart widget hands the app
// for CSV or JSON export (views write no files).

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVariant>

namespace ws::views {

struct ChartData
{
    QString name;             // file-name friendly, e.g. "tokens_per_second_per_user"
    QStringList columns;      // with units, e.g. "tokens_per_second_low"
    QList<QVariantList> rows; // one value per column
};

// The columns of an uncertain value: the value, then its range ("ttft_ms", "ttft_ms_low", "ttft_ms_high").
inline QStringList rangeColumns(const QString& column)
{
    return {column, column + QStringLiteral("_low"), column + QStringLiteral("_high")};
}

} // namespace ws::views

Q_DECLARE_METATYPE(ws::views::ChartData)
