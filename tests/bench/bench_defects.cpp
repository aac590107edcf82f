// Defect injection and redundancy remap on a full WSE-3 (preset wse3.json):
// 1,000 random dead cores, remapped (target: well under 200 ms, remap plus
// re-placement), plus Monte Carlo wafer yield against the §3.4 segment formula
// for the preset's segments and the 100+1 layout, and the spare rows/columns
// per die scheme for comparison. Prints figures; asserts nothing.

#include "engine/hardware/hardwarepresetparser.h"
#include "engine/model/modelpresetparser.h"
#include "engine/wafer/placement/placer.h"
#include "engine/wafer/redundancy/remap.h"
#include "engine/wafer/redundancy/yieldmodel.h"
#include "engine/wafer/redundancy/yieldmontecarlo.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

void monteCarlo(const char* label, const ws::SpareLayout& layout, double d0, int trials, double formula)
{
    ws::MonteCarloOptions o;
    o.defectsPerMm2 = d0;
    o.trials = trials;
    o.seed = 7;
    const auto t0 = Clock::now();
    const auto mc = ws::YieldMonteCarlo::run(layout, o);
    const double ms = msSince(t0);
    if (!mc) {
        std::printf("%s: %s\n", label, mc.error().message().c_str());
        return;
    }
    std::printf("%-34s D0=%.3f/mm2 spares %.2f%%: MC yield %.3f +- %.3f (%d trials, %.1f ms/trial), "
                "formula %s, mean usable %.4f, mean dead %.0f\n",
                label, d0, 100 * layout.spareFraction(), mc->yield, mc->standardError, trials, ms / trials,
                formula >= 0 ? std::to_string(formula).substr(0, 5).c_str() : "n/a", mc->meanUsableFraction,
                mc->meanDeadCores);
}

std::string readPreset(const std::string& kind, const std::string& id)
{
    std::ifstream in(std::string(WAFERSCOPE_SOURCE_DIR) + "/resources/presets/" + kind + "/" + id + ".json");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

int main()
{
    const auto spec = ws::parseHardwarePreset(readPreset("hardware", "wse3"), "wse3.json");
    const auto model = ws::parseModelPreset(readPreset("models", "llama-3.1-70b"), "llama-3.1-70b.json");
    if (!spec || !model) {
        std::printf("cannot load the wse3 / llama-3.1-70b presets\n");
        return 1;
    }
    const auto layout = ws::SpareLayout::fromSpec(spec->wafer);
    if (!layout) {
        std::printf("layout: %s\n", layout.error().message().c_str());
        return 1;
    }
    std::printf("WSE-3: fabric %dx%d, segments %d+%d, physical %dx%d = %lld cores, usable %dx%d\n",
                layout->fabricCols(), layout->fabricRows(), layout->segmentPrimaryCores(), layout->segmentSpareCores(),
                layout->physicalCols(), layout->physicalRows(), static_cast<long long>(layout->physicalCoreCount()),
                layout->nominalUsableCols(), layout->nominalUsableRows());

    const double rate = 1000.0 / double(layout->physicalCoreCount());
    std::vector<double> drawMs;
    std::vector<double> remapMs;
    std::vector<double> placeMs;
    ws::DefectSummary summary;
    int devices = 0;
    for (int run = 0; run < 21; ++run) {
        auto t0 = Clock::now();
        const auto defects = ws::DefectMap::random(*layout, rate, uint64_t(100 + run));
        drawMs.push_back(msSince(t0));
        t0 = Clock::now();
        const auto remap = ws::Remap::run(*layout, *defects);
        remapMs.push_back(msSince(t0));
        summary = remap->summary();
        t0 = Clock::now();
        ws::PlacementOptions options;
        options.usableCols = remap->usableLogicalMesh().cols;
        options.usableRows = remap->usableLogicalMesh().rows;
        const auto placement = ws::placeModel(*model, spec->wafer, options);
        placeMs.push_back(msSince(t0));
        devices = placement ? placement->deviceCount : -1;
    }
    std::sort(placeMs.begin(), placeMs.end());
    std::sort(drawMs.begin(), drawMs.end());
    std::sort(remapMs.begin(), remapMs.end());
    std::printf("1000 random dead cores: draw %.2f ms, remap %.2f ms, re-place llama-3.1-70b bf16 on %d wafers "
                "%.2f ms; total %.2f ms (medians of 21; max remap %.2f ms)\n",
                drawMs[10], remapMs[10], devices, placeMs[10], drawMs[10] + remapMs[10] + placeMs[10], remapMs.back());
    std::printf("  last run: dead %lld, spares used %lld, unrepairable segments %lld, rows dropped %d "
                "(displacement %d), usable cores %lld of %lld, shifted %lld\n",
                static_cast<long long>(summary.deadCores), static_cast<long long>(summary.sparesUsed),
                static_cast<long long>(summary.unrepairableSegments), summary.droppedRows,
                summary.displacementConflicts, static_cast<long long>(summary.usableCores),
                static_cast<long long>(summary.nominalUsableCores), static_cast<long long>(summary.shiftedCores));

    const int trials = 200;
    for (double d0 : {0.001, 0.002}) {
        monteCarlo("WSE-3 preset segments", *layout, d0, trials,
                   ws::YieldModel::redundantWafer(*layout, d0).waferYield);
        const auto l101 = ws::SpareLayout::rowShiftFromSpec(spec->wafer, 100, 1);
        monteCarlo("WSE-3 with 100+1 segments", *l101, d0, trials,
                   ws::YieldModel::redundantWafer(*l101, d0).waferYield);
        const auto die = ws::SpareLayout::dieRowColumnFromSpec(spec->wafer, ws::DieSpares{2, 1});
        monteCarlo("WSE-3 2 spare rows + 1 col per die", *die, d0, trials, -1);
    }
    return 0;
}
