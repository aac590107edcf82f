#pragma once
// A stream of frames for the main heatmap whose images are made off the GUI
// thread (views::prepareMeshFrame, for the wafer, layer and zoom the view has
// when the frame arrives), one at a time: a frame that arrives while one is
// being made waits, and a newer one replaces it, so a busy machine shows
// fewer frames instead of falling behind. A made frame goes on stage only if
// nothing else was put in the view meanwhile (the chat's wafer, a new scene,
// the Defects dock's snapshot); the next frame of the stream follows anyway.
// The Dataflow dock sends its frames here while they move (playing, a tour);
// a seek or a step is shown at once (cancel, then Stage::showFrame).

#include "app/common/jobtracker.h"
#include "app/stage/stage.h"
#include "views/mesh/meshimage.h"

#include <QObject>

#include <memory>
#include <utility>

namespace ws {

// The images a stream of prepared frames can be made in again: those of the frame put on stage last and of the one
// before it. The view let go of that one's images when it took the last, so the next frame is made in them
// (views::prepareMeshFrame's recycled) rather than in new pages (the app maps every large buffer afresh). Only the
// images are kept, not the frames: a frame held here would not go back to its source's pool (reusableFrame).
class RecycledImages
{
public:
    // A frame was put on stage.
    void shown(const views::PreparedMeshFrame& made)
    {
        m_spare = std::exchange(m_shown, Images{made.image, made.reduced, made.raster, made.turned});
    }
    // The images only the stream holds now, for the next job; on the thread that shows the frames.
    views::PreparedMeshFrame take()
    {
        views::PreparedMeshFrame out;
        if (m_spare.image.isDetached())
            out.image = std::move(m_spare.image);
        if (m_spare.reduced.isDetached())
            out.reduced = std::move(m_spare.reduced);
        if (m_spare.raster.isDetached())
            out.raster = std::move(m_spare.raster);
        if (m_spare.turned.isDetached())
            out.turned = std::move(m_spare.turned);
        m_spare = {};
        return out;
    }

private:
    struct Images
    {
        QImage image;
        QImage reduced;
        QImage raster;
        QImage turned;
    };
    Images m_shown;
    Images m_spare;
};

class PreparedFrames : public QObject
{
    Q_OBJECT

public:
    PreparedFrames(Stage* stage, Stage::FrameSource source, QObject* parent = nullptr);

    void submit(std::shared_ptr<const MeshFrame> frame);
    // Drops the waiting frame and the one being made.
    void cancel();
    bool isBusy() const { return m_busy; }

signals:
    // A frame put on stage.
    void shown(std::shared_ptr<const MeshFrame> frame);

private:
    void makeNext();

    Stage* m_stage = nullptr;
    Stage::FrameSource m_source = Stage::FrameSource::None;
    std::shared_ptr<const MeshFrame> m_waiting;
    bool m_busy = false;
    RecycledImages m_recycled;
    JobTracker m_jobs{this};
};

} // namespace ws
