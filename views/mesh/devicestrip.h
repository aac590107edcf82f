#pragma once
// DeviceStrip shows every device (wafer) of a snapshot as a small thumbnail of
// the current layer, with its SRAM use, so several wafers are visible at once;
// clicking one selects it (deviceSelected). Thumbnails are rebuilt only when
// the snapshot or the layer they draw changes, after the paint that follows. On the Dataflow layer, whose
// activity lives in the frame of the moment, and on the engine's Links and
// Values layers they show the weight placement (thumbnailLayer).
// Between two thumbnails a link label can say what crosses from one wafer to
// the next per token (setLinks; the app gives the texts and their sources).
// Made on the GUI thread, a wafer's thumbnail is 4-6 ms (its image at full
// size, averaged down); given a maker (setThumbnailMaker), a stale strip asks
// it for all of them at its next paint and adopts what it offers back for the
// same request (offerThumbnails), the old ones drawn meanwhile.

#include "engine/wafer/placement/meshsnapshot.h"

#include <QImage>
#include <QTimer>
#include <QWidget>

#include <functional>
#include <memory>
#include <vector>

namespace ws::views {

// Every wafer's thumbnail and mean SRAM use (-1: no data), as DeviceStrip draws them.
struct DeviceThumbnails
{
    std::vector<QImage> images;
    std::vector<double> usedFraction;
};

// What a strip asks its maker for: makeThumbnails(*snapshot, layer, size, turned), answered with `stamp`.
struct ThumbnailRequest
{
    std::shared_ptr<const MeshSnapshot> snapshot;
    MeshLayer layer = MeshLayer::SramOccupancy;
    QSize size;
    bool turned = false;
    quint64 stamp = 0;
};

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
    // The thumbnails of `layer` (thumbnailLayer's, in one colour range over all wafers) at `size`, a quarter turn
    // clockwise when `turned`: pure, any thread.
    static DeviceThumbnails makeThumbnails(const MeshSnapshot& snapshot, MeshLayer layer, QSize size, bool turned);
    // Thumbnails made elsewhere (the app: off the GUI thread). Null: the strip makes them itself.
    void setThumbnailMaker(std::function<void(ThumbnailRequest)> maker) { m_maker = std::move(maker); }
    // The maker's answer: adopted when `stamp` is the strip's latest request, else dropped (something changed).
    void offerThumbnails(quint64 stamp, DeviceThumbnails thumbnails);

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
    std::function<void(ThumbnailRequest)> m_maker;
    quint64 m_stamp = 0;      // the thumbnails' request: a new one at each rebuild
    bool m_requested = false; // the maker was asked for m_stamp's
    QStringList m_links, m_linkTips;
    QRect linkRect(int device) const; // between thumbnails device and device + 1
};

} // namespace ws::views
