#include "views/meshview.h"

#include "views/meshimage.h"
#include "views/meshlegend.h"
#include "views/meshoverlay.h"
#include "views/meshraster.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace ws::views {

namespace {
constexpr double kMarginPx = 16;
constexpr double kDragThresholdPx = 4;
const QColor kBackground(0x0e, 0x10, 0x16);
} // namespace

MeshView::MeshView(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_transform.marginPx = kMarginPx;
    m_emptyText = tr("No placement to show");
}

QSize MeshView::sizeHint() const
{
    return {900, 700};
}

QSize MeshView::minimumSizeHint() const
{
    return {200, 160};
}

void MeshView::setSnapshot(std::shared_ptr<const MeshSnapshot> snapshot)
{
    const bool sameMesh = snapshot && m_snapshot && snapshot->meshCols == m_snapshot->meshCols &&
                          snapshot->meshRows == m_snapshot->meshRows;
    m_snapshot = std::move(snapshot);
    if (m_snapshot && (m_device < 0 || m_device >= m_snapshot->deviceCount))
        m_device = 0;
    if (!sameMesh) {
        m_selected.reset();
        resetTransform();
    }
    m_hover.reset();
    rebuildImage();
}

void MeshView::setLayer(MeshLayer layer)
{
    if (layer == m_layer)
        return;
    m_layer = layer;
    rebuildImage();
}

void MeshView::setDevice(int device)
{
    if (m_snapshot && (device < 0 || device >= m_snapshot->deviceCount))
        return;
    if (device == m_device)
        return;
    m_device = device;
    m_selected.reset();
    m_hover.reset();
    rebuildImage();
}

void MeshView::setEmptyText(const QString& text)
{
    m_emptyText = text;
    update();
}

void MeshView::setLegendVisible(bool visible)
{
    m_legendVisible = visible;
    update();
}

void MeshView::setSelectedCore(std::optional<QPoint> core)
{
    m_selected = core;
    update();
}

QPointF MeshView::coreCentre(QPoint core) const
{
    return m_transform.coreToWidget(QPointF(core) + QPointF(0.5, 0.5));
}

void MeshView::rebuildImage()
{
    m_range = m_snapshot ? meshLayerRange(*m_snapshot, m_layer) : 1.0;
    m_image = m_snapshot ? buildMeshImage(*m_snapshot, m_device, m_layer, m_range) : QImage();
    m_reduced = QImage();
    m_reducedScale = 0;
    update();
}

void MeshView::resetTransform()
{
    m_transform.viewPx = QSizeF(size());
    m_transform.meshCores = m_snapshot ? QSizeF(m_snapshot->meshCols, m_snapshot->meshRows) : QSizeF();
    m_transform.fit();
    emitZoom();
}

void MeshView::emitZoom()
{
    emit zoomChanged(m_transform.scale);
}

void MeshView::zoomIn()
{
    m_transform.zoomAround(QPointF(width() / 2.0, height() / 2.0), ViewTransform::zoomStep);
    emitZoom();
    update();
}

void MeshView::zoomOut()
{
    m_transform.zoomAround(QPointF(width() / 2.0, height() / 2.0), 1 / ViewTransform::zoomStep);
    emitZoom();
    update();
}

void MeshView::fitToWindow()
{
    m_transform.fit();
    emitZoom();
    update();
}

double MeshView::zoomFactor() const
{
    const double fit = m_transform.fitScale();
    return fit > 0 ? m_transform.scale / fit : 1.0;
}

QPointF MeshView::centreCore() const
{
    return m_transform.widgetToCore(QPointF(m_transform.viewPx.width() / 2, m_transform.viewPx.height() / 2));
}

void MeshView::setViewState(double zoomFactor, QPointF centreCore)
{
    if (!m_snapshot || !(zoomFactor > 0) || !std::isfinite(zoomFactor) || !std::isfinite(centreCore.x()) ||
        !std::isfinite(centreCore.y()))
        return;
    m_transform.scale = m_transform.fitScale() * zoomFactor;
    m_transform.offsetPx =
        QPointF(m_transform.viewPx.width() / 2, m_transform.viewPx.height() / 2) - centreCore * m_transform.scale;
    m_transform.clamp();
    emitZoom();
    update();
}

void MeshView::resizeEvent(QResizeEvent*)
{
    m_transform.resize(QSizeF(size()));
    emitZoom();
}

void MeshView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    if (!m_snapshot || m_image.isNull()) {
        p.fillRect(rect(), kBackground);
        p.setPen(QColor(150, 156, 168));
        p.drawText(rect().adjusted(24, 24, -24, -24), Qt::AlignCenter | Qt::TextWordWrap, m_emptyText);
        return;
    }
    paintMesh(p);

    const MeshOverlay overlay{*m_snapshot, m_transform, m_device, m_layer};
    overlay.paintDies(p);
    overlay.paintRegions(p);
    overlay.paintCoreText(p);
    paintDisplacement(p);
    overlay.paintHops(p);
    if (m_hover && m_hover != m_selected)
        overlay.paintCoreMark(p, *m_hover, false);
    if (m_selected)
        overlay.paintCoreMark(p, *m_selected, true);
    if (m_brushRect) {
        p.setPen(QPen(QColor(255, 220, 90), 1.5, Qt::DashLine));
        p.setBrush(QColor(255, 220, 90, 40));
        p.drawRect(m_transform.widgetRect(QRectF(*m_brushRect)));
        p.setBrush(Qt::NoBrush);
    }

    // Heads-up line: which device, mesh size, zoom.
    const QLocale locale;
    const QString hud = tr("Wafer %1 of %2 · %3 × %4 cores · %5 px per core")
                            .arg(m_device + 1)
                            .arg(m_snapshot->deviceCount)
                            .arg(locale.toString(m_snapshot->meshCols), locale.toString(m_snapshot->meshRows),
                                 locale.toString(m_transform.scale, 'g', 3));
    const QFontMetricsF fm(font());
    // Bottom-left, clear of the region labels along the mesh's top edge; the legend sits bottom-right.
    const QRectF hudRect(10, height() - fm.height() - 18, fm.horizontalAdvance(hud) + 16, fm.height() + 8);
    p.fillRect(hudRect, QColor(18, 20, 26, 200));
    p.setPen(QColor(210, 214, 224));
    p.drawText(hudRect, Qt::AlignCenter, hud);

    if (m_legendVisible) {
        const MeshLegend legend(m_snapshot.get(), m_layer, m_range);
        const QSizeF size = legend.sizeHint(font());
        if (size.width() + 24 < width() && size.height() + 24 < height()) {
            // Bottom-right unless that covers the mesh and the top-right does not.
            const QRectF mesh = m_transform.widgetRect(QRectF(0, 0, m_image.width(), m_image.height()));
            QRectF box(QPointF(width() - size.width() - 12, height() - size.height() - 12), size);
            const QRectF top(QPointF(width() - size.width() - 12, 12), size);
            if (box.intersects(mesh) && !top.intersects(mesh))
                box = top;
            legend.paint(p, box);
        }
    }
}

void MeshView::paintMesh(QPainter& p)
{
    const QRectF meshRect = m_transform.widgetRect(QRectF(0, 0, m_image.width(), m_image.height()));
    if (m_transform.scale < 1) {
        // Below a pixel per core, draw an area-averaged copy at 1:1 so no core is dropped.
        p.fillRect(rect(), kBackground);
        if (m_reducedScale != m_transform.scale) {
            const QSize target(std::max(1, static_cast<int>(std::lround(meshRect.width()))),
                               std::max(1, static_cast<int>(std::lround(meshRect.height()))));
            m_reduced = m_image.scaled(target, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
            m_reducedScale = m_transform.scale;
        }
        p.drawImage(QPointF(std::round(meshRect.left()), std::round(meshRect.top())), m_reduced);
    } else {
        // At a pixel per core or more: nearest-neighbour, so cores stay crisp, with the grid folded in.
        rasterizeMesh(m_image, m_transform, kBackground.rgb(), MeshOverlay::gridAlpha(m_transform.scale), m_frame);
        p.drawImage(QPointF(0, 0), m_frame);
    }
    p.setPen(QColor(255, 255, 255, 50));
    p.drawRect(meshRect.adjusted(-1.5, -1.5, 1.5, 1.5));
}

void MeshView::wheelEvent(QWheelEvent* event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0 || !m_snapshot) {
        event->ignore();
        return;
    }
    m_transform.zoomAround(event->position(), std::pow(ViewTransform::zoomStep, steps));
    emitZoom();
    update();
    event->accept();
    emit viewChangedByUser();
}

void MeshView::setBrushMode(bool on)
{
    m_brushMode = on;
    m_brushStart.reset();
    m_brushRect.reset();
    if (on)
        setCursor(Qt::CrossCursor);
    else
        unsetCursor();
    update();
}

void MeshView::setDisplacement(std::shared_ptr<const CoreDisplacement> displacement)
{
    m_displacement = std::move(displacement);
    update();
}

void MeshView::paintDisplacement(QPainter& p) const
{
    const CoreDisplacement* d = m_displacement.get();
    const double s = m_transform.scale;
    if (!d || m_layer != MeshLayer::Defects || d->device != m_device || s < 8 || !m_snapshot ||
        d->cols != m_snapshot->meshCols || d->rows != m_snapshot->meshRows)
        return;
    const QRectF visible = m_transform.visibleCores();
    const int x0 = std::max(0, int(std::floor(visible.left())) - 1);
    const int y0 = std::max(0, int(std::floor(visible.top())) - 1);
    const int x1 = std::min(d->cols - 1, int(std::ceil(visible.right())) + 1);
    const int y1 = std::min(d->rows - 1, int(std::ceil(visible.bottom())) + 1);
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    const QColor colour(20, 20, 24, 220);
    p.setPen(QPen(colour, std::clamp(s / 10.0, 1.0, 2.5)));
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
            const size_t i = size_t(y) * size_t(d->cols) + size_t(x);
            const int dx = d->dx[i];
            const int dy = d->dy[i];
            if (dx == 0 && dy == 0)
                continue;
            // From the cell the logical core came from towards this one, stopping short of the centres.
            const QPointF to = m_transform.coreToWidget(QPointF(x + 0.5, y + 0.5));
            const QPointF from = m_transform.coreToWidget(QPointF(x - dx + 0.5, y - dy + 0.5));
            const QPointF v = to - from;
            const double len = std::hypot(v.x(), v.y());
            if (len < 1)
                continue;
            const QPointF u = v / len;
            const QPointF a = from + u * (s * 0.3);
            const QPointF b = to - u * (s * 0.15);
            p.drawLine(a, b);
            const double head = std::min(s * 0.3, 10.0);
            const QPointF n(-u.y(), u.x());
            p.drawLine(b, b - u * head + n * head * 0.5);
            p.drawLine(b, b - u * head - n * head * 0.5);
        }
    p.restore();
}

void MeshView::zoomToCore(QPointF core, double pixelsPerCore)
{
    if (!m_transform.isValid())
        return;
    m_transform.zoomAround(m_transform.coreToWidget(core), pixelsPerCore / m_transform.scale);
    m_transform.panBy(QPointF(width() / 2.0, height() / 2.0) - m_transform.coreToWidget(core));
    m_transform.clamp();
    emitZoom();
    update();
}

void MeshView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    if (m_brushMode && m_snapshot) {
        m_brushStart = m_transform.coreAt(event->position());
        m_brushRect = m_brushStart ? std::optional<QRect>(QRect(*m_brushStart, QSize(1, 1))) : std::nullopt;
        update();
        return;
    }
    m_pressed = true;
    m_dragged = false;
    m_pressPos = event->position();
    m_lastPos = event->position();
}

void MeshView::mouseMoveEvent(QMouseEvent* event)
{
    if (m_brushMode && m_brushStart) {
        const QPointF c = m_transform.widgetToCore(event->position());
        const QPoint end(std::clamp(int(std::floor(c.x())), 0, m_snapshot->meshCols - 1),
                         std::clamp(int(std::floor(c.y())), 0, m_snapshot->meshRows - 1));
        m_brushRect = QRect(*m_brushStart, end).normalized();
        update();
        return;
    }
    if (m_pressed) {
        if (!m_dragged && (event->position() - m_pressPos).manhattanLength() >= kDragThresholdPx) {
            m_dragged = true;
            setCursor(Qt::ClosedHandCursor);
        }
        if (m_dragged) {
            m_transform.panBy(event->position() - m_lastPos);
            m_lastPos = event->position();
            update();
            return;
        }
    }
    setHover(m_snapshot ? m_transform.coreAt(event->position()) : std::nullopt);
}

void MeshView::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_brushMode && m_brushStart && event->button() == Qt::LeftButton) {
        const std::optional<QRect> cores = m_brushRect;
        m_brushStart.reset();
        m_brushRect.reset();
        update();
        if (cores)
            emit brushed(m_device, *cores);
        return;
    }
    if (event->button() != Qt::LeftButton || !m_pressed) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    m_pressed = false;
    unsetCursor();
    if (m_dragged)
        emit viewChangedByUser();
    if (m_dragged || !m_snapshot)
        return;
    if (const auto core = m_transform.coreAt(event->position())) {
        m_selected = core;
        update();
        emit coreClicked(m_device, core->x(), core->y());
    }
}

void MeshView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) {
        fitToWindow();
        emit viewChangedByUser();
    }
}

void MeshView::leaveEvent(QEvent*)
{
    setHover(std::nullopt);
}

void MeshView::setHover(std::optional<QPoint> core)
{
    if (core == m_hover)
        return;
    m_hover = core;
    update();
    emit coreHovered(m_device, core ? core->x() : -1, core ? core->y() : -1);
}

void MeshView::keyPressEvent(QKeyEvent* event)
{
    const double stepPx = std::max(width(), height()) / 10.0;
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomIn(); break;
    case Qt::Key_Minus: zoomOut(); break;
    case Qt::Key_0:
    case Qt::Key_Home: fitToWindow(); break;
    case Qt::Key_Left: m_transform.panBy(QPointF(stepPx, 0)); update(); break;
    case Qt::Key_Right: m_transform.panBy(QPointF(-stepPx, 0)); update(); break;
    case Qt::Key_Up: m_transform.panBy(QPointF(0, stepPx)); update(); break;
    case Qt::Key_Down: m_transform.panBy(QPointF(0, -stepPx)); update(); break;
    default: QWidget::keyPressEvent(event); return;
    }
    event->accept();
    emit viewChangedByUser();
}

bool MeshView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto core = m_snapshot ? m_transform.coreAt(help->pos()) : std::nullopt;
        if (core)
            QToolTip::showText(help->globalPos(), toolTipForCore(*core), this);
        else
            QToolTip::hideText();
        return true;
    }
    if (event->type() == QEvent::LanguageChange)
        update();
    return QWidget::event(event);
}

QString MeshView::toolTipForCore(QPoint core) const
{
    if (!m_snapshot || core.x() < 0 || core.y() < 0 || core.x() >= m_snapshot->meshCols ||
        core.y() >= m_snapshot->meshRows)
        return {};
    const MeshSnapshot& s = *m_snapshot;
    const QLocale locale;
    const size_t i = static_cast<size_t>(core.y()) * s.meshCols + core.x();
    const size_t cores = static_cast<size_t>(s.meshCols) * static_cast<size_t>(s.meshRows);
    const auto d = static_cast<size_t>(m_device);
    QStringList lines;
    lines << tr("Core (%1, %2) on wafer %3").arg(core.x()).arg(core.y()).arg(m_device + 1);
    if (d < s.sramFraction.size() && s.sramFraction[d].size() == cores) {
        const double f = s.sramFraction[d][i];
        lines << tr("SRAM used: %1% of %2 (%3)")
                     .arg(locale.toString(100 * f, 'f', 1), formatBytes(double(s.sramBytesPerCore)),
                          formatBytes(f * double(s.sramBytesPerCore)));
    }
    if (d < s.owner.size() && s.owner[d].size() == cores) {
        const size_t o = s.owner[d][i];
        if (o == 0 || o >= s.owners.size())
            lines << tr("Holds: nothing placed");
        else if (s.owners[o].layerIndex >= 0)
            lines << tr("Holds: layer %1, %2").arg(s.owners[o].layerIndex).arg(QString::fromStdString(s.owners[o].tensorKind));
        else
            lines << tr("Holds: %1").arg(QString::fromStdString(s.owners[o].tensorKind));
    }
    if (d < s.kvFraction.size() && s.kvFraction[d].size() == cores) {
        const double f = s.kvFraction[d][i];
        lines << tr("KV cache: %1% of SRAM (%2)")
                     .arg(locale.toString(100 * f, 'f', 1), formatBytes(f * double(s.sramBytesPerCore)));
    }
    lines << tr("Numbers from the engine's placement. Click for details.");
    return lines.join(QLatin1Char('\n'));
}

} // namespace ws::views
