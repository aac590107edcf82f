#pragma once
// A model placed on one or more wafers: which cores hold which part of which
// weight matrix, the KV cache and the buffers, and how many bytes that is.
//
// Storage is region-level and closed-form, never per core: a region is a
// rectangle of the usable mesh that holds some tensors, each 2-D tiled over it
// (the input dimension, in storage blocks, along one axis and the outputs along
// the other, alternating per matrix as in WaferLLM's decode layout, WaferLLM
// §4.2 [WaferLLM] in docs/sources.md), the KV cache of its layer (tokens along y, the K and V
// columns along x, [WaferScope-model]) and per-core activation buffers. Tile bounds are
// balanced integer splits, [i*n/P, (i+1)*n/P), so every element lies in exactly
// one tile; coreBytes() and coreDetail() evaluate one core on demand in
// O(tensors in its region). A 405B model on 20+ WSE-3 wafers costs kilobytes.
//
// Coordinates: "usable" (x, y) are placement coordinates inside the
// application rectangle (the logical mesh minus the reserved memcpy border, or
// what the defect remap leaves); "fabric" coordinates add the border offset and
// match MeshSnapshot indices.

#include "engine/core/fieldwise.h"
#include "engine/model/modelshape.h"
#include "engine/model/precision.h"
#include "engine/wafer/placement/expertlayout.h"
#include "engine/wafer/placement/regioncut.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace ws {

enum class PlacementStrategy
{
    Pipelined,      // one rectangular region per layer, layers in snake order, wafers pipelined ([WaferScope-model])
    TensorParallel, // every layer spread over the whole usable mesh of one wafer (WaferLLM)
};
const char* placementStrategyId(PlacementStrategy s); // "pipelined", "tensor-parallel"
std::optional<PlacementStrategy> parsePlacementStrategy(std::string_view id);

// Precision per tensor group: attention (q, k, v, o and the layers' norms and biases), FFN and experts (dense,
// routed, shared, router), and the tables (token embedding, LM head, final norm).
struct GroupPrecisions
{
    Precision attention = Precision::Bf16;
    Precision ffn = Precision::Bf16;
    Precision tables = Precision::Bf16;
    static GroupPrecisions all(Precision p) { return {p, p, p}; }
    Precision of(TensorKind kind, int layer) const;
    bool uniform() const { return attention == ffn && ffn == tables; }
    bool operator==(const GroupPrecisions&) const = default;
};

constexpr int64_t kActivationBytes = 4; // fp32 accumulators and vector slices

// The choices a placement is made with. The placer's options, the placement it returns and a layout saved from
// it hold them as this one base, so they pass from one to the next as a whole.
struct PlacementChoices
{
    PlacementStrategy strategy = PlacementStrategy::Pipelined;
    LayerOrder order = LayerOrder::Snake; // how consecutive layers follow each other on a device
    int64_t contextTokens = 8192;         // KV reserved per layer (window-capped)
    double weightFill = 0.8;              // phi_w, an assumption [WaferScope-model]
    int usableCols = 0;                   // per device; in the options 0 means the spec's meshCols - reservedCols
    int usableRows = 0;
    ExpertLayout experts = ExpertLayout::Blocks; // mixture-of-experts layers only

    PlacementChoices& choices() { return *this; }
    const PlacementChoices& choices() const { return *this; }
    bool operator==(const PlacementChoices&) const = default;
};

// One tensor (or a vocabulary slice of a table) tiled over a region.
struct RegionTensor
{
    TensorKind kind = TensorKind::AttnQ;
    int layer = -1;        // -1 for the tables and the final norm
    int64_t rows = 0;      // output rows held here (vectors: 1)
    int64_t rowOffset = 0; // first row of the whole tensor held here (table slices)
    int64_t inValues = 0;  // input values per row (stacked experts: count * cols); vectors: length * count
    int64_t inBlocks = 0;  // storage blocks per row (stacked: count * ceil(cols / blockValues))
    int blockValues = 1;
    int blockBytes = 2;      // vectors: bytes per value
    bool inputAlongY = true; // input blocks split over rows of cores, outputs over columns
    bool vector = false;     // 1-D: values spread over the region's cores in row-major order
    // Stacked experts: a token uses activeExperts of stackedExperts, so a core's
    // buffer for the stacked axis holds that fraction of its slice.
    int64_t stackedExperts = 1;
    int64_t activeExperts = 1;
    bool stackedAlongInput = false; // ffn_down_exps: experts follow each other along the input
    // Tile grid (see TileGrid): 0 input groups = one per line of cores along the input axis.
    int64_t inGroups = 0;
    int64_t fold = 1;
    int64_t bytes() const { return vector ? inValues * blockBytes : rows * inBlocks * blockBytes; }
    // fp32 buffer values a core needs for a tile of `blocks` input blocks and `rows` output rows: its input
    // slice and its output partial sums; for stacked experts only the routed fraction of the stacked axis.
    // Inline: the mesh snapshot calls these once per core and tile.
    int64_t inputBufferValues(int64_t blocks) const
    {
        const int64_t values = blocks * blockValues;
        return stackedAlongInput ? values * activeExperts / stackedExperts : values;
    }
    int64_t outputBufferValues(int64_t rows) const
    {
        return (!stackedAlongInput && stackedExperts > 1) ? rows * activeExperts / stackedExperts : rows;
    }
    // Bytes one core holds for such a tile: the weights plus those buffers (kActivationBytes a value).
    // Placement::coreBytes, the mesh snapshot and the tile-grid choice all count a tile with it.
    int64_t tileBytesOnCore(int64_t rows, int64_t blocks) const
    {
        return rows * blocks * blockBytes + kActivationBytes * (inputBufferValues(blocks) + outputBufferValues(rows));
    }
    bool operator==(const RegionTensor&) const = default;
};

// How a tensor's tiles map onto a rectangle. Along the input axis the cores
// form `inParts` groups of `fold` consecutive lines; group i holds input blocks
// part i. The output rows split into outParts = (cores along the output axis) *
// fold parts, so folding trades input parts for output parts when there are
// fewer input blocks than lines of cores (e.g. 160 int4 blocks over 1,174
// rows). Lines beyond inParts * fold hold none of the tensor. Default (fold 1,
// inParts = lines along the input axis) is WaferLLM's plain 2-D tiling.
struct TileGrid
{
    int64_t inParts = 1;
    int64_t outParts = 1;
    int64_t fold = 1;
};
TileGrid tileGrid(const RegionTensor& t, const CoreRect& r);
// The tile of the core at region-local (lx, ly); false when the core holds none of t.
bool tileIndex(const RegionTensor& t, const TileGrid& g, int lx, int ly, int64_t& inIndex, int64_t& outIndex);

struct PlacedRegion
{
    int device = 0;
    CoreRect rect;  // usable-mesh coordinates
    int layer = -1; // transformer layer; -1 for a region holding only tables
    std::vector<RegionTensor> tensors;
    int64_t kvTokens = 0;  // tokens of KV kept (window-capped context)
    int64_t kvColumns = 0; // 2 * kv heads * head dim (K and V); MLA: kv_lora_rank + qk_rope_head_dim
    int kvBytesPerValue = 2;
    int64_t weightBytes() const;
    int64_t kvBytes() const { return kvTokens * kvColumns * kvBytesPerValue; }
    bool operator==(const PlacedRegion&) const = default;
};

// Bytes on one core, by kind. Plain value: can be added.
struct CoreBytes
{
    std::array<int64_t, kTensorKindCount> weights{};
    int64_t kv = 0;
    int64_t activations = 0; // fp32 input/output slices of the core's tiles and its attention scores
    int64_t program = 0;     // code and runtime (WaferSpec::programBytesPerCore)
    int64_t weightBytes() const;
    int64_t used() const { return weightBytes() + kv + activations + program; }
    static constexpr auto fields() // summed by += (engine/core/fieldwise.h)
    {
        return std::tuple{&CoreBytes::weights, &CoreBytes::kv, &CoreBytes::activations, &CoreBytes::program};
    }
};

// The part of one tensor a core holds: output rows [rowBegin, rowEnd) and
// input values [colBegin, colEnd) of the region's tensor (rows are absolute:
// a table slice's rowOffset is added). Vectors: colBegin..colEnd of the values.
struct CoreTile
{
    TensorKind kind = TensorKind::AttnQ;
    int layer = -1;
    int64_t rowBegin = 0;
    int64_t rowEnd = 0;
    int64_t colBegin = 0;
    int64_t colEnd = 0;
    int64_t bytes = 0;
};

struct CoreDetail
{
    int device = 0;
    int fabricX = 0; // logical fabric coordinates (MeshSnapshot index)
    int fabricY = 0;
    int usableX = -1; // placement coordinates; -1 on the reserved border
    int usableY = -1;
    int layer = -1;           // layer of the region (first one in tensor-parallel), -1 if none
    std::vector<int> regions; // indices into Placement::regions()
    std::vector<CoreTile> tiles;
    int64_t kvTokenBegin = 0, kvTokenEnd = 0;   // KV tokens held (of the first region with KV)
    int64_t kvColumnBegin = 0, kvColumnEnd = 0; // K|V columns held
    CoreBytes bytes;
};

class Placement : public PlacementChoices
{
public:
    Precision precision = Precision::Bf16; // the attention group's (precisions has every group's)
    GroupPrecisions precisions;
    int deviceCount = 0;
    int fabricCols = 0; // logical fabric incl. reserved border
    int fabricRows = 0;
    int originX = 0; // usable (0,0) in fabric coordinates
    int originY = 0;
    int diesX = 0;
    int diesY = 0;
    int64_t sramBytesPerCore = 0;
    int64_t programBytesPerCore = 0;
    int64_t modelWeightBytes = 0; // ModelShape::totalBytes(precision)
    std::vector<PlacedRegion> regions;
    std::vector<int> layersPerDevice;
    std::vector<std::string> notes; // how the device count and table placement were chosen

    // Bytes on the core at usable (x, y) of a device (0 outside every region).
    CoreBytes coreBytes(int device, int x, int y) const;
    // Everything about the core at fabric (x, y); nullopt outside the fabric or device range.
    std::optional<CoreDetail> coreDetail(int device, int fabricX, int fabricY) const;
    // Indices of the regions of a device that contain usable (x, y).
    std::vector<int> regionsAt(int device, int x, int y) const;

    // Closed-form totals over every core of every device.
    CoreBytes totalBytes() const;
    int64_t sramUsedBytes() const { return totalBytes().used(); }
    int64_t sramTotalBytes() const { return int64_t(deviceCount) * usableCols * usableRows * sramBytesPerCore; }
    // Largest used bytes on any core (closed form bound, exact for balanced splits).
    int64_t maxCoreBytes() const;

    std::vector<int> deviceRegions(int device) const;

private:
    std::pair<size_t, size_t> deviceRange(int device) const; // [first, last) region indices of a device
    void addCore(const PlacedRegion& r, int x, int y, CoreBytes& out, std::vector<CoreTile>* tiles,
                 CoreDetail* detail) const;
};

// Region-level helpers (also used by the placer's fit checks).
int64_t regionMaxCoreWeightBytes(const PlacedRegion& r);
int64_t regionMaxCoreBytes(const PlacedRegion& r, int64_t programBytes);
CoreBytes regionTotalBytes(const PlacedRegion& r, int64_t programBytes);

} // namespace ws
