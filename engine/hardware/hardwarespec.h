#pragma once
// Device specifications as plain data. One HardwareSpec describes one kind of
// device (a wafer, a GPU or an LPU chip); every number carries its unit in its
// name, and `sources` maps a field name to the citation it came from
// (keys of docs/sources.md). Specs are loaded from resources/presets/hardware/*.json by
// parseHardwarePreset() (engine/hardware/hardwarepresetparser.h); nothing here hard-codes a vendor figure.

#include <cstdint>
#include <map>
#include <string>

namespace ws {

enum class HardwareKind
{
    Wafer,
    Gpu,
    Lpu
};

struct WaferSpec
{
    // Logical mesh as the SDK exposes it (fabric dims), in cores.
    int meshCols = 0;
    int meshRows = 0;
    // Cores at the fabric border reserved for host I/O (memcpy), not for applications.
    int reservedCols = 0;
    int reservedRows = 0;
    // Where the application rectangle starts inside the fabric (the rest of
    // reservedCols/reservedRows lies on the right and bottom edges).
    int reservedLeftCols = 0;
    int reservedTopRows = 0;
    // Reticle dies on the wafer (columns x rows).
    int diesX = 0;
    int diesY = 0;
    int64_t coresEnabled = 0;  // marketing core count (healthy, exposed)
    int64_t coresPhysical = 0; // including spares
    // Row-segment redundancy: each segment has segmentPrimaryCores + segmentSpareCores.
    int segmentPrimaryCores = 0;
    int segmentSpareCores = 0;
    int64_t sramBytesPerCore = 0;
    int64_t programBytesPerCore = 0; // code, stacks, runtime per core (a parameter; not published)
    double clockHz = 0;
    double clockLowHz = 0; // where the clock is not published: the plausible range (0 = known)
    double clockHighHz = 0;
    double hopLatencyCycles = 1;    // alpha: one router hop
    double routingStageCycles = 0;  // beta: a software routing stage on a core (0 = not published)
    int linkWidthBits = 32;         // one wavelet per cycle per link
    double macsPerCyclePerCore = 1; // 16-bit multiply-accumulates per cycle
    double sramBytesPerCyclePerCore = 0;
    double coreAreaMm2 = 0;
    double waferAreaMm2 = 0;
    double ioBandwidthBytesPerS = 0; // off-wafer system I/O
    double interWaferLatencyS = 0;   // wafer-to-wafer hop latency (parameter)
    double powerWatts = 0;           // system power

    // Cores an application can use when no defects shrink the mesh.
    int usableCols() const { return meshCols - reservedCols; }
    int usableRows() const { return meshRows - reservedRows; }

    bool operator==(const WaferSpec&) const = default; // every field (a cache key: engine/predict/placementcache.h)
};

struct GpuSpec
{
    int64_t hbmBytes = 0;
    double hbmBandwidthBytesPerS = 0;
    double bf16Flops = 0;                // dense
    double fp8Flops = 0;                 // dense
    double nvlinkBandwidthBytesPerS = 0; // per GPU, bidirectional
    int maxGpusPerNode = 8;
    double powerWatts = 0;
    // The per-token costs that do not shrink with the model (the prediction's floor,
    // engine/calibration/gpumodel.h gpuFloor()); 0 = not known, not counted.
    double decodeKernelsPerLayer = 0; // kernels a serving stack launches per layer per decode step
    double kernelGapGraphS = 0;       // GPU idle per kernel inside a CUDA graph (launch and teardown)
    double kernelLaunchEagerS = 0;    // CPU time to submit one kernel without CUDA graphs
    double hostOverheadPerStepS = 0;  // host work per decode step (sampled token read back, output, schedule)
    double allreduceLatencyS = 0;     // one small-message all-reduce inside a node (tensor parallel)
};

struct LpuSpec
{
    int64_t sramBytesPerChip = 0;
    double sramBandwidthBytesPerS = 0;
    double int8Ops = 0;
    double fp16Flops = 0;
    double clockHz = 0;
    int c2cLinks = 0;
    double c2cLinkBandwidthBytesPerS = 0; // per link per direction
    double systemLatencyS = 0;            // end-to-end network latency bound
    double powerWatts = 0;
};

// What one device (a GPU, a wafer system, an LPU chip) costs an hour: a
// cloud list price or an amortised system price, with a plausible range.
struct HourlyCost
{
    double usd = 0; // 0 = unknown
    double lowUsd = 0;
    double highUsd = 0;
};

struct HardwareSpec
{
    std::string id;   // preset id, e.g. "wse3", "h100", "groq-lpu"
    std::string name; // display name
    HardwareKind kind = HardwareKind::Wafer;
    WaferSpec wafer;                            // valid when kind == Wafer
    GpuSpec gpu;                                // valid when kind == Gpu
    LpuSpec lpu;                                // valid when kind == Lpu
    HourlyCost cost;                            // per device
    std::map<std::string, std::string> sources; // field -> citation
};

} // namespace ws
