#pragma once
// Draws one frame of a recording: the heatmap (the app's MeshView, rendered
// offscreen) with a caption line and, optionally, a chat panel on the right
// with the prompt and the answer streamed so far. Runs on the GUI thread.

#include "engine/wafer/dataflow/schedule.h"
#include "engine/wafer/placement/meshsnapshot.h"
#include "views/mesh/meshview.h"

#include <QImage>
#include <QPointF>
#include <QSize>
#include <QString>

#include <memory>

namespace ws {

struct ChatFrameText
{
    QString prompt;
    QString answer;
    QString stats; // e.g. "12 / 32 tokens"
};

class FrameComposer
{
public:
    FrameComposer(QSize frameSize, bool withChat);

    QImage compose(std::shared_ptr<const MeshFrame> meshFrame, MeshLayer layer, int device, const QString& caption,
                   const ChatFrameText& chat = {});

    // The frame of `device` at `fraction` (0..1) of one token of `schedule`: what a recording shows.
    static std::shared_ptr<const MeshFrame> tokenFrame(std::shared_ptr<const MeshSnapshot> base,
                                                       const TokenSchedule& schedule, double fraction, int device);
    // Ids of the phases running at `fraction` of the token ("qkv_gemv", ...), for captions.
    static QString activePhases(const TokenSchedule& schedule, double fraction);

    // Zoom relative to fit and the core at the centre, as in Scenario (1 and (0, 0): fitted).
    void setViewState(double zoomFactor, QPointF centreCore);
    QSize frameSize() const { return m_size; }
    QRect meshRect() const;
    // Whether the heatmap is drawn a quarter turn (views::MeshView::setTurnToFit), once a frame has been composed.
    bool meshTurned() const { return m_view.transform().turned; }

private:
    void paintChat(class QPainter& painter, const QRect& area, const ChatFrameText& chat) const;

    QSize m_size;
    bool m_withChat;
    bool m_viewStatePending = false;
    double m_zoom = 1.0;
    QPointF m_centre;
    views::MeshView m_view;
};

} // namespace ws
