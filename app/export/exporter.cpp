#include "app/export/exporter.h"

#include <QBuffer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QWidget>

#include <cmath>

namespace ws {

namespace {

QString csvField(const QVariant& value)
{
    // Doubles in their shortest form that reads back to the same value.
    QString text = value.typeId() == QMetaType::Double || value.typeId() == QMetaType::Float
                       ? QString::number(value.toDouble(), 'g', QLocale::FloatingPointShortest)
                       : value.toString();
    if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')) || text.contains(QLatin1Char('\n')) ||
        text.contains(QLatin1Char('\r'))) {
        text.replace(QLatin1String("\""), QLatin1String("\"\""));
        text = QLatin1Char('"') + text + QLatin1Char('"');
    }
    return text;
}

// A table's stamp: its inputs stand for the scenario when the caller gave none.
ExportStamp tableStamp(const DataTable& table, const ExportStamp& stamp)
{
    if (!stamp.scenario.isEmpty() || table.inputs.isEmpty())
        return stamp;
    ExportStamp withInputs = ExportStamp::forScenario(table.inputs);
    withInputs.generator = stamp.generator;
    return withInputs;
}

} // namespace

QImage Exporter::renderWidget(QWidget* widget, double scale)
{
    scale = std::clamp(scale, kMinScale, kMaxScale);
    const QSize size(int(std::lround(widget->width() * scale)), int(std::lround(widget->height() * scale)));
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(widget->palette().window().color());
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    widget->render(&painter, QPoint(), QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
    painter.end();
    image.setDevicePixelRatio(1.0);
    return image;
}

bool Exporter::saveImage(const QImage& image, const QString& path, QString* error, const ExportStamp& stamp)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QImage stamped = image;
    stamp.addTo(stamped);
    if (image.isNull() || !stamped.save(&buffer, "PNG")) {
        *error = tr("cannot encode the image as PNG for %1").arg(path);
        return false;
    }
    return saveBytes(bytes, path, error);
}

bool Exporter::savePng(QWidget* widget, const QString& path, double scale, QString* error, const ExportStamp& stamp)
{
    if (!(scale >= kMinScale && scale <= kMaxScale)) {
        *error = tr("scale must be from %1 to %2, got %3").arg(kMinScale).arg(kMaxScale).arg(scale);
        return false;
    }
    return saveImage(renderWidget(widget, scale), path, error, stamp);
}

QByteArray Exporter::svgBytes(QWidget* widget, const QString& title, const ExportStamp& stamp)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(widget->size());
    generator.setResolution(96); // QSvgGenerator writes the size in mm; 96 dpi is CSS pixels (browsers, Inkscape)
    generator.setViewBox(QRect(QPoint(0, 0), widget->size()));
    generator.setTitle(title);
    generator.setDescription(tr("Exported from WaferScope"));
    QPainter painter(&generator);
    widget->render(&painter, QPoint(), QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
    painter.end();
    return stampSvg(bytes, stamp);
}

QByteArray Exporter::stampSvg(QByteArray bytes, const ExportStamp& stamp)
{
    if (bytes.isEmpty())
        return bytes;
    // The stamp goes on its own line right after the XML declaration (or first, when there is none).
    if (bytes.startsWith("<?xml") && bytes.contains("?>"))
        bytes.insert(bytes.indexOf("?>") + 2, "\n" + stamp.svgComment());
    else
        bytes.prepend(stamp.svgComment() + "\n");
    return bytes;
}

bool Exporter::saveSvg(QWidget* widget, const QString& path, const QString& title, QString* error,
                       const ExportStamp& stamp)
{
    const QByteArray bytes = svgBytes(widget, title, stamp);
    if (bytes.isEmpty()) {
        *error = tr("cannot draw the view as SVG for %1").arg(path);
        return false;
    }
    return saveBytes(bytes, path, error);
}

QByteArray Exporter::toCsv(const DataTable& table, const ExportStamp& stamp)
{
    QString text;
    QStringList fields;
    for (const QString& column : table.columns)
        fields << csvField(column);
    text += fields.join(QLatin1Char(',')) + QLatin1String("\r\n");
    for (const QVariantList& row : table.rows) {
        fields.clear();
        for (const QVariant& value : row)
            fields << csvField(value);
        text += fields.join(QLatin1Char(',')) + QLatin1String("\r\n");
    }
    return tableStamp(table, stamp).csvComment() + text.toUtf8();
}

QByteArray Exporter::toJson(const DataTable& table, const ExportStamp& stamp)
{
    QJsonArray rows;
    for (const QVariantList& row : table.rows) {
        QJsonObject object;
        for (qsizetype i = 0; i < row.size() && i < table.columns.size(); ++i)
            object.insert(table.columns.at(i), QJsonValue::fromVariant(row.at(i)));
        rows.append(object);
    }
    const ExportStamp stamped = tableStamp(table, stamp);
    const QJsonObject root{{"generator", stamped.generator},
                           {"scenario", QJsonDocument::fromJson(stamped.scenario).object()},
                           {"name", table.name},
                           {"columns", QJsonArray::fromStringList(table.columns)},
                           {"rows", rows},
                           {"inputs", table.inputs},
                           {"sources", table.sources}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

bool Exporter::saveTable(const DataTable& table, const QString& path, QString* error, const ExportStamp& stamp)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("csv"))
        return saveBytes(toCsv(table, stamp), path, error);
    if (suffix == QLatin1String("json"))
        return saveBytes(toJson(table, stamp), path, error);
    *error = tr("%1: choose a .csv or .json file name for data").arg(path);
    return false;
}

bool Exporter::saveBytes(const QByteArray& bytes, const QString& path, QString* error)
{
    QSaveFile file(path);
    // Qt 6.4's QSaveFile::commit() misses a failed flush of its buffer (a full disk) and replaces the old
    // file with a short one: flush first, so a failed write cancels instead.
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.flush() || !file.commit()) {
        *error = tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace ws
