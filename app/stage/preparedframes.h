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

namespace ws {

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
    // The last frame put on stage, and the one before it: the view has let go of that one's images when it took
    // the last, so the next frame is made in them (prepareMeshFrame's recycled) rather than in new pages.
    views::PreparedMeshFrame m_shown;
    views::PreparedMeshFrame m_spare;
    JobTracker m_jobs{this};
};

} // namespace ws
