#include "app/export/exporter.h"

#include "app/export/tablewriter.h"
#include "views/mesh/meshview.h"

#include <QBuffer>
#include <QFileInfo>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QWidget>

#include <cmath>

namespace ws {

namespace {

// A heatmap whose new image is still being made off the GUI thread (deferred images) makes it now, so the file
// shows what the view says, not the picture before a layer change.
void finishMeshImages(const QWidget* widget)
{
    if (const auto* view = qobject_cast<const views::MeshView*>(widget))
        view->finishImage();
    for (const QWidget* child : widget->findChildren<QWidget*>())
        if (const auto* view = qobject_cast<const views::MeshView*>(child))
            view->finishImage();
}

} // namespace

QImage Exporter::renderWidget(QWidget* widget, double scale)
{
    scale = std::clamp(scale, kMinScale, kMaxScale);
    const QSize size(int(std::lround(widget->width() * scale)), int(std::lround(widget->height() * scale)));
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(widget->palette().window().color());
    finishMeshImages(widget);
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
    finishMeshImages(widget);
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
    return TableWriter::bytes(table, TableWriter::Format::Csv, stamp);
}

QByteArray Exporter::toJson(const DataTable& table, const ExportStamp& stamp)
{
    return TableWriter::bytes(table, TableWriter::Format::Json, stamp);
}

bool Exporter::saveTable(const DataTable& table, const QString& path, QString* error, const ExportStamp& stamp)
{
    return TableWriter::save(table, path, stamp, error) == TableWriter::Outcome::Written;
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
