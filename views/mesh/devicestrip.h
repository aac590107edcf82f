#pragma once
// DeviceStrip shows every device (wafer) of a snapshot as a small thumbnail of
// the current layer, with its SRAM use, so several wafers are visible at once;
// clicking one selects it (deviceSelected). Thumbnails are rebuilt only when
// the snapshot or the layer they draw changes, after the paint that follows. On the Dataflow layer, whose
// activity lives in the frame of the moment, and on the engine's Links and
// Values layers they show the weight placement (thumbnailLayer).
// Between two thumbnails a link label can say what crosses from one wafer to
// the next per token (setLinks; the app gives the texts and their sources).

#include "engine/wafer/placement/meshsnapshot.h"

#include <QImage>
#include <QTimer>
#include <QWidget>

#include <memory>
#include <vector>

namespace ws::views {

class DeviceStrip : public QWidget
{
    Q_OBJECT

public:
    explicit DeviceStrip(QWidget* parent = nullptr);

    void setSnapshot(std::shared_ptr<const MeshSnapshot> snapshot);
    void setLayer(MeshLayer layer);
    void setCurrentDevice(int device);
    // Thumbnails a quarter turn clockwise, as the main view draws a turned mesh (MeshView::turnedChanged).
    void setTurned(bool turned);
    bool turned() const { return m_turned; }
    // texts[d]: the link from wafer d to d + 1 (up to two lines; empty: none), each with its tooltip.
    void setLinks(const QStringList& texts, const QStringList& toolTips);
    QString linkText(int device) const { return device >= 0 && device < m_links.size() ? m_links[device] : QString(); }
    int currentDevice() const { return m_current; }
    int deviceAt(QPoint pos) const;
    // The layer a thumbnail draws when the main view shows `layer`.
    static MeshLayer thumbnailLayer(MeshLayer layer);
    // Device `device`'s thumbnail for the snapshot and layer now set (null when there is none); made now if the
    // strip has not made it yet.
    QImage thumbnail(int device) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void deviceSelected(int device);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;

private:
    void rebuild();         // the thumbnails are stale: made after the next paint, or by thumbnail()
    bool complete() const;  // every wafer's thumbnail is the snapshot's and layer's now set
    void buildThumbnails(); // those not made yet, now
    void makeThumbnail(int device);
    int deviceCount() const; // the snapshot's
    QRect itemRect(int device) const;
    QSize thumbSize() const;

    std::shared_ptr<const MeshSnapshot> m_snapshot;
    MeshLayer m_layer = MeshLayer::SramOccupancy;
    int m_current = 0;
    bool m_turned = false;
    int m_built = 0;     // wafers whose thumbnail is made for the snapshot and layer now set
    double m_range = 1;  // the thumbnails' colour range (meshLayerRange), set with wafer 0
    QTimer m_buildTimer; // zero interval: makes the next wafer's thumbnail after a paint
    std::vector<QImage> m_thumbs;
    std::vector<double> m_usedFraction; // mean SRAM fraction per device
    QStringList m_links, m_linkTips;
    QRect linkRect(int device) const; // between thumbnails device and device + 1
};

} // namespace ws::views
