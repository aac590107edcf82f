#pragma once
// The stage: the one owner of what the main heatmap shows. It holds the
// placement on show (the scene), the layer and wafer shown, the remapped
// snapshot the Defects dock lays over it and the source whose Dataflow frames
// play (the Dataflow dock's playback or the chat's live wafer), and it alone
// writes the main MeshView: it creates the view, and everyone else gets it
// const. The inspector, the Defects, Dataflow and Layout docks, the chat's
// wafer, the device strip and the presentation subscribe to its signals, as
// Hotspot's pages subscribe to FilterAndZoomStack; tests/layering checks that
// no other app file holds the view for writing. The view's images after a
// layer, wafer or scene change are made off the GUI thread (deferred images,
// views::MeshView::imageWanted), so a step of a tour does not hold the paint.

#include "app/common/jobtracker.h"
#include "app/common/placementresult.h"

#include <QObject>
#include <QPointF>

#include <memory>

class QWidget;

namespace ws {

namespace views {
class MeshEditor;
class MeshView;
struct CoreDisplacement;
struct PreparedMeshFrame;
} // namespace views

class Stage : public QObject
{
    Q_OBJECT

public:
    // Who plays frames on the Dataflow and KV layers.
    enum class FrameSource
    {
        None,
        Dataflow, // the Dataflow dock's playback of one token
        Chat,     // the chat's live wafer, following the answer
    };

    // Creates the main heatmap as a child of viewParent.
    explicit Stage(QWidget* viewParent, QObject* parent = nullptr);

    // The heatmap to read (layer, device, transform, frame) and to connect to; only the stage draws on it.
    const views::MeshView* view() const { return m_view; }
    // The heatmap as a widget: to lay out, grab, export or send input to.
    QWidget* widget() const;
    // The hand-edit overlay on the heatmap (the Layout dock's editor).
    views::MeshEditor* editor() const { return m_editor; }

    std::shared_ptr<const PlacementResult> result() const { return m_result; }
    QString error() const { return m_error; }
    MeshLayer layer() const;
    int device() const;
    FrameSource frameSource() const { return m_source; }

    // A new scene on show (device: the wafer to show with it, -1 the current one); resultChanged follows.
    void showResult(std::shared_ptr<const PlacementResult> result, int device = -1);
    // No scene: the heatmap says why; resultChanged(nullptr) follows.
    void showError(const QString& message);
    // The text the empty heatmap shows while a placement runs; clears the error of an earlier choice.
    void showBusy(const QString& text);
    // The Defects dock's remap of the scene: its snapshot (null: keep the shown one) and the arrows.
    void showDefects(std::shared_ptr<const MeshSnapshot> snapshot,
                     std::shared_ptr<const views::CoreDisplacement> displacement);
    // A warning across the top of the heatmap (views::MeshView::setBanner); empty removes it.
    void showBanner(const QString& text);
    void showFrame(FrameSource source, std::shared_ptr<const MeshFrame> frame);
    void showPreparedFrame(FrameSource source, const views::PreparedMeshFrame& prepared);

    void setLayer(MeshLayer layer);
    void setDevice(int device);
    void setViewState(double zoomFactor, QPointF centreCore);
    // Wafer and Present modes turn a portrait wafer in a landscape room (views::MeshView::setTurnToFit).
    void setTurnToFit(bool on);
    bool turnsToFit() const;
    void setBrushMode(bool on);
    void zoomIn();
    void zoomOut();
    void fitToWindow();

signals:
    void resultChanged(std::shared_ptr<const PlacementResult> result); // null after an error
    void layerChanged(MeshLayer layer);
    void deviceChanged(int device);
    void frameSourceChanged(FrameSource source);

private:
    void setSource(FrameSource source);

    views::MeshView* m_view = nullptr;
    views::MeshEditor* m_editor = nullptr;
    std::shared_ptr<const PlacementResult> m_result;
    QString m_error;
    FrameSource m_source = FrameSource::None;
    JobTracker m_imageJobs{this}; // the view's images after a layer, wafer or scene change (imageWanted)
};

} // namespace ws
