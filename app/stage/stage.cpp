#include "app/stage/stage.h"

#include "views/mesh/mesheditor.h"
#include "views/mesh/meshimage.h"
#include "views/mesh/meshview.h"

namespace ws {

Stage::Stage(QWidget* viewParent, QObject* parent) : QObject(parent)
{
    m_view = new views::MeshView(viewParent);
    m_editor = new views::MeshEditor(m_view);
    m_view->setDeferredImages(true);
    connect(m_view, &views::MeshView::imageWanted, this, [this] {
        m_imageJobs.start(
            [frame = m_view->frame(), device = m_view->device(), layer = m_view->layer(),
             transform = m_view->transform()] { return views::prepareMeshFrame(frame, device, layer, transform); },
            [this](const views::PreparedMeshFrame& made) { m_view->offerImage(made); });
    });
}

QWidget* Stage::widget() const
{
    return m_view;
}

MeshLayer Stage::layer() const
{
    return m_view->layer();
}

int Stage::device() const
{
    return m_view->device();
}

void Stage::showResult(std::shared_ptr<const PlacementResult> result, int device)
{
    m_result = std::move(result);
    m_error.clear();
    m_view->setSnapshot(m_result ? m_result->snapshot : nullptr);
    setSource(FrameSource::None);
    if (m_result && m_result->snapshot && device >= 0 && device < m_result->snapshot->deviceCount)
        m_view->setDevice(device);
    emit resultChanged(m_result);
}

void Stage::showError(const QString& message)
{
    m_error = message;
    m_result.reset();
    m_view->setSnapshot(nullptr);
    m_view->setEmptyText(tr("No placement for this choice:\n%1").arg(message));
    setSource(FrameSource::None);
    emit resultChanged(nullptr);
}

void Stage::showBanner(const QString& text)
{
    m_view->setBanner(text);
}

void Stage::showBusy(const QString& text)
{
    m_error.clear(); // a placement runs: an older choice's error no longer holds
    m_view->setEmptyText(text);
}

void Stage::showDefects(std::shared_ptr<const MeshSnapshot> snapshot,
                        std::shared_ptr<const views::CoreDisplacement> displacement)
{
    if (snapshot && m_view->snapshot() != snapshot)
        m_view->setSnapshot(std::move(snapshot));
    m_view->setDisplacement(std::move(displacement));
}

void Stage::showFrame(FrameSource source, std::shared_ptr<const MeshFrame> frame)
{
    setSource(source);
    m_view->setFrame(std::move(frame));
}

void Stage::showPreparedFrame(FrameSource source, const views::PreparedMeshFrame& prepared)
{
    setSource(source);
    m_view->setPreparedFrame(prepared);
}

void Stage::setLayer(MeshLayer layer)
{
    m_view->setLayer(layer);
    emit layerChanged(layer);
}

void Stage::setDevice(int device)
{
    const auto& snapshot = m_view->snapshot();
    if (!snapshot || device < 0 || device >= snapshot->deviceCount)
        return;
    m_view->setDevice(device);
    emit deviceChanged(device);
}

void Stage::setViewState(double zoomFactor, QPointF centreCore)
{
    m_view->setViewState(zoomFactor, centreCore);
}

void Stage::setTurnToFit(bool on)
{
    m_view->setTurnToFit(on);
}

bool Stage::turnsToFit() const
{
    return m_view->turnsToFit();
}

void Stage::setBrushMode(bool on)
{
    m_view->setBrushMode(on);
}

void Stage::zoomIn()
{
    m_view->zoomIn();
}

void Stage::zoomOut()
{
    m_view->zoomOut();
}

void Stage::fitToWindow()
{
    m_view->fitToWindow();
}

void Stage::setSource(FrameSource source)
{
    if (source == m_source)
        return;
    m_source = source;
    emit frameSourceChanged(source);
}

} // namespace ws
