#pragma once
// The pieces every placement is built from, shared by the placer (which
// chooses the rectangles) and placeLayout (which is given them, layout.h):
// the empty placement of a model on a wafer, one layer's region on a
// rectangle (its tensors at their group's precision, tiled, with its KV), and
// the token embedding and LM head sliced by vocabulary rows over chosen
// regions in proportion to their cores (the final norm goes with the last LM
// head slice).

#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/model/modelshape.h"
#include "engine/wafer/placement/placer.h"

#include <vector>

namespace ws {

class LayerFactory
{
public:
    LayerFactory(const ModelConfig& model, const WaferSpec& wafer, const PlacementOptions& options);

    int usableCols() const { return m_cols; }
    int usableRows() const { return m_rows; }
    const ModelShape& shape() const { return m_shape; }
    const PlacementOptions& options() const { return m_options; }
    const WaferSpec& wafer() const { return m_wafer; }
    GroupPrecisions precisions() const;
    const std::vector<RegionTensor>& layerTensors(int layer) const { return m_layerTensors[size_t(layer)]; }
    double layerBytes(int layer) const { return m_layerBytes[size_t(layer)]; }

    Placement skeleton() const;
    PlacedRegion layerRegion(int layer, int device, const CoreRect& rect) const;
    // Adds the tables: the untied token embedding over regions `entry`, the LM head (or the tied table) and the
    // final norm over regions `exit` (indices into p.regions, none empty). False when a region then needs more
    // SRAM than a core has.
    bool addTables(Placement& p, const std::vector<int>& entry, const std::vector<int>& exit) const;

private:
    ModelShape m_shape;
    WaferSpec m_wafer;
    PlacementOptions m_options;
    int m_cols = 0;
    int m_rows = 0;
    int m_kvBytes = 2;
    std::vector<std::vector<RegionTensor>> m_layerTensors;
    std::vector<double> m_layerBytes;
};

} // namespace ws
