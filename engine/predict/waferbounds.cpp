#include "engine/predict/waferbounds.h"

#include "engine/calibration/wafercalibration.h"
#include "engine/model/modelshape.h"
#include "engine/predict/predictionutil.h"
#include "engine/predict/stackkernel.h"
#include "engine/predict/waferprefill.h"
#include "engine/wafer/dataflow/schedule.h"

#include <algorithm>
#include <cmath>

namespace ws {

namespace {
void setCeiling(Prediction& p, const ModelConfig& model, const HardwareSpec& hw, const Workload& w, const WaferSetup& s,
                int tokensPerVisit)
{
    int64_t largest = 0;
    int shortest = 0;
    for (const RegionRef& r : s.layout.layers) {
        largest = std::max<int64_t>(largest, int64_t(r.rect.width) * r.rect.height);
        const int side = std::min(r.rect.width, r.rect.height);
        shortest = shortest == 0 ? side : std::min(shortest, side);
    }
    const ModelShape shape(model);
    const double bpp = bitsPerParameter(w.precision) / 8.0;
    // Layer weights only (embedding and LM head sit in their own regions); the tied table is taken off twice
    // at most, which can only lower the bound's work.
    const double layerBytes =
        std::max(0.0, double(shape.bytesReadPerToken(w.precision)) - double(shape.globalBytes(w.precision)) -
                          double(shape.embeddingParameters()) * bpp);
    const int verified = w.speculative.enabled ? w.speculative.tokensPerStep + 1 : 1;
    const double clock = s.params.clockHz;
    Ceiling& c = p.ceiling;
    c.peakFlopsPerS = double(largest) * hw.wafer.macsPerCyclePerCore * 2.0 * clock;
    c.peakBytesPerS = double(largest) * hw.wafer.sramBytesPerCyclePerCore * clock;
    c.flopsPerStep = 2.0 * (bpp > 0 ? layerBytes / bpp : 0) * tokensPerVisit * verified;
    c.bytesPerStep = layerBytes;
    c.fabricSeconds = double(model.layers) * 2.0 * (shortest / 2) * std::max(1.0, hw.wafer.hopLatencyCycles) / clock;
    c.tokensPerStep = w.speculative.enabled ? w.speculative.expectedTokensPerStep() : 1.0;
}
} // namespace

Floor waferFloor(const ModelConfig& model, const HardwareSpec& hw, const Workload& w, const WaferSetup& s,
                 const ScheduleOptions& so, const TokenSchedule* step)
{
    TokenSchedule f;
    if (step && !step->isPrefill()) {
        f.reduceCycles = step->fixedReduceCycles;
        f.hopCycles = step->fixedHopCycles;
        f.totalCycles = step->fixedCycles;
    } else {
        TimingParams fixed = s.params;
        fixed.macCycles = 0;
        fixed.cyclesPerWavelet = 0;
        fixed.ioBandwidthBytesPerS = 0;
        f = buildTokenSchedule(model, s.layout, TimingModel(fixed), so);
    }
    const double clock = s.params.clockHz;
    const auto hop = hw.sources.find("hopLatencyCycles");
    const std::string hopSource = hop != hw.sources.end() ? hop->second : std::string("hardware preset");
    const double tokensPerStep = w.speculative.enabled ? w.speculative.expectedTokensPerStep() : 1.0;
    Floor floor;
    floor.formula = "the schedule's fixed latencies: all-reduce fixed cycles, routing stages and hops, region and "
                    "wafer-to-wafer hops";
    floor.components.push_back({"allreduce_fixed_latency", f.reduceCycles / clock / tokensPerStep,
                                "c_0 = " + toStringC(s.params.allreduceFixedCycles) +
                                    " cycles per all-reduce and beta = " + toStringC(s.params.routingStageCycles) +
                                    " cycles per routing stage (fitted profile " + s.profile +
                                    ", WaferLLM OSDI 2025 Table 4 [WaferLLM-T4]); alpha = " +
                                    toStringC(s.params.hopCycles) + " cycles per hop (" + hopSource + ")"});
    floor.components.push_back({"region_and_wafer_hops", f.hopCycles / clock / tokensPerStep,
                                "hops between layer regions at alpha; wafer-to-wafer latency " +
                                    toStringC(s.params.interWaferLatencyS) +
                                    " s (assumption: not published [WaferScope-model])"});
    floor.seconds = f.totalCycles / clock / tokensPerStep;
    return floor;
}

void addWaferRangeAndCeiling(Prediction& p, const ModelConfig& model, const HardwareSpec& hw, const Workload& w,
                             const WaferPredictOptions& o, const WaferBoundsInput& in)
{
    const WaferSetup& s = *in.setup;
    ScheduleOptions so;
    so.tokens = in.tokensPerVisit;
    so.context = w.contextTokens;
    so.kv = o.kv;
    so.timingOnly = true;
    settleFloor(p, waferFloor(model, hw, w, s, so, in.step));
    const double point = p.tokensPerSecondPerUser;
    auto handoff = [&](const TimingParams& params) { return in.handoffSeconds ? in.handoffSeconds(params) : 0.0; };
    auto tps = [&](const ScheduleRegions& layout, const TimingParams& params, int visit) {
        return 1.0 / (in.cycles(layout, params, visit) * in.specFactor / params.clockHz + handoff(params));
    };
    auto withParams = [&](auto set, double v) {
        TimingParams q = s.params;
        set(q, v);
        return tps(s.layout, q, in.tokensPerVisit);
    };

    const WaferSpec& wafer = hw.wafer;
    if (wafer.clockLowHz > 0 || wafer.clockHighHz > 0) {
        const double lo = wafer.clockLowHz > 0 ? wafer.clockLowHz : s.params.clockHz;
        const double hi = wafer.clockHighHz > 0 ? wafer.clockHighHz : s.params.clockHz;
        // A stack's kernel factor fitted on measured rows of this wafer: each clock end is timed with the factor
        // the same fit finds at that clock (the rows fix seconds, not the clock). What is left of the clock's
        // effect is this model's share of the cycles the factor does not scale (hops, wavelets) against the fit
        // rows' share.
        auto set = [&](TimingParams& q, double v) {
            if (o.kernelFactorAtClock && v != q.clockHz)
                if (const std::optional<double> f = o.kernelFactorAtClock(v); f && *f > 0 && o.kernelFactor > 0) {
                    applyKernelFactor(q, *f / o.kernelFactor, wafer);
                    // The cycles per MAC from the fitted constant itself, as prepareWafer sets them: the SIMD limit
                    // may have clamped them at the point's factor.
                    if (const auto& cal = shippedWaferCalibration())
                        q.macCycles = std::max(wafer.macsPerCyclePerCore > 0 ? 1.0 / wafer.macsPerCyclePerCore : 0.0,
                                               cal->params.macCycles * *f);
                }
            q.clockHz = v;
        };
        const auto src = hw.sources.find("clockLowHz");
        std::string source = src != hw.sources.end() ? src->second : "hardware preset";
        if (o.kernelFactorAtClock)
            source += "; the serving stack's kernel factor refitted on its rows at each clock (they fix seconds, not "
                      "the clock), so only the cycles it does not scale (hops, wavelets) move";
        p.rangeDrivers.push_back(rangeDriver("clock_hz", "Hz", s.params.clockHz, lo, hi, source, point,
                                             withParams(set, lo), withParams(set, hi)));
    }
    const double simdRatio = waferSimdRatio(hw);
    if (simdRatio != 1.0) {
        // Research kernel (WaferLLM's, as fitted on WSE-2: 0.86 cycles per MAC, 29 % of its 4-wide SIMD) against
        // a production stack's: Cerebras says its first inference implementation "utilized only a fraction of its
        // peak bandwidth, compute" and rewrote MatMul for its October 2024 release ([Cerebras-Oct2024]); the
        // production end runs at the efficiency WaferLLM's own MeshGEMM keeps near the hardware limit (> 70 % of
        // peak compute, WaferLLM §7.2 [WaferLLM]) on this core's SIMD, which its SRAM can feed (2 x 64-bit reads
        // per cycle: 8 16-bit weights, Sean Lie at Hot Chips 34 [Cerebras-HC34]; keys in docs/sources.md).
        auto set = [](TimingParams& q, double v) { q.macCycles = v; };
        constexpr double kProductionEfficiency = 0.7;
        const double measured = s.params.macCycles;
        const double production = std::min(measured, 1.0 / (kProductionEfficiency * wafer.macsPerCyclePerCore));
        p.rangeDrivers.push_back(rangeDriver(
            "kernel_cycles_per_mac", "cycles", measured, production, measured,
            "research kernel: WaferLLM's cycles per MAC as fitted on WSE-2 (WaferLLM, OSDI 2025, Table 4 "
            "[WaferLLM-T4]); production: 70 % of this core's " +
                std::to_string(int(wafer.macsPerCyclePerCore)) +
                "-wide SIMD (The Next Platform [NextPlatform-WSE3]), the efficiency "
                "WaferLLM's MeshGEMM keeps (WaferLLM §7.2 [WaferLLM]); Cerebras rewrote its kernels in October 2024 "
                "[Cerebras-Oct2024] (docs/sources.md)",
            point, withParams(set, production), withParams(set, measured)));
    }
    if (s.devicesNeeded > 1) {
        auto set = [](TimingParams& q, double v) { q.interWaferLatencyS = v; };
        const double assumed = s.params.interWaferLatencyS;
        const double lo = std::min(assumed, 0.2e-6);
        const double hi = std::max(assumed, 5e-6);
        p.rangeDrivers.push_back(rangeDriver(
            "wafer_link_latency_s", "s", assumed, lo, hi,
            "[estimate] not published: 0.2 us is about the serialisation of a hidden state over 12 x 100 GbE plus a "
            "switch hop (12 x 100 GbE: ALCF [ALCF-Cerebras]); 5 us a host-mediated RDMA transfer (docs/sources.md)",
            point, withParams(set, lo), withParams(set, hi)));
    }
    if (!o.layout && !s.defects.applied) {
        // The placer's weight fill decides the layer regions' size: fuller regions are smaller (less compute,
        // shorter reductions). WaferLLM tunes region sizes offline per model (WaferLLM §7.1 [WaferLLM]).
        double at[2] = {point, point};
        int devicesAt[2] = {0, 0};
        const double fills[2] = {0.6, 0.9};
        for (int i = 0; i < 2; ++i) {
            WaferPredictOptions alt = o;
            alt.weightFill = fills[i];
            alt.devices = 0;
            // The same draft home: only the target's regions at the other fill are timed here.
            if (s.draftHome)
                alt.draftHome = &s.draftHome->home;
            auto other = prepareWafer(model, hw, w, alt);
            if (!other || other->layout.layers.empty())
                continue;
            const int stages = std::max(1, int(other->layout.layers.size()));
            const int visit = (p.concurrency + stages - 1) / stages;
            at[i] = tps(other->layout, s.params, visit);
            if (other->devicesNeeded != p.devices)
                devicesAt[i] = other->devicesNeeded; // another fill can land on another wafer count
        }
        p.rangeDrivers.push_back(rangeDriver("placement_weight_fill", "fraction of SRAM", o.weightFill, fills[0],
                                             fills[1],
                                             "assumption: the production placer's region sizes are not published; "
                                             "WaferLLM autotunes them offline (WaferLLM, OSDI 2025, §7.1 [WaferLLM])",
                                             point, at[0], at[1]));
        p.rangeDrivers.back().devicesAtLow = devicesAt[0];
        p.rangeDrivers.back().devicesAtHigh = devicesAt[1];
    }
    if (!o.layout && !model.isMoe() && in.tokensPerVisit == 1 && !s.layout.layers.empty()) {
        // Placement policy: this placer keeps every layer resident, so a layer's region is a share of the
        // wafers; the published WaferLLM figures time each layer on its own P x P region and multiply by the
        // layer count. The high end swaps the layers' time for that policy's at WaferLLM's fastest P (the
        // embedding, LM head and the hops between regions stay as placed).
        ScheduleOptions so;
        so.tokens = 1;
        so.context = w.contextTokens;
        so.kv = o.kv;
        so.layersOnly = true;
        so.timingOnly = true;
        const double packedLayers = buildTokenSchedule(model, s.layout, TimingModel(s.params), so).totalCycles;
        const double total = in.cycles(s.layout, s.params, 1);
        int64_t cores = 0;
        for (const RegionRef& r : s.layout.layers)
            cores += int64_t(r.rect.width) * r.rect.height;
        const double side = std::sqrt(double(cores) / double(s.layout.layers.size()));
        constexpr int kMeasuredSide = 420;
        WaferKernelMeasurement row{
            model.id, model.hiddenSize, model.ffnSize, model.layers, w.contextTokens, kMeasuredSide, 0};
        const double perLayer = double(model.layers) * waferKernelLayerCycles(row, s.params);
        const double alt = total - packedLayers + perLayer;
        if (side < kMeasuredSide && alt > 0 && packedLayers > 0)
            p.rangeDrivers.push_back(rangeDriver(
                "placement_policy", "cores per layer region (side)", side, side, kMeasuredSide,
                "low: this placer, every layer resident (region side as placed); high: WaferLLM's measured "
                "policy, each layer on its own 420 x 420 region (WaferLLM, OSDI 2025, Table 4 [WaferLLM-T4])",
                point, point, 1.0 / (alt * in.specFactor / s.params.clockHz + handoff(s.params))));
        // That policy's layers take 420 x 420 cores each: the wafers it needs (about 16 WSE-3 for a 70B model).
        const int64_t perWafer = int64_t(hw.wafer.usableCols()) * hw.wafer.usableRows();
        if (!p.rangeDrivers.empty() && p.rangeDrivers.back().input == "placement_policy" && perWafer > 0) {
            const int64_t need = int64_t(model.layers) * kMeasuredSide * kMeasuredSide;
            p.rangeDrivers.back().devicesAtHigh = std::max<int>(p.devices, int((need + perWafer - 1) / perWafer));
        }
    }
    if (s.calibrationResidual > 0) {
        const double r = s.calibrationResidual;
        p.rangeDrivers.push_back(rangeDriver("calibration_fit", "relative", 0, -r, r,
                                             "worst residual of " + s.profile + " on WaferLLM's measurements", point,
                                             point * (1 - r), point * (1 + r)));
    }
    setCeiling(p, model, hw, w, s, in.tokensPerVisit);
    finishRange(p);
}

} // namespace ws
