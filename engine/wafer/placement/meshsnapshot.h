#pragma once
// A mesh snapshot is what the heatmap draws: for every core of every device
// (wafer) in a placement, one value per heatmap layer, plus the rectangles of
// the regions that hold each layer. It is immutable once built and handed to
// views as std::shared_ptr<const MeshSnapshot>. Per-core arrays are row-major,
// index = y * meshCols + x, one vector per device. Details of a single core
// (bytes by kind, tiles) are not stored here; the app asks the placement.
//
// What moves (the dataflow activity and hops of one instant) is not part of
// the snapshot: a MeshFrame refers to its shared base snapshot and adds only
// that overlay, so an animation never copies the wafers
// (engine/wafer/dataflow/meshframe.h computes frames).

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

enum class MeshLayer
{
    SramOccupancy,
    WeightPlacement,
    KvCache,
    Dataflow,
    Defects,
    Links, // words each mesh link carried for the token (a mesh engine run, engine/wafer/mesh)
    Values // what each core computed for the token (a mesh engine run with a loaded model's weights)
};

// The layer ids of scenario files and the CLI: "sram", "placement", "kv", "dataflow", "defects", "links",
// "values". Every layer, in the order of the View > Layer menu.
const std::array<MeshLayer, 7>& allMeshLayers();
const char* meshLayerId(MeshLayer layer);
std::optional<MeshLayer> meshLayerFromId(std::string_view id);
// Layers drawn from a frame's overlay (MeshFrame::activity) rather than from the snapshot: Dataflow, Links, Values.
bool isFrameLayer(MeshLayer layer);

// What a core is, physically and logically (for the defects layer).
enum class CoreState : uint8_t
{
    Healthy,
    Reserved,
    Dead,
    SpareUsed,
    SpareIdle,
    Shifted
};

struct MeshOwner
{
    int layerIndex = -1;    // transformer layer, -1 for embedding / LM head / none
    std::string tensorKind; // "attn_q", "ffn_up", "token_embd", "output", "kv", ...
    bool draft = false;     // the speculative draft model's (layerIndex is then the draft's layer)
    bool operator==(const MeshOwner&) const = default;
};

struct MeshRegion
{
    int device = 0;
    int x = 0; // first column, in logical cores
    int y = 0; // first row
    int width = 0;
    int height = 0;
    int layerIndex = -1; // -1 for embedding / LM head
    std::string label;   // short label, e.g. "L12", "embed", "lm_head"; the draft's: "draft L3"
    bool draft = false;  // a region of the speculative draft model (engine/wafer/placement/draftplacement.h)
    bool operator==(const MeshRegion&) const = default;
};

// Data moving between regions or wafers at the moment a dataflow frame shows (drawn as an arrow).
struct MeshHop
{
    int fromDevice = 0;
    double fromX = 0; // centre of the sending region, in cores
    double fromY = 0;
    int toDevice = 0;
    double toX = 0; // centre of the receiving region (on toDevice)
    double toY = 0;
    double progress = 0; // 0..1 through the hop
};

struct MeshSnapshot
{
    int meshCols = 0; // logical cores per device, x
    int meshRows = 0; // logical cores per device, y
    int deviceCount = 0;
    int diesX = 0; // reticle dies per device (for die outlines)
    int diesY = 0;
    int64_t sramBytesPerCore = 0;

    std::vector<std::vector<float>> sramFraction;  // [device][core] used bytes / SRAM bytes, 0..1
    std::vector<std::vector<uint16_t>> owner;      // [device][core] index into owners; 0 = nothing placed
    std::vector<MeshOwner> owners;                 // owners[0] is "none"
    std::vector<std::vector<float>> kvFraction;    // [device][core] KV bytes / SRAM bytes, 0..1
    std::vector<std::vector<CoreState>> coreState; // [device][core] (may be empty: all healthy)
    std::vector<MeshRegion> regions;
    // [device][core] bytes a core needs beyond its SRAM (saturating at 2^32 - 1); a device's vector is empty
    // when every core of it fits. sramFraction stops at 1, so this is what shows an over-capacity core.
    std::vector<std::vector<uint32_t>> overflowBytes;
    bool operator==(const MeshSnapshot&) const = default;
};

// Whether `device` holds the speculative draft model alone (its own wafer): it has regions, all the draft's.
bool isDraftWafer(const MeshSnapshot& snapshot, int device);

// The words one mesh link carried for a token: out of core (x, y)'s router towards dir (0 east, 1 west,
// 2 south, 3 north), in heatmap coordinates.
struct MeshLinkLoad
{
    int device = 0;
    int x = 0;
    int y = 0;
    int dir = 0;
    float words = 0;
};

// One instant of an animation over a snapshot: the shared, immutable base plus what moves.
struct MeshFrame
{
    std::shared_ptr<const MeshSnapshot> base;
    // [device][core], 0..1 (a device not computed, or every device, may be empty). Dataflow: compute 0.5..1,
    // forward 0..0.5, idle 0. Links: the words through the core's router over overlayTop. Values: 0.5 plus half
    // the core's signed value over overlayTop (0.5 = zero).
    std::vector<std::vector<float>> activity;
    std::vector<MeshHop> hops; // hops running at this moment
    // Links and Values: the top of the scale in words or in the value's own unit; each link's words (Links).
    double overlayTop = 0;
    std::vector<MeshLinkLoad> links;
};

} // namespace ws
