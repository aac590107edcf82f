#pragma once
// The difference layer of the compare dock: a MeshDifference (B - A per core,
// engine/explore/layoutcompare.h) drawn as an image of one pixel per core on a
// diverging scale (blue: B lower, grey: equal, red: B higher) symmetric about
// zero and spanning the largest |difference|, its legend, and the text a
// core's tooltip gives. MeshView draws it in place of a layer when given one.

#include "engine/explore/layoutcompare.h"

#include <QCoreApplication>
#include <QImage>
#include <QRectF>
#include <QSizeF>
#include <QString>

class QFont;
class QPainter;

namespace ws::views {

class DifferenceLayer
{
    Q_DECLARE_TR_FUNCTIONS(ws::views::DifferenceLayer)

public:
    static QImage image(const MeshDifference& difference, int device);
    static QRgb color(double value, double largest);
    // "SRAM B − A: +1.2 KiB" or "Region time B − A: −0.0031 ms per token".
    static QString valueText(const MeshDifference& difference, double value);
    static QString name(MeshDifference::Kind kind);
    static QSizeF legendSize(const QFont& font);
    static void paintLegend(QPainter& painter, const QRectF& rect, const MeshDifference& difference);
};

} // namespace ws::views
