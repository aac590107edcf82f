#include "app/stage/preparedframes.h"

#include "views/mesh/meshimage.h"
#include "views/mesh/meshview.h"

namespace ws {

PreparedFrames::PreparedFrames(Stage* stage, Stage::FrameSource source, QObject* parent)
    : QObject(parent), m_stage(stage), m_source(source)
{
}

void PreparedFrames::submit(std::shared_ptr<const MeshFrame> frame)
{
    m_waiting = std::move(frame);
    if (!m_busy)
        makeNext();
}

void PreparedFrames::cancel()
{
    m_waiting.reset();
    m_jobs.cancel();
    m_busy = false;
}

void PreparedFrames::makeNext()
{
    if (!m_waiting)
        return;
    const views::MeshView* view = m_stage->view();
    m_busy = true;
    m_jobs.start(
        [frame = std::exchange(m_waiting, nullptr), device = view->device(), layer = view->layer(),
         transform = view->transform(), spare = m_recycled.take()]() mutable {
            return views::prepareMeshFrame(frame, device, layer, transform, std::move(spare));
        },
        [this, before = view->frame()](const views::PreparedMeshFrame& made) {
            m_busy = false;
            if (made.frame && m_stage->view()->frame() == before) {
                m_stage->showPreparedFrame(m_source, made);
                m_recycled.shown(made);
                emit shown(made.frame);
            }
            makeNext();
        },
        [](const views::PreparedMeshFrame&) {}); // cancelled: cancel() or a newer job took over
}

} // namespace ws
