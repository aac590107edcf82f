#pragma once
// Exporter turns what is on screen into files: any widget (a chart, the
// heatmap, a whole pane) as PNG at a chosen scale or as SVG (QSvgGenerator),
// and data tables as CSV or JSON (through TableWriter). Every file is written through QSaveFile:
// either the whole new file appears or the old one is left as it was.
// Every file records the version and scenario that made it (ExportStamp):
// PNG text chunks, an SVG comment, CSV comment lines before the header row,
// JSON "generator" and "scenario" fields. A table exported without a
// scenario records its inputs as the scenario.

#include "app/export/datatable.h"
#include "app/export/exportstamp.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QImage>
#include <QString>

class QWidget;

namespace ws {

class Exporter
{
    Q_DECLARE_TR_FUNCTIONS(ws::Exporter)

public:
    static constexpr double kMinScale = 0.25;
    static constexpr double kMaxScale = 8.0;

    // The widget drawn at `scale` device pixels per widget pixel (vector content stays sharp).
    static QImage renderWidget(QWidget* widget, double scale);
    static bool savePng(QWidget* widget, const QString& path, double scale, QString* error,
                        const ExportStamp& stamp = {});
    static bool saveSvg(QWidget* widget, const QString& path, const QString& title, QString* error,
                        const ExportStamp& stamp = {});
    static QByteArray svgBytes(QWidget* widget, const QString& title, const ExportStamp& stamp = {});
    // An SVG document with the stamp's comment on its own line after the XML declaration (or first).
    static QByteArray stampSvg(QByteArray svg, const ExportStamp& stamp);
    static bool saveImage(const QImage& image, const QString& path, QString* error,
                          const ExportStamp& stamp = {}); // PNG

    // The table's CSV or JSON as TableWriter writes it (its formats are described there). Inputs and sources are
    // not in CSV.
    static QByteArray toCsv(const DataTable& table, const ExportStamp& stamp = {});
    static QByteArray toJson(const DataTable& table, const ExportStamp& stamp = {});
    // Chooses CSV or JSON by the suffix of `path` (TableWriter::save, without progress).
    static bool saveTable(const DataTable& table, const QString& path, QString* error, const ExportStamp& stamp = {});

    static bool saveBytes(const QByteArray& bytes, const QString& path, QString* error);
};

} // namespace ws
