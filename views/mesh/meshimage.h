#pragma once
// Builds the heatmap image of one device of a mesh snapshot: one pixel per
// core (meshCols x meshRows), coloured by the chosen layer; a frame's
// Dataflow layer comes from its activity overlay, every other layer from its
// base snapshot. MeshView paints
// this image scaled; it is rebuilt only when the snapshot, layer or device
// changes. Per-core arrays that are missing or of the wrong length (bad input)
// give "no data" pixels rather than a crash.

#include "engine/wafer/placement/meshsnapshot.h"
#include "views/mesh/viewtransform.h"

#include <QImage>
#include <QString>

#include <memory>

namespace ws::views {

// `range` is the value drawn at the top of the colour scale (see meshLayerRange).
QImage buildMeshImage(const MeshFrame& frame, int device, MeshLayer layer, double range = 1.0);
// A snapshot alone has no activity overlay: its Dataflow layer is drawn as "no data".
QImage buildMeshImage(const MeshSnapshot& snapshot, int device, MeshLayer layer, double range = 1.0);
// The warning colour of cores over their SRAM (MeshSnapshot::overflowBytes) on the SRAM and placement layers.
QRgb overCapacityColor();

// The top of a layer's colour scale, as a fraction of core SRAM. SRAM occupancy
// always spans 0..100 % (capacity is the point); the KV cache spans 0 to its
// largest value over all devices, rounded up to 1, 2, 2.5 or 5 x 10^k, so a
// small cache is still visible and the legend says exactly what the top means.
double meshLayerRange(const MeshSnapshot& snapshot, MeshLayer layer);

// What MeshView draws for one frame on one device and layer through the view's transform: the image (one pixel per
// core), the colour scale's top and, below a pixel per core, the area-averaged copy at that scale, at a pixel per
// core or more the visible cores drawn at that zoom (rasterizeMesh). Made by
// prepareMeshFrame, a pure function that any thread may call, so an animation can make its images off the GUI
// thread and hand them to MeshView::setPreparedFrame.
struct PreparedMeshFrame
{
    std::shared_ptr<const MeshFrame> frame;
    int device = 0;
    MeshLayer layer = MeshLayer::SramOccupancy;
    double range = 1.0;
    QImage image;
    double reducedScale = 0; // 0: no reduced copy
    QImage reduced;
    // At a pixel per core or more: the visible cores drawn through rasterTransform with their grid, the pixels
    // MeshView::paintMesh draws there, so a paint with the view still at that transform only copies them.
    ViewTransform rasterTransform;
    QImage raster;
    // With a turned transform at a pixel per core or more: the image a quarter turn clockwise (turnMesh), which the
    // raster is read from, and the view's own rasters at another zoom after it.
    QImage turned;
};
// `recycled`: a prepared frame nobody else shows any more (its images held by it alone), whose pixels are written
// again instead of new ones mapped and faulted in (the app maps every large buffer afresh: app/common/allocator.h);
// an image someone else still holds is left to them.
PreparedMeshFrame prepareMeshFrame(std::shared_ptr<const MeshFrame> frame, int device, MeshLayer layer,
                                   const ViewTransform& transform, PreparedMeshFrame recycled = {});
// The colour around the mesh and between dies.
QRgb meshBackground();
// The size of the area-averaged copy (reduceMesh) of a `size` image at `scale` (< 1) px per core.
QSize reducedMeshSize(QSize size, double scale);

// True when the snapshot's size fields and per-device arrays agree for `device`.
bool hasCoreData(const MeshSnapshot& snapshot, int device);

// Translated display name and short description of a layer.
QString meshLayerName(MeshLayer layer);
QString meshLayerDescription(MeshLayer layer);

// Human-readable byte count ("39.9 KiB", "44.0 GB"), translated units.
QString formatBytes(double bytes);

} // namespace ws::views
