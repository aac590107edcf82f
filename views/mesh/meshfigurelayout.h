#pragma once
// Where a mesh figure puts things (views/mesh/meshfigure.h): on a page of a
// chosen size in millimetres, in page units of 1/96 inch (CSS pixels) so that
// the figure is the same picture at every DPI. The title runs along the top
// and the source line along the bottom (both wrapped, never cut); between
// them the wafers stand side by side (or in the grid of rows and columns
// that draws them largest) at one scale, each with its caption under it, and
// the legend stands in its own column to their right, or under them when
// that leaves the wafers larger, so it never covers a core. Text sizes are in
// points and grow with the page: a slide's text is larger than a paper
// column's.

#include "engine/wafer/placement/meshsnapshot.h"

#include <QFont>
#include <QRectF>
#include <QSize>
#include <QSizeF>
#include <QString>

#include <vector>

namespace ws::views {

struct MeshFigureOptions
{
    static constexpr double kUnitsPerInch = 96; // page units (CSS pixels, as SVG viewers size them)
    static constexpr double kMmPerInch = 25.4;
    static constexpr double kMinDpi = 72;
    static constexpr double kMaxDpi = 1200;
    static constexpr double kMinMm = 40;
    static constexpr double kMaxMm = 1200;

    QSizeF sizeMm{338.7, 190.5}; // a 16:9 slide (13.33 × 7.5 in, the presentation programs' default)
    double dpi = 300;            // device pixels per inch of the PNG; for the SVG, the resolution its cores need
    int device = -1;             // -1: every wafer; else that wafer alone
    MeshLayer layer = MeshLayer::SramOccupancy;
    QString title;
    QString source;

    QSizeF pageUnits() const;
    QSize pixelSize() const; // the PNG's size
    double pixelsPerUnit() const { return dpi / kUnitsPerInch; }
    // The body text size in points: width / 24 mm, from 7 pt (a paper column) to 20 pt (a poster).
    double bodyPoints() const;
    QFont bodyFont() const;
    QFont titleFont() const;
    QFont sourceFont() const;
    bool operator==(const MeshFigureOptions&) const = default;
};

struct MeshFigureLayout
{
    QSizeF page; // in page units
    QRectF title;
    QRectF source;
    QRectF legend;
    std::vector<int> devices;     // the wafers drawn, in order
    std::vector<QRectF> wafers;   // each wafer's cores
    std::vector<QRectF> captions; // under each wafer
    double unitsPerCore = 0;      // page units per core (the same on every wafer)
    bool legendBelow = false;     // the legend under the wafers rather than beside them
};

// The layout of `snapshot`'s wafers on the page, with a legend of `legendSize` (page units); `widestCaption` is the
// longest wafer caption: wider than its wafer, it wraps, and the captions take as many lines as it needs.
MeshFigureLayout layoutMeshFigure(const MeshSnapshot& snapshot, const MeshFigureOptions& options, QSizeF legendSize,
                                  const QString& widestCaption = {});

} // namespace ws::views
