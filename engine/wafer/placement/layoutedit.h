#pragma once
// Hand edits of a layout (layout.h). Each edit is a pure function from a
// layout to a new one, or a refusal with one line (out of the mesh, overlap
// with another layer's region, a tensor-parallel layout, a layer that does
// not exist); the input is never changed, so undo is keeping the previous
// value. Sizes and positions are whole cores: an edge moved by the pointer
// snaps to the core it lands on before it gets here.
//
// applyLayout places an edited layout and checks conservation (each weight
// element on exactly one core) after every edit; cores over their SRAM are
// not refused but flagged, per region, for the view to colour.

#include "engine/core/error.h"
#include "engine/wafer/placement/layout.h"

#include <memory>
#include <vector>

namespace ws {

enum class RegionEdge
{
    Left,
    Right,
    Top,
    Bottom
};
enum class LayoutTable
{
    Embedding,
    LmHead
};

// Layer `layer`'s region to `device` with its top-left core at usable (x, y), size kept.
Expected<Layout> moveRegion(const Layout& layout, int layer, int device, int x, int y);
// One edge of layer `layer`'s region moved by `deltaCores` along its axis (positive: right or down).
Expected<Layout> resizeRegion(const Layout& layout, int layer, RegionEdge edge, int deltaCores);
// Layers a and b exchange regions (device and rectangle); the tables stay on the regions they were on.
Expected<Layout> swapLayers(const Layout& layout, int a, int b);
// The embedding or the LM head (with the final norm) sliced over the regions of `layers` instead.
Expected<Layout> moveTable(const Layout& layout, LayoutTable table, const std::vector<int>& layers);

struct PlacedLayout
{
    Layout layout;
    std::shared_ptr<const Placement> placement;
    std::vector<RegionOverflow> overCapacity; // empty when every core fits its SRAM
};

// placeLayout, then conservation: an error when the layout is refused or an element is lost or doubled.
Expected<PlacedLayout> applyLayout(const ModelConfig& model, const HardwareSpec& hardware, const Layout& layout);

} // namespace ws
