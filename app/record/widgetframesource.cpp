#include "app/record/widgetframesource.h"

#include <QPainter>

namespace ws {

namespace {
const QColor kBackground(24, 26, 32);

void drawFitted(QPainter& painter, const QImage& image, const QRect& area)
{
    if (image.isNull() || area.isEmpty())
        return;
    const QSize fitted = image.size().scaled(area.size(), Qt::KeepAspectRatio);
    const QRect target(area.x() + (area.width() - fitted.width()) / 2, area.y() + (area.height() - fitted.height()) / 2,
                       fitted.width(), fitted.height());
    painter.drawImage(target, image);
}
} // namespace

QImage WidgetFrameSource::grab(QWidget* heatmap, QWidget* chatPane, QSize size)
{
    QImage frame(size, QImage::Format_RGB32);
    frame.fill(kBackground);
    if (!heatmap)
        return frame;
    QPainter painter(&frame);
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    const QImage mesh = heatmap->grab().toImage();
    if (chatPane) {
        const QImage chat = chatPane->grab().toImage();
        // Split the frame in proportion to the widths the two widgets have on screen.
        const int total = std::max(1, mesh.width() + chat.width());
        const int meshWidth = size.width() * mesh.width() / total;
        drawFitted(painter, mesh, QRect(0, 0, meshWidth, size.height()));
        drawFitted(painter, chat, QRect(meshWidth, 0, size.width() - meshWidth, size.height()));
    } else {
        drawFitted(painter, mesh, QRect(QPoint(0, 0), size));
    }
    return frame;
}

RecordFrameSource WidgetFrameSource::make(QWidget* heatmap, QWidget* chatPane)
{
    QPointer<QWidget> mesh(heatmap);
    QPointer<QWidget> chat(chatPane);
    return [mesh, chat](int, const RecordOptions& options) {
        if (!mesh) // the window is gone: an empty frame ends the recording with an error
            return QImage();
        return grab(mesh, options.includeChat ? chat.data() : nullptr, options.video.frameSize);
    };
}

} // namespace ws
