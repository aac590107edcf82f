#include "views/mesh/meshview.h"

#include "views/mesh/meshdifference.h"
#include "views/mesh/meshimage.h"
#include "views/mesh/meshlegend.h"
#include "views/mesh/meshoverlay.h"
#include "views/mesh/meshraster.h"

#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace ws::views {

namespace {
constexpr double kMarginPx = 16;
const QColor kBackground(meshBackground());
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

void MeshView::setLayer(MeshLayer layer)
{
    if (layer == m_layer)
        return;
    m_layer = layer;
    rebuildImage();
}

void MeshView::setDevice(int device)
{
    if ((m_snapshot && (device < 0 || device >= m_snapshot->deviceCount)) || device == m_device)
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

void MeshView::setDifference(std::shared_ptr<const MeshDifference> difference)
{
    m_difference = std::move(difference);
    rebuildImage();
}

void MeshView::setLegendVisible(bool visible)
{
    m_legendVisible = visible;
    updateLegendBand();
    update();
}

void MeshView::updateLegendBand()
{
    double band = 0, narrow = 0;
    if (m_snapshot && m_legendVisible) {
        const MeshLegend legend(m_snapshot.get(), m_layer, m_range, overlayTop());
        const double full = (m_difference ? DifferenceLayer::legendSize(font()) : legend.sizeHint(font())).width();
        // In steps of 16 px, so that a scale's changing top does not move the mesh; the legend's 12 px from the
        // edge, and as much again from the mesh.
        band = std::ceil(full / 16) * 16 + 24;
        if (!m_difference) {
            if (m_narrowLegend.layer != m_layer || m_narrowLegend.fullWidth != full)
                m_narrowLegend = {m_layer, full, legend.narrowestWidth(font())};
            narrow = std::ceil(m_narrowLegend.width / 16) * 16 + 24;
        }
    }
    if (band == m_transform.sideBandPx && narrow == m_transform.narrowBandPx)
        return;
    const bool fitted = m_transform.isValid() && m_transform.isFitted();
    m_transform.sideBandPx = band;
    m_transform.narrowBandPx = narrow < band ? narrow : 0;
    if (!fitted) {
        m_transform.clamp();
        return;
    }
    const double scale = m_transform.scale;
    m_transform.fit(); // a turned mesh's fit leaves the band (ViewTransform::fitScale): fitted to the new one
    if (m_transform.scale != scale)
        emitZoom();
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

void MeshView::setTurnToFit(bool on)
{
    if (on == m_turnToFit)
        return;
    m_turnToFit = on;
    resetTransform();
    update();
}

bool MeshView::wantsTurn() const
{
    if (!m_turnToFit || m_transform.meshCores.isEmpty())
        return false;
    ViewTransform t = m_transform;
    t.turned = false;
    const double flat = t.fitScale();
    t.turned = true;
    return t.fitScale() >= 1.1 * flat;
}

void MeshView::resetTransform()
{
    m_transform.viewPx = QSizeF(size());
    m_transform.meshCores = m_snapshot ? QSizeF(m_snapshot->meshCols, m_snapshot->meshRows) : QSizeF();
    const bool wasTurned = std::exchange(m_transform.turned, wantsTurn());
    updateLegendBand();
    m_transform.fit();
    emitZoom();
    if (wasTurned != m_transform.turned)
        emit turnedChanged(m_transform.turned);
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
    m_transform.centreOn(centreCore);
    emitZoom();
    update();
}

void MeshView::resizeEvent(QResizeEvent*)
{
    m_transform.resize(QSizeF(size()));
    if (wantsTurn() != m_transform.turned)
        resetTransform(); // turned or back: fitted afresh
    emitZoom();
}

void MeshView::setBanner(const QString& text)
{
    if (text == m_banner)
        return;
    m_banner = text;
    update();
}

void MeshView::paintBanner(QPainter& p) const
{
    if (m_banner.isEmpty())
        return;
    const QRect area = rect().adjusted(10, 10, -10, -10);
    QRect text = p.fontMetrics().boundingRect(area.adjusted(10, 6, -10, -6), Qt::TextWordWrap, m_banner);
    const QRect box(area.left(), area.top(), area.width(), text.height() + 12);
    p.fillRect(box, QColor(150, 36, 36, 230));
    p.setPen(QColor(255, 255, 255));
    p.drawText(box.adjusted(10, 6, -10, -6), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, m_banner);
}

void MeshView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    ensureImage();
    if (!m_snapshot || m_image.isNull()) { // no placement, or a new one's first image on its way (blank meanwhile)
        p.fillRect(rect(), kBackground);
        if (imagePending()) {
            paintBanner(p);
            return;
        }
        p.setPen(QColor(150, 156, 168));
        p.drawText(rect().adjusted(24, 24, -24, -24), Qt::AlignCenter | Qt::TextWordWrap, m_emptyText);
        paintBanner(p);
        return;
    }
    paintMesh(p);

    const MeshOverlay overlay{*m_meshFrame, m_transform, m_device, m_layer};
    if (m_transform.scale < 1) // at a pixel per core or more the raster has them (paintMesh)
        overlay.paintDies(p);
    overlay.paintRegions(p);
    overlay.paintCoreText(p);
    overlay.paintDisplacement(p, m_displacement.get());
    overlay.paintFlows(p);
    if (m_hover && m_hover != m_selected)
        overlay.paintCoreMark(p, *m_hover, false);
    if (m_selected)
        overlay.paintCoreMark(p, *m_selected, true);
    if (m_editSelected) {
        p.setPen(QPen(QColor(90, 200, 255), 2));
        p.drawRect(m_transform.widgetRect(QRectF(*m_editSelected)));
    }
    if (m_editPreview) {
        p.setPen(QPen(QColor(255, 255, 255), 2, Qt::DashLine));
        p.drawRect(m_transform.widgetRect(QRectF(*m_editPreview)));
    }
    if (m_brushRect) {
        p.setPen(QPen(QColor(255, 220, 90), 1.5, Qt::DashLine));
        p.setBrush(QColor(255, 220, 90, 40));
        p.drawRect(m_transform.widgetRect(QRectF(*m_brushRect)));
        p.setBrush(Qt::NoBrush);
    }

    const HeadsUp heads = headsUp();
    if (!heads.text.isEmpty()) {
        p.fillRect(heads.textRect, QColor(18, 20, 26, 200));
        p.setPen(QColor(210, 214, 224));
        p.drawText(heads.textRect, Qt::AlignCenter, heads.text);
    }
    const std::optional<QRectF>& legendBox = heads.legendRect;
    p.setOpacity(m_legendFaded ? 0.15 : 1.0); // the pointer is near: the cores under the legend show through
    if (legendBox && m_difference)
        DifferenceLayer::paintLegend(p, *legendBox, *m_difference);
    else if (legendBox && m_legendVisible)
        MeshLegend(m_snapshot.get(), m_layer, m_range, overlayTop()).paint(p, *legendBox);
    p.setOpacity(1.0);
    paintBanner(p);
}

MeshView::HeadsUp MeshView::headsUp() const
{
    // The legend's box first, so the heads-up line can keep clear of it.
    HeadsUp out;
    if (!m_snapshot)
        return out;
    std::optional<QRectF>& legendBox = out.legendRect;
    if (m_legendVisible && m_difference) {
        const QSizeF size = DifferenceLayer::legendSize(font());
        legendBox = QRectF(QPointF(width() - size.width() - 12, 12), size);
    } else if (m_legendVisible) {
        const MeshLegend legend(m_snapshot.get(), m_layer, m_range, overlayTop());
        const QSizeF size = legend.sizeHint(font());
        if (size.width() + 24 < width() && size.height() + 24 < height()) {
            // Bottom-right unless that covers the mesh and the top-right does not.
            ensureImage();
            const QRectF mesh = m_transform.widgetRect(QRectF(0, 0, m_image.width(), m_image.height()));
            QRectF box(QPointF(width() - size.width() - 12, height() - size.height() - 12), size);
            const QRectF top(QPointF(width() - size.width() - 12, 12), size);
            if (box.intersects(mesh) && !top.intersects(mesh))
                box = top;
            if (box.intersects(mesh))
                box = legend.besideMesh(font(), QSizeF(width(), height()), mesh).value_or(box);
            legendBox = box;
        }
    }

    // Heads-up line, bottom-left (clear of the region labels along the mesh's top edge): which device, mesh
    // size, zoom; shorter where the view is narrow (Compare mode's thumbnail), and above a legend it would meet.
    const QLocale locale;
    const QString wafer = tr("Wafer %1 of %2").arg(m_device + 1).arg(m_snapshot->deviceCount);
    const QString zoom = tr("%1 px per core").arg(locale.toString(m_transform.scale, 'g', 3));
    QString hud = tr("%1 · %2 × %3 cores · %4")
                      .arg(wafer, locale.toString(m_snapshot->meshCols), locale.toString(m_snapshot->meshRows), zoom);
    if (m_transform.turned) // its columns run down the screen: say so beside the mesh's size
        hud += tr(" · turned a quarter to fit");
    if (isDraftWafer(*m_snapshot, m_device))
        hud += tr(" · the draft model's own wafer");
    const QFontMetricsF fm(font());
    const double lineHeight = fm.height() + 8;
    double bottom = height() - 10;
    double room = width() - 36;
    if (legendBox && legendBox->bottom() > height() - lineHeight - 20) { // a bottom legend
        if (legendBox->left() - 36 >= fm.horizontalAdvance(tr("%1 · %2").arg(wafer, zoom)))
            room = legendBox->left() - 36;
        else
            bottom = legendBox->top() - 6; // no room beside it: above it
    }
    if (fm.horizontalAdvance(hud) > room)
        hud = tr("%1 · %2").arg(wafer, zoom);
    hud = fm.elidedText(hud, Qt::ElideRight, room);
    out.text = hud;
    out.textRect = QRectF(10, bottom - lineHeight, fm.horizontalAdvance(hud) + 16, lineHeight);
    return out;
}

void MeshView::setEditMarks(std::optional<QRect> selected, std::optional<QRect> preview)
{
    m_editSelected = selected;
    m_editPreview = preview;
    update();
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

} // namespace ws::views
