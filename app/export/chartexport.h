#pragma once
// Export of one comparison chart: the picture (PNG at a chosen scale, SVG)
// through the io Exporter (atomic writes), or the numbers behind it (CSV,
// JSON) as a DataTable that carries the inputs and their sources. The format
// follows the file's suffix.

#include "app/export/datatable.h"
#include "views/charts/chartdata.h"
#include "views/compare/comparisonsnapshot.h"

#include <QCoreApplication>
#include <QJsonObject>

class QWidget;

namespace ws {

class ChartExport
{
    Q_DECLARE_TR_FUNCTIONS(ws::ChartExport)

public:
    static DataTable table(const views::ChartData& data, const views::ComparisonSnapshot* snapshot);
    static QJsonObject inputsJson(const views::ComparisonSnapshot& snapshot);
    static bool write(QWidget* content, const views::ChartData& data, const views::ComparisonSnapshot* snapshot,
                      const QString& title, const QString& path, double scale, QString* error);
    // Asks for a path (and a scale for PNG), writes, reports failure in a message box.
    static void askAndWrite(QWidget* parent, QWidget* content, const views::ChartData& data,
                            const views::ComparisonSnapshot* snapshot, const QString& title);
};

} // namespace ws
