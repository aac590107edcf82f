#include "engine/hardware/hardwarepresetparser.h"

#include "engine/core/presetreader.h"

#include <algorithm>

namespace ws {

namespace {
using Need = PresetReader::Need;
using Bound = PresetReader::Bound;
constexpr Need kReq = Need::Required;
constexpr Need kOpt = Need::Optional;

void readWafer(PresetReader& r, WaferSpec& w)
{
    r.integer("meshCols", w.meshCols, kReq, Bound::Positive);
    r.integer("meshRows", w.meshRows, kReq, Bound::Positive);
    r.integer("reservedCols", w.reservedCols, kOpt, Bound::NonNegative);
    r.integer("reservedRows", w.reservedRows, kOpt, Bound::NonNegative);
    r.integer("reservedLeftCols", w.reservedLeftCols, kOpt, Bound::NonNegative);
    r.integer("reservedTopRows", w.reservedTopRows, kOpt, Bound::NonNegative);
    r.integer("diesX", w.diesX, kOpt, Bound::Positive);
    r.integer("diesY", w.diesY, kOpt, Bound::Positive);
    r.integer64("coresEnabled", w.coresEnabled, kOpt, Bound::Positive);
    r.integer64("coresPhysical", w.coresPhysical, kOpt, Bound::Positive);
    r.integer("segmentPrimaryCores", w.segmentPrimaryCores, kOpt, Bound::Positive);
    r.integer("segmentSpareCores", w.segmentSpareCores, kOpt, Bound::NonNegative);
    r.integer64("sramBytesPerCore", w.sramBytesPerCore, kReq, Bound::Positive);
    r.integer64("programBytesPerCore", w.programBytesPerCore, kOpt, Bound::NonNegative);
    r.number("clockHz", w.clockHz, kReq, Bound::Positive);
    r.number("clockLowHz", w.clockLowHz, kOpt, Bound::NonNegative);
    r.number("clockHighHz", w.clockHighHz, kOpt, Bound::NonNegative);
    r.number("hopLatencyCycles", w.hopLatencyCycles, kOpt, Bound::Positive);
    r.number("routingStageCycles", w.routingStageCycles, kOpt, Bound::NonNegative);
    r.integer("linkWidthBits", w.linkWidthBits, kOpt, Bound::Positive);
    r.number("macsPerCyclePerCore", w.macsPerCyclePerCore, kOpt, Bound::Positive);
    r.number("sramBytesPerCyclePerCore", w.sramBytesPerCyclePerCore, kOpt, Bound::NonNegative);
    r.number("coreAreaMm2", w.coreAreaMm2, kOpt, Bound::NonNegative);
    r.number("waferAreaMm2", w.waferAreaMm2, kOpt, Bound::NonNegative);
    r.number("ioBandwidthBytesPerS", w.ioBandwidthBytesPerS, kOpt, Bound::NonNegative);
    r.number("interWaferLatencyS", w.interWaferLatencyS, kOpt, Bound::NonNegative);
    r.number("powerWatts", w.powerWatts, kOpt, Bound::NonNegative);
    if (!r.ok())
        return;
    if (w.reservedCols >= w.meshCols || w.reservedRows >= w.meshRows)
        r.fail(ErrorCode::InvalidArgument, "reservedCols", "reserved border leaves no usable cores");
    else if (w.reservedLeftCols > w.reservedCols || w.reservedTopRows > w.reservedRows)
        r.fail(ErrorCode::InvalidArgument, "reservedLeftCols", "offsets exceed the reserved border");
    else if (w.programBytesPerCore >= w.sramBytesPerCore)
        r.fail(ErrorCode::InvalidArgument, "programBytesPerCore", "leaves no SRAM for weights");
}

void readGpu(PresetReader& r, GpuSpec& g)
{
    r.integer64("hbmBytes", g.hbmBytes, kReq, Bound::Positive);
    r.number("hbmBandwidthBytesPerS", g.hbmBandwidthBytesPerS, kReq, Bound::Positive);
    r.number("bf16Flops", g.bf16Flops, kReq, Bound::Positive);
    r.number("fp8Flops", g.fp8Flops, kOpt, Bound::NonNegative);
    r.number("nvlinkBandwidthBytesPerS", g.nvlinkBandwidthBytesPerS, kOpt, Bound::NonNegative);
    r.integer("maxGpusPerNode", g.maxGpusPerNode, kOpt, Bound::Positive);
    r.number("powerWatts", g.powerWatts, kOpt, Bound::NonNegative);
    r.number("decodeKernelsPerLayer", g.decodeKernelsPerLayer, kOpt, Bound::NonNegative);
    r.number("kernelGapGraphS", g.kernelGapGraphS, kOpt, Bound::NonNegative);
    r.number("kernelLaunchEagerS", g.kernelLaunchEagerS, kOpt, Bound::NonNegative);
    r.number("hostOverheadPerStepS", g.hostOverheadPerStepS, kOpt, Bound::NonNegative);
    r.number("allreduceLatencyS", g.allreduceLatencyS, kOpt, Bound::NonNegative);
}

void readLpu(PresetReader& r, LpuSpec& l)
{
    r.integer64("sramBytesPerChip", l.sramBytesPerChip, kReq, Bound::Positive);
    r.number("sramBandwidthBytesPerS", l.sramBandwidthBytesPerS, kReq, Bound::Positive);
    r.number("int8Ops", l.int8Ops, kOpt, Bound::NonNegative);
    r.number("fp16Flops", l.fp16Flops, kReq, Bound::Positive);
    r.number("clockHz", l.clockHz, kOpt, Bound::Positive);
    r.integer("c2cLinks", l.c2cLinks, kOpt, Bound::NonNegative);
    r.number("c2cLinkBandwidthBytesPerS", l.c2cLinkBandwidthBytesPerS, kOpt, Bound::NonNegative);
    r.number("systemLatencyS", l.systemLatencyS, kOpt, Bound::NonNegative);
    r.number("powerWatts", l.powerWatts, kOpt, Bound::NonNegative);
}
} // namespace

const char* hardwareKindId(HardwareKind kind)
{
    switch (kind) {
    case HardwareKind::Wafer:
        return "wafer";
    case HardwareKind::Gpu:
        return "gpu";
    case HardwareKind::Lpu:
        return "lpu";
    }
    return "wafer";
}

Expected<HardwareSpec> parseHardwarePreset(std::string_view jsonText, const std::string& fileName)
{
    PresetReader r(jsonText, fileName, "hardware");
    if (!r.ok())
        return r.error();
    HardwareSpec spec;
    spec.id = r.id();
    spec.name = r.name();
    const std::string type = r.topString("type", Need::Required);
    if (!r.ok())
        return r.error();
    if (type == "wafer") {
        spec.kind = HardwareKind::Wafer;
        readWafer(r, spec.wafer);
    } else if (type == "gpu") {
        spec.kind = HardwareKind::Gpu;
        readGpu(r, spec.gpu);
    } else if (type == "lpu") {
        spec.kind = HardwareKind::Lpu;
        readLpu(r, spec.lpu);
    } else {
        r.fail(ErrorCode::Format, "type", "unknown hardware type '" + type + "' (expected wafer, gpu or lpu)");
    }
    r.number("hourlyCostUsd", spec.cost.usd, kOpt, Bound::NonNegative);
    r.number("hourlyCostLowUsd", spec.cost.lowUsd, kOpt, Bound::NonNegative);
    r.number("hourlyCostHighUsd", spec.cost.highUsd, kOpt, Bound::NonNegative);
    if (r.ok() && spec.cost.usd > 0 &&
        !(spec.cost.lowUsd <= spec.cost.usd && spec.cost.usd <= std::max(spec.cost.usd, spec.cost.highUsd)))
        r.fail(ErrorCode::InvalidArgument, "hourlyCostLowUsd", "hourly cost range must contain the cost");
    r.rejectUnknownFields();
    if (!r.ok())
        return r.error();
    spec.sources = r.sources();
    return spec;
}

} // namespace ws
