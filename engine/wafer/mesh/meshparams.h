#pragma once
// What a core and a link of the mesh engine can do per cycle, taken from one
// hardware preset (WaferSpec; every number there carries its source in
// HardwareSpec::sources). A core multiplies-accumulates macsPerCycle 16-bit
// values per cycle but cannot read its weights faster than its SRAM delivers
// them (sramBytesPerCycle), so a GEMV tile takes max(MACs / macsPerCycle,
// weight bytes / sramBytesPerCycle) cycles; an element-wise op costs one SIMD
// lane. A link moves linkWidthBits per cycle per direction after hopCycles of
// router latency; a core on a reduction path adds routingStageCycles (0 where
// the preset does not publish it). Between wafers a message pays the system
// I/O bandwidth and the wafer-to-wafer latency. Activations and partial sums
// travel as 16-bit values (TimingParams::activationBytes, WaferLLM's f16
// decode kernel). closedForm() gives the dataflow timing model the same unit
// costs, so that the engine and the closed forms differ only in structure.

#include "engine/hardware/hardwarespec.h"
#include "engine/wafer/dataflow/timingparams.h"

#include <string>
#include <vector>

namespace ws {

struct MeshParams
{
    double clockHz = 0;
    double macsPerCycle = 1;       // per core, 16-bit SIMD lanes
    double sramBytesPerCycle = 0;  // per core; 0 = not limited
    double hopCycles = 1;          // one router hop
    double routingStageCycles = 0; // a core receives, adds and re-sends
    double linkBytesPerCycle = 4;  // per link per direction
    double activationBytes = 2;    // per activation value or partial sum on the fabric
    double interWaferLatencyCycles = 0;
    double interWaferBytesPerCycle = 0; // 0 = unlimited

    // From a wafer preset; fields the preset leaves out keep TimingParams' documented defaults.
    static MeshParams fromHardware(const WaferSpec& wafer);
    // Words (link-width units) for `values` activations, rounded up.
    double words(double values) const;
    // Cycles a core spends on a GEMV tile of `macs` multiply-accumulates over `weightBytes` stored bytes.
    double gemvCycles(double macs, double weightBytes) const;
    double elementCycles(double ops) const { return ops / macsPerCycle; }
    // The closed forms' constants with these unit costs: no fitted term (c_0 = 0), one MAC per SIMD lane.
    TimingParams closedForm() const;
};

// Each parameter with the preset field it came from and that field's source.
struct MeshParamSource
{
    std::string name;
    double value = 0;
    std::string source;
};
std::vector<MeshParamSource> describe(const MeshParams& params, const HardwareSpec& hardware);

} // namespace ws
