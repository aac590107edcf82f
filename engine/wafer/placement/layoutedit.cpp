#include "engine/wafer/placement/layoutedit.h"

#include <utility>

namespace ws {

namespace {
Error refused(const std::string& why)
{
    return makeError(ErrorCode::InvalidArgument, why, "layout");
}

// Common checks of an edit of layer `layer`; empty when it may go ahead.
std::string editable(const Layout& l, int layer)
{
    if (l.strategy == PlacementStrategy::TensorParallel)
        return "a tensor-parallel layout spreads every layer over the whole mesh: nothing to move";
    if (layer < 0 || layer >= int(l.layers.size()))
        return "the layout has no layer " + std::to_string(layer);
    return {};
}

Expected<Layout> checked(Layout edited)
{
    if (std::string why = layoutGeometryError(edited); !why.empty())
        return refused(why);
    edited.origin = "edit";
    return edited;
}
} // namespace

Expected<Layout> moveRegion(const Layout& l, int layer, int device, int x, int y)
{
    if (std::string why = editable(l, layer); !why.empty())
        return refused(why);
    Layout out = l;
    LayoutRegion& r = out.layers[size_t(layer)];
    r.device = device;
    r.rect.x = x;
    r.rect.y = y;
    return checked(std::move(out));
}

Expected<Layout> resizeRegion(const Layout& l, int layer, RegionEdge edge, int delta)
{
    if (std::string why = editable(l, layer); !why.empty())
        return refused(why);
    Layout out = l;
    CoreRect& r = out.layers[size_t(layer)].rect;
    switch (edge) {
    case RegionEdge::Left:
        r.x += delta;
        r.width -= delta;
        break;
    case RegionEdge::Right:
        r.width += delta;
        break;
    case RegionEdge::Top:
        r.y += delta;
        r.height -= delta;
        break;
    case RegionEdge::Bottom:
        r.height += delta;
        break;
    }
    if (r.width < 1 || r.height < 1)
        return refused("layer " + std::to_string(layer) + "'s region would have no cores");
    return checked(std::move(out));
}

Expected<Layout> swapLayers(const Layout& l, int a, int b)
{
    for (int layer : {a, b})
        if (std::string why = editable(l, layer); !why.empty())
            return refused(why);
    if (a == b)
        return refused("a layer cannot swap with itself");
    Layout out = l;
    std::swap(out.layers[size_t(a)], out.layers[size_t(b)]);
    // The tables stay on the cores they were on: they follow the region, not the layer.
    for (std::vector<int>* list : {&out.embeddingLayers, &out.headLayers})
        for (int& x : *list)
            x = x == a ? b : x == b ? a : x;
    return checked(std::move(out));
}

Expected<Layout> moveTable(const Layout& l, LayoutTable table, const std::vector<int>& layers)
{
    if (l.strategy == PlacementStrategy::TensorParallel)
        return refused("a tensor-parallel layout keeps the tables on the whole mesh");
    if (layers.empty())
        return refused("a table needs at least one layer region");
    Layout out = l;
    std::vector<int>& list = table == LayoutTable::Embedding ? out.embeddingLayers : out.headLayers;
    if (table == LayoutTable::Embedding && list.empty())
        return refused("the model ties its embedding to the LM head: move the LM head");
    list = layers;
    return checked(std::move(out));
}

Expected<PlacedLayout> applyLayout(const ModelConfig& model, const HardwareSpec& hardware, const Layout& layout)
{
    auto placed = placeLayout(model, hardware, layout);
    if (!placed)
        return placed.error();
    if (std::string why = conservationError(*placed, model); !why.empty())
        return makeError(ErrorCode::OutOfRange, "conservation broken: " + why, "layout");
    PlacedLayout out;
    out.layout = layout;
    out.overCapacity = overCapacity(*placed);
    out.placement = std::make_shared<const Placement>(std::move(*placed));
    return out;
}

} // namespace ws
