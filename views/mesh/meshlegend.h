#pragma once
// The legend drawn in a corner of MeshView: the layer's name, its colour scale
// with ticks (sequential layers) or the matrix-kind swatches and layer hues
// (placement), and what the numbers are a share of. Painting only; MeshView
// decides where.

#include "engine/wafer/placement/meshsnapshot.h"

#include <QCoreApplication>
#include <QRectF>
#include <QSizeF>

#include <optional>

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

    // Every line at its full width; narrower than that (maxWidth > 0), the texts wrap to maxWidth, so the legend
    // fits a margin beside the mesh. The full width where a word would not fit maxWidth.
    QSizeF sizeHint(const QFont& font, double maxWidth = 0) const;
    // The narrowest width (in steps of 8 px from 80) the legend wraps to with every word whole; the full width
    // where none is narrower.
    double narrowestWidth(const QFont& font) const;
    // Drawn wrapped where `rect` is narrower than the full width.
    void paint(QPainter& painter, const QRectF& rect) const;
    // Where the legend goes in a view of `viewSize` when every corner would cover `mesh`: wrapped into the wider
    // margin beside it, at the bottom of the right one (as in a corner) or the top of the left one (clear of the
    // heads-up line at the bottom left); nullopt where neither holds it.
    std::optional<QRectF> besideMesh(const QFont& font, QSizeF viewSize, const QRectF& mesh) const;

private:
    QSizeF fullSize(const QFont& font) const;
    // The height of the legend wrapped to `innerWidth` (its width less the padding), laid out as paint lays it
    // out; -1 where a word is wider than the room it has.
    double wrappedHeight(const QFont& font, double innerWidth) const;
    void paintScale(QPainter& painter, const QRectF& rect, bool wrap) const;
    void paintPlacement(QPainter& painter, const QRectF& rect, bool wrap) const;
    void paintDefects(QPainter& painter, const QRectF& rect, bool wrap) const;
    QString caption() const;
    QString tickText(int i) const; // tick i of 0..4

    const MeshSnapshot* m_snapshot;
    MeshLayer m_layer;
    double m_range;
    double m_overlayTop;
};

} // namespace ws::views
