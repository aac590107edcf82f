#pragma once
// MeshView draws one device (wafer) of a mesh frame as a heatmap: the frame's
// base snapshot, with the activity and hops of the moment on the Dataflow
// layer (setSnapshot shows a snapshot alone). Every core is one pixel of a
// cached image that is rebuilt (when next painted) only when what the layer
// shows, the layer or the device changes, and painted scaled. Wheel zooms around the cursor,
// dragging pans, double-click or fitToWindow() fits. Die outlines, region
// labels and the per-core grid appear only when the zoom gives them room.
// Hovering shows a tooltip; a click selects a core and emits coreClicked with
// its coordinates (the app looks up the details).

#include "engine/explore/layoutcompare.h"
#include "engine/wafer/placement/meshsnapshot.h"
#include "views/mesh/meshimage.h"
#include "views/mesh/meshoverlay.h"
#include "views/mesh/viewtransform.h"

#include <QImage>
#include <QPoint>
#include <QRect>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

class QTimer;

namespace ws::views {

class MeshView : public QWidget
{
    Q_OBJECT

public:
    explicit MeshView(QWidget* parent = nullptr);

    void setFrame(std::shared_ptr<const MeshFrame> frame);
    // A frame with its images already made (prepareMeshFrame, meshimage.h): shown as setFrame shows it, without
    // making them again while they still fit the view's device, layer and zoom (else as setFrame).
    void setPreparedFrame(const PreparedMeshFrame& prepared);
    std::shared_ptr<const MeshFrame> frame() const { return m_meshFrame; }
    // Deferred images (the main heatmap, whose owner has threads): a layer, wafer or frame change that needs a new
    // picture keeps the picture shown (if it is of the same mesh; else the view is blank) and emits imageWanted
    // once, instead of making the image in the next paint; the owner makes it off the GUI thread (prepareMeshFrame
    // for frame(), device(), layer() and transform()) and hands it to offerImage. Off by default: the image is
    // made in the next paint.
    void setDeferredImages(bool on);
    // Takes `prepared` if it is the picture the view waits for (its frame, device and layer); false otherwise.
    bool offerImage(const PreparedMeshFrame& prepared);
    // The picture shown is an older one (or none) while imageWanted's image is being made.
    bool imagePending() const { return m_imageStale && m_imageDeferred; }
    // Makes a pending image now, on this thread: an export or a screenshot shows what the view says.
    void finishImage() const;
    // A snapshot alone (a frame with no activity or hops).
    void setSnapshot(std::shared_ptr<const MeshSnapshot> snapshot);
    // The base of the shown frame.
    std::shared_ptr<const MeshSnapshot> snapshot() const { return m_snapshot; }
    void setLayer(MeshLayer layer);
    MeshLayer layer() const { return m_layer; }
    void setDevice(int device);
    int device() const { return m_device; }
    // Text shown when there is no snapshot (e.g. why placement failed).
    void setEmptyText(const QString& text);
    // Where the heads-up line (which wafer, mesh size, zoom) and the legend are drawn: the line shortens in a
    // narrow view and keeps clear of a legend beside it.
    struct HeadsUp
    {
        QString text;
        QRectF textRect;
        std::optional<QRectF> legendRect;
    };
    HeadsUp headsUp() const;
    // A warning across the top of the heatmap, over whatever it shows (a failed defect remap); empty: none.
    void setBanner(const QString& text);
    QString banner() const { return m_banner; }
    void setLegendVisible(bool visible);
    // The legend fades while the pointer is over it or near it, so the cores under it can be seen.
    bool legendFaded() const { return m_legendFaded; }
    // Difference mode (the compare dock): draws B - A per core (views/mesh/meshdifference.h) instead of the layer,
    // over this view's snapshot (B's); null returns to the layer.
    void setDifference(std::shared_ptr<const MeshDifference> difference);
    std::shared_ptr<const MeshDifference> difference() const { return m_difference; }

    // Brush mode (the Defects dock): a click or drag selects a rectangle of cores and emits brushed
    // instead of panning.
    void setBrushMode(bool on);
    bool brushMode() const { return m_brushMode; }
    // Arrows drawn on the Defects layer when the zoom gives room (null: none).
    void setDisplacement(std::shared_ptr<const CoreDisplacement> displacement);
    // Centres core (x, y) at the given zoom (scripted views, screenshots).
    void zoomToCore(QPointF core, double pixelsPerCore);

    // Layout editing marks (views/mesh/mesheditor.h): the selected region's outline and a dragged region's preview,
    // in fabric cores of the shown device.
    void setEditMarks(std::optional<QRect> selected, std::optional<QRect> preview);

    void setSelectedCore(std::optional<QPoint> core);
    std::optional<QPoint> selectedCore() const { return m_selected; }

    const ViewTransform& transform() const { return m_transform; }
    // Turn to fit (the presentation): a mesh that shows larger a quarter turn clockwise (a portrait wafer in a
    // landscape view) is drawn turned (ViewTransform::turned); tooltips, clicks and overlays still speak in cores.
    void setTurnToFit(bool on);
    bool turnsToFit() const { return m_turnToFit; }
    // Zoom relative to fit-to-window (1 = the whole device fits) and the core at the view centre.
    double zoomFactor() const;
    QPointF centreCore() const;
    // Restores a view saved with zoomFactor() and centreCore() (clamped as usual).
    void setViewState(double zoomFactor, QPointF centreCore);
    // The widget position of the centre of a core (for tests and scripted views).
    QPointF coreCentre(QPoint core) const;
    QString toolTipForCore(QPoint core) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

public slots:
    void zoomIn();
    void zoomOut();
    void fitToWindow();

signals:
    void coreClicked(int device, int x, int y);
    void coreHovered(int device, int x, int y); // x = y = -1 when the cursor leaves the mesh
    void zoomChanged(double pixelsPerCore);
    void turnedChanged(bool turned); // setTurnToFit turned the mesh, or put it upright again
    // The user zoomed or panned (wheel, drag, keys, double-click), as opposed to a programmatic change.
    void viewChangedByUser();
    void brushed(int device, QRect cores); // brush mode: the cores under a click or drag (inclusive)
    void imageWanted();                    // deferred images: make the image for the view's state now (offerImage)

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;

private:
    double overlayTop() const { return m_meshFrame ? m_meshFrame->overlayTop : 0.0; } // Links, Values: the scale's top
    void rebuildImage(); // the image is made again when next needed (ensureImage)
    void ensureImage() const;
    void adoptImages(const PreparedMeshFrame& prepared);
    void wantImage() const; // imageWanted, once, after the events of now
    // setFrame's bookkeeping; true when the image must be made again.
    bool adoptFrame(std::shared_ptr<const MeshFrame> frame);
    void resetTransform();
    // Whether turnToFit turns the mesh at the view's size: its fitting scale grows by a tenth or more.
    bool wantsTurn() const;
    // Keeps the legend's width free right of a mesh that leaves the room (ViewTransform::sideBandPx).
    void updateLegendBand();
    void paintMesh(QPainter& painter);
    void reduceLater(); // m_reduced for the current scale: now if nothing can stand in, else after this event
    void paintBanner(QPainter& painter) const;
    void setHover(std::optional<QPoint> core);
    void emitZoom();

    std::shared_ptr<const MeshFrame> m_meshFrame;
    std::shared_ptr<const MeshSnapshot> m_snapshot; // m_meshFrame's base
    MeshLayer m_layer = MeshLayer::SramOccupancy;
    int m_device = 0;
    mutable QImage m_image;            // one pixel per core of the current device and layer
    mutable bool m_imageStale = false; // m_image is to be made again (ensureImage)
    bool m_deferredImages = false;
    mutable bool m_imageDeferred = false; // stale, and m_image (with its copies) is the picture before, or null
    mutable bool m_wantQueued = false;    // imageWanted is on its way
    double m_range = 1.0;                 // value at the top of the colour scale (meshLayerRange)
    mutable QImage m_reduced;             // m_image smoothly reduced to m_reducedScale (when below 1 px per core)
    mutable double m_reducedScale = 0;
    QTimer* m_reduceTimer = nullptr; // reduces for the current scale once pending events are done (reduceLater)
    QImage m_frame;                  // the visible cores at the current zoom (at or above 1 px per core)
    mutable QImage m_preparedRaster; // the same, made with a prepared frame through m_rasterTransform
    ViewTransform m_rasterTransform;
    mutable QImage m_turned;        // m_image a quarter turn clockwise, for rasters through a turned transform
    mutable qint64 m_turnedKey = 0; // the cacheKey of the m_image it was made from
    qint64 m_shownImageKey = 0;     // the cacheKey of the m_image the last paint showed
    ViewTransform m_transform;
    QString m_emptyText;
    QString m_banner;
    bool m_legendVisible = true;
    // The legend's narrowest wrapped width for the layer and full width it was measured at (updateLegendBand runs
    // on every new frame; the measuring lays the texts out at up to 30 widths).
    struct NarrowLegend
    {
        MeshLayer layer = MeshLayer::SramOccupancy;
        double fullWidth = -1;
        double width = 0;
    };
    NarrowLegend m_narrowLegend;
    bool m_legendFaded = false;
    bool m_turnToFit = false;
    std::optional<QPoint> m_selected;
    std::optional<QPoint> m_hover;
    bool m_pressed = false;
    bool m_dragged = false;
    QPointF m_pressPos;
    QPointF m_lastPos;
    std::shared_ptr<const CoreDisplacement> m_displacement;
    std::shared_ptr<const MeshDifference> m_difference;
    bool m_brushMode = false;
    std::optional<QPoint> m_brushStart;
    std::optional<QRect> m_brushRect;
    std::optional<QRect> m_editSelected;
    std::optional<QRect> m_editPreview;
};

} // namespace ws::views
