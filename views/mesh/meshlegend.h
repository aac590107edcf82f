#pragma once
// The legend drawn in a corner of MeshView: the layer's name, its colour scale
// with ticks (sequential layers) or the matrix-kind swatches and layer hues
// (placement), and what the numbers are a share of. Painting only; MeshView
// decides where.

#include "engine/wafer/placement/meshsnapshot.h"

#include <QCoreApplication>
#include <QRectF>
#include <QSizeF>

class QPainter;

namespace ws::views {

class MeshLegend
{
    Q_DECLARE_TR_FUNCTIONS(ws::views::MeshLegend)

public:
    // `range`: the value at the top of the colour scale (meshLayerRange). `overlayTop`: the Links and Values
    // layers' top in words or in the value's unit (MeshFrame::overlayTop); the ticks then say those.
    MeshLegend(const MeshSnapshot* snapshot, MeshLayer layer, double range = 1.0, double overlayTop = 0)
        : m_snapshot(snapshot), m_layer(layer), m_range(range), m_overlayTop(overlayTop)
    {
    }

    QSizeF sizeHint(const QFont& font) const;
    void paint(QPainter& painter, const QRectF& rect) const;

private:
    void paintScale(QPainter& painter, const QRectF& rect) const;
    void paintPlacement(QPainter& painter, const QRectF& rect) const;
    void paintDefects(QPainter& painter, const QRectF& rect) const;
    QString caption() const;
    QString tickText(int i) const; // tick i of 0..4

    const MeshSnapshot* m_snapshot;
    MeshLayer m_layer;
    double m_range;
    double m_overlayTop;
};

} // namespace ws::views
