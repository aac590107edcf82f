// MeshView's image: the frame on show and the picture made from it, one pixel
// per core of the device and layer shown (views/mesh/meshimage.h), made when
// next needed rather than at every change, or handed in made
// (setPreparedFrame), and its copy reduced to the view's scale below a pixel
// per core (reduceLater). Drawing and the view state are in meshview.cpp.
#include "views/mesh/meshview.h"

#include "views/mesh/meshdifference.h"
#include "views/mesh/meshimage.h"

#include <QTimer>

namespace ws::views {

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
    const bool rebuild = adoptFrame(prepared.frame);
    if (!rebuild) {
        update();
        return;
    }
    if (!m_meshFrame || prepared.device != m_device || prepared.layer != m_layer || prepared.image.isNull()) {
        rebuildImage();
        return;
    }
    m_range = prepared.range;
    m_image = prepared.image;
    m_imageStale = false;
    // Made for another scale (the view resized while it was made): stretched until it is made again (paintMesh).
    m_reduced = prepared.reducedScale > 0 ? prepared.reduced : QImage();
    m_reducedScale = prepared.reducedScale > 0 ? prepared.reducedScale : 0;
    m_preparedRaster = prepared.raster;
    m_rasterTransform = prepared.rasterTransform;
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
    // event (the Dataflow dock's, the tour's) then makes one image instead of two.
    m_image = QImage();
    m_imageStale = true;
    m_reduced = QImage();
    m_reducedScale = 0;
    m_preparedRaster = QImage();
    updateLegendBand(); // the layer's legend may be wider or narrower
    update();
}

void MeshView::ensureImage() const
{
    if (!m_imageStale)
        return;
    m_imageStale = false;
    if (m_difference && m_snapshot && m_difference->meshCols == m_snapshot->meshCols &&
        m_difference->meshRows == m_snapshot->meshRows)
        m_image = DifferenceLayer::image(*m_difference, m_device);
    else
        m_image = m_meshFrame ? buildMeshImage(*m_meshFrame, m_device, m_layer, m_range) : QImage();
}

void MeshView::reduceLater()
{
    if (m_reduced.isNull()) { // nothing to stretch meanwhile
        m_reduced = reducedMeshImage(m_image, m_transform.scale);
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
            m_reduced = reducedMeshImage(m_image, m_transform.scale);
            m_reducedScale = m_transform.scale;
            update();
        });
    }
    if (!m_reduceTimer->isActive())
        m_reduceTimer->start();
}

} // namespace ws::views
