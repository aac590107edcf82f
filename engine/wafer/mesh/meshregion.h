#pragma once
// The cores of one placed region as the mesh engine sees them: for each core
// its tiles (which output rows and input columns of which matrix,
// Placement::coreDetail), the K|V columns it holds and its SRAM bytes; and the
// reduction lines of a GEMV, read from the tiles themselves: the cores that
// hold the same output rows of a matrix reduce their partial sums together,
// and matrices whose lines have the same cores (Q, K and V; gate and up) are
// reduced as one message of all their rows, as WaferLLM's fused allreduce does.

#include "engine/wafer/dataflow/schedule.h"
#include "engine/wafer/mesh/meshfabric.h"
#include "engine/wafer/placement/placement.h"

#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

namespace ws {

struct MeshLine
{
    std::vector<int> members; // positions in MeshRegionCores::cores, in line order
    double payloadValues = 0;
};

struct MeshRegionCores
{
    int device = 0;
    CoreRect rect; // fabric coordinates
    int layer = -1;
    std::vector<int> cores;          // fabric core indices, row-major over rect
    std::vector<CoreTile> tileData;  // every position's matrix tiles of this region's tensors, one after the other
    std::vector<uint32_t> tileBegin; // position i's tiles: [tileBegin[i], tileBegin[i + 1])
    std::span<const CoreTile> tiles(int position) const
    {
        return {tileData.data() + tileBegin[size_t(position)], tileData.data() + tileBegin[size_t(position) + 1]};
    }
    std::vector<int64_t> kvColumns; // per position: K|V columns held
    int64_t maxCoreBytes = 0;       // SRAM used by the fullest core
    bool hasTiles = false;          // read with its tiles (not only its cores)
    int kvBytesPerValue = 0;        // of the layer's KV cache (PlacedRegion::kvBytesPerValue)

    // Reads every core of `region` (layer -1: the tables' tiles only).
    // tiles false: the cores only (no tiles, KV columns or bytes).
    static MeshRegionCores read(const Placement& placement, const RegionRef& region, int layer, MeshFabric& fabric,
                                bool tiles = true);

    // Multiply-accumulates and stored weight bytes of a position's tiles of the given kinds.
    void work(int position, std::initializer_list<TensorKind> kinds, double& macs, double& bytes) const;
    // Output rows (or input columns) of the position's first tile of `kind`; 0 when it holds none.
    int64_t rows(int position, TensorKind kind) const;
    int64_t cols(int position, TensorKind kind) const;
    bool holds(TensorKind kind) const;

    // The reduction lines of the given matrices, fused where their cores coincide.
    std::vector<MeshLine> matrixLines(std::initializer_list<TensorKind> kinds) const;
    // The cores of each row (alongX) or each column of the rectangle.
    std::vector<MeshLine> gridLines(bool alongX) const;
};

} // namespace ws
