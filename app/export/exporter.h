#pragma once
// Exporter turns what is on screen into files: any widget (a chart, the
// heatmap, a whole pane) as PNG at a chosen scale or as SVG (QSvgGenerator),
// and data tables as CSV or JSON. Every file is written through QSaveFile:
// either the whole new file appears or the old one is left as it was.

#include "app/export/datatable.h"

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
    static bool savePng(QWidget* widget, const QString& path, double scale, QString* error);
    static bool saveSvg(QWidget* widget, const QString& path, const QString& title, QString* error);
    static QByteArray svgBytes(QWidget* widget, const QString& title);
    static bool saveImage(const QImage& image, const QString& path, QString* error); // PNG

    // RFC 4180 CSV: header row, quoted fields where needed, CRLF line ends. Inputs and sources are not in CSV.
    static QByteArray toCsv(const DataTable& table);
    // {"name", "columns", "rows": [{column: value}], "inputs", "sources"}, indented.
    static QByteArray toJson(const DataTable& table);
    // Chooses CSV or JSON by the suffix of `path`.
    static bool saveTable(const DataTable& table, const QString& path, QString* error);

    static bool saveBytes(const QByteArray& bytes, const QString& path, QString* error);
};

} // namespace ws
