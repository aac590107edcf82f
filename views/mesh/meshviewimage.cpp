// MeshView's image: the frame on show and the picture made from it, one pixel
// per core of the device and layer shown (views/mesh/meshimage.h), made when
// next needed rather than at every change, or handed in made
// (setPreparedFrame), and its copy reduced to the view's scale below a pixel
// per core (reduceLater). With deferred images the owner makes it off the GUI
// thread while the picture before stays (imageWanted, offerImage). Drawing
// and the view state are in meshview.cpp.
#include "views/mesh/meshview.h"

#include "views/mesh/meshbands.h"
#include "views/mesh/meshdifference.h"
#include "views/mesh/meshimage.h"
#include "views/mesh/meshraster.h"

#include <QPainter>
#include <QRegion>
#include <QTimer>

#include <cmath>

namespace ws::views {

namespace {
const QColor kBackground(meshBackground());
} // namespace

void MeshView::setSnapshot(std::shared_ptr<const MeshSnapshot> snapshot)
{
    setFrame(snapshot ? std::make_shared<const MeshFrame>(MeshFrame{std::move(snapshot), {}, {}}) : nullptr);
}

void MeshView::setFrame(std::shared_ptr<const MeshFrame> frame)
{
    if (adoptFrame(std::move(frame)))
        rebuildImage();
    else
        update();
}

void MeshView::setPreparedFrame(const PreparedMeshFrame& prepared)
{
    const bool rebuild = adoptFrame(prepared.frame) || m_imageStale;
    if (!rebuild) {
        update();
        return;
    }
    if (!m_meshFrame || prepared.device != m_device || prepared.layer != m_layer || prepared.image.isNull()) {
        rebuildImage();
        return;
    }
    adoptImages(prepared);
}

void MeshView::setDeferredImages(bool on)
{
    m_deferredImages = on;
    if (!on)
        finishImage();
}

bool MeshView::offerImage(const PreparedMeshFrame& prepared)
{
    // On the layers without an overlay any frame of the same base makes the same picture.
    const bool sameFrame =
        prepared.frame && m_meshFrame &&
        (prepared.frame == m_meshFrame || (!isFrameLayer(m_layer) && prepared.frame->base == m_meshFrame->base));
    if (!imagePending() || !sameFrame || prepared.device != m_device || prepared.layer != m_layer ||
        prepared.image.size() != QSize(m_snapshot->meshCols, m_snapshot->meshRows))
        return false;
    adoptImages(prepared);
    return true;
}

void MeshView::wantImage() const
{
    if (m_wantQueued) // asked for once, after the events of now (a layer change and its frame ask once)
        return;
    m_wantQueued = true;
    auto* self = const_cast<MeshView*>(this);
    QMetaObject::invokeMethod(
        self,
        [self] {
            self->m_wantQueued = false;
            if (self->imagePending())
                emit self->imageWanted();
        },
        Qt::QueuedConnection);
}

void MeshView::paintMesh(QPainter& p)
{
    const QRectF meshRect = m_transform.widgetRect(QRectF(0, 0, m_image.width(), m_image.height()));
    if (m_transform.scale < 1) {
        // Below a pixel per core, draw an area-averaged copy at 1:1 so no core is dropped.
        if (m_reducedScale != m_transform.scale && !(imagePending() && !m_reduced.isNull()))
            reduceLater(); // not for the picture before the one on its way, unless there is nothing to stretch
        const QSizeF size(reducedMeshSize(m_image.size(), m_transform.scale));
        // The background around the mesh only: the mesh's picture is opaque and covers whole pixels (0.4-0.6 ms
        // a paint at 1762 x 976 for the pixels drawn again under it).
        const QPoint corner(int(std::round(m_transform.turned ? meshRect.right() - size.height() : meshRect.left())),
                            int(std::round(meshRect.top())));
        const QRect shown(corner, m_transform.turned ? size.toSize().transposed() : size.toSize());
        for (const QRect& around : QRegion(rect()).subtracted(QRegion(shown)))
            fillRectInBands(p, around, kBackground);
        // A copy reduced for the scale before (the view resized, a frame made before it): stretched until the
        // copy for this scale is made, so a new layout does not wait for it (2-3 ms at 1366 x 768). With no copy
        // yet, an image that was on show a moment ago at a pixel per core or more (leaving Present mode) is drawn
        // itself, this once, by its nearest pixels (reduceLater).
        const QImage& source = m_reduced.isNull() ? m_image : m_reduced;
        p.setRenderHint(QPainter::SmoothPixmapTransform, !m_reduced.isNull() && m_reduced.size() != size.toSize());
        if (m_transform.turned) { // the image's top left at the shown mesh's top right, its rows going down
            p.save();
            p.translate(std::round(meshRect.right()), std::round(meshRect.top()));
            p.rotate(90);
            p.drawImage(QRectF(QPointF(0, 0), size), source);
            p.restore();
        } else {
            p.drawImage(QRectF(QPointF(std::round(meshRect.left()), std::round(meshRect.top())), size), source);
        }
        p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    } else {
        // At a pixel per core or more: nearest-neighbour with the grid and the die lines folded in, made off the
        // GUI thread with the frame (prepareMeshFrame) while the view keeps the zoom it was made for.
        const bool prepared = !m_preparedRaster.isNull() && sameRaster(m_rasterTransform, m_transform);
        if (!prepared && m_transform.turned && m_turnedKey != m_image.cacheKey()) {
            turnMesh(m_image, m_turned); // kept for the next zoom of this image, as a prepared frame's is
            m_turnedKey = m_image.cacheKey();
        }
        if (!prepared)
            rasterizeMesh(m_image, m_transform, kBackground.rgb(), MeshOverlay::gridAlpha(m_transform.scale), m_frame,
                          MeshOverlay{*m_meshFrame, m_transform, m_device, m_layer}.dieLines(),
                          m_transform.turned ? m_turned : QImage());
        p.drawImage(QPointF(0, 0), prepared ? m_preparedRaster : m_frame);
    }
    // The mesh's outline, filled rather than stroked (outlineRectInBands), and only where it can show.
    outlineRectInBands(
        p, strokedRectPixels(meshRect.adjusted(-1.5, -1.5, 1.5, 1.5)).intersected(rect().adjusted(-2, -2, 2, 2)),
        QColor(255, 255, 255, 50));
    m_shownImageKey = m_image.cacheKey();
}

void MeshView::finishImage() const
{
    if (!imagePending())
        return;
    m_imageDeferred = false;
    m_reduced = QImage();
    m_reducedScale = 0;
    m_preparedRaster = QImage();
    ensureImage();
}

void MeshView::adoptImages(const PreparedMeshFrame& prepared)
{
    m_range = prepared.range;
    m_image = prepared.image;
    m_imageStale = false;
    m_imageDeferred = false;
    // Made for another scale (the view resized while it was made): stretched until it is made again (paintMesh).
    m_reduced = prepared.reducedScale > 0 ? prepared.reduced : QImage();
    m_reducedScale = prepared.reducedScale > 0 ? prepared.reducedScale : 0;
    m_preparedRaster = prepared.raster;
    m_rasterTransform = prepared.rasterTransform;
    if (!prepared.turned.isNull()) {
        m_turned = prepared.turned;
        m_turnedKey = m_image.cacheKey();
    }
    update();
}

bool MeshView::adoptFrame(std::shared_ptr<const MeshFrame> frame)
{
    if (frame && !frame->base)
        frame.reset();
    const bool sameBase = frame && m_meshFrame && frame->base == m_meshFrame->base;
    const bool sameMesh = frame && m_snapshot && frame->base->meshCols == m_snapshot->meshCols &&
                          frame->base->meshRows == m_snapshot->meshRows;
    // Only the Dataflow layer draws the overlay: on the others a new frame of the same base keeps the image.
    const bool sameImage = sameBase && !isFrameLayer(m_layer) && (!m_image.isNull() || m_imageStale);
    m_meshFrame = std::move(frame);
    m_snapshot = m_meshFrame ? m_meshFrame->base : nullptr;
    if (m_snapshot && (m_device < 0 || m_device >= m_snapshot->deviceCount))
        m_device = 0;
    if (!sameMesh) {
        m_selected.reset();
        resetTransform();
    }
    m_hover.reset();
    return !sameImage;
}

void MeshView::rebuildImage()
{
    m_range = m_snapshot ? meshLayerRange(*m_snapshot, m_layer) : 1.0;
    // Made when next needed (the paint, as a rule): a layer or wafer change followed by its new frame in the same
    // event (the Dataflow dock's, the tour's) then makes one image instead of two. Deferred, the picture before
    // stays meanwhile if it is of the same mesh (its size: one pixel per core); else the view is blank meanwhile
    // (a new scene: one or two frames).
    m_imageStale = true;
    m_imageDeferred = m_deferredImages && !m_difference && m_snapshot;
    if (!m_imageDeferred || m_image.size() != QSize(m_snapshot->meshCols, m_snapshot->meshRows)) {
        m_image = QImage();
        m_reduced = QImage();
        m_reducedScale = 0;
        m_preparedRaster = QImage();
    }
    updateLegendBand(); // the layer's legend may be wider or narrower
    update();
}

void MeshView::ensureImage() const
{
    if (!m_imageStale)
        return;
    if (m_imageDeferred) {
        wantImage();
        return;
    }
    m_imageStale = false;
    if (m_difference && m_snapshot && m_difference->meshCols == m_snapshot->meshCols &&
        m_difference->meshRows == m_snapshot->meshRows)
        m_image = DifferenceLayer::image(*m_difference, m_device);
    else
        m_image = m_meshFrame ? buildMeshImage(*m_meshFrame, m_device, m_layer, m_range) : QImage();
}

void MeshView::reduceLater()
{
    // Nothing to stretch meanwhile: made now, unless the image itself was on show a moment ago (paintMesh).
    if (m_reduced.isNull() && m_shownImageKey != m_image.cacheKey()) {
        reduceMesh(m_image, reducedMeshSize(m_image.size(), m_transform.scale), m_reduced);
        m_reducedScale = m_transform.scale;
        return;
    }
    if (!m_reduceTimer) {
        // A zero timer, not a queued call (QTimer::singleShot(0) is one): it fires once the events pending now
        // (the rest of a new layout, its paints) are done, so the loop is not held for all of them at once.
        m_reduceTimer = new QTimer(this);
        m_reduceTimer->setSingleShot(true);
        m_reduceTimer->setInterval(0);
        connect(m_reduceTimer, &QTimer::timeout, this, [this] {
            if (m_image.isNull() || !(m_transform.scale < 1) || m_reducedScale == m_transform.scale)
                return;
            reduceMesh(m_image, reducedMeshSize(m_image.size(), m_transform.scale), m_reduced);
            m_reducedScale = m_transform.scale;
            update();
        });
    }
    if (!m_reduceTimer->isActive())
        m_reduceTimer->start();
}

} // namespace ws::views
