#pragma once
// Thin and translucent strokes and fills for the mesh's overlay, drawn in bands of rows on the calling thread
// rather than handed to Qt's raster thread pool.

#include <QColor>
#include <QRect>
#include <QRectF>

class QPainter;

namespace ws::views {

// Qt's raster engine hands a fill or a stroke that spans 96 rows or more to its thread pool (qdrawhelper's
// parallel fills). For the overlay's thin and translucent strokes the handing over costs far more than the
// pixels: a 1 px wide fill of 96 rows takes 21 us that way against 1 us for 95 rows, 800 rows 66 us, measured on
// a 2-core VM where the pool's threads wait for a core. These draw in bands of kBandRows rows, on this thread.
constexpr int kBandRows = 60; // a multiple of Qt::DashLine's period at 1 px (4 on, 2 off): dashes run on unbroken
void fillRectInBands(QPainter& p, const QRect& rect, const QColor& color);
// The current pen's line from (x, top) to (x, bottom), in bands; an aliased 1 px pen is meant (a die boundary).
void drawUprightLineInBands(QPainter& p, double x, double top, double bottom);
// A one-pixel outline of `rect` from filled rectangles, its sides in bands: the pixels a translucent aliased
// cosmetic pen's drawRect lights, without the stroker's spans of one pixel each (a 1,762 x 976 outline took 0.8 ms
// as a stroke, mostly handing spans to the pool, against 0.1 ms filled).
void outlineRectInBands(QPainter& p, const QRect& rect, const QColor& color);
// The pixels a translucent aliased cosmetic pen lights for drawRect(rect): each side at its coordinate's floor.
QRect strokedRectPixels(const QRectF& rect);

} // namespace ws::views
