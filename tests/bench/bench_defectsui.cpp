// The Defects dock's costs on a full WSE-3 with Qwen3-32B at bf16: the editor's edit (draw and
// remap, on the GUI thread) and the worker's job (remap, hop stretch over the layer regions, the
// predictions before and after, the Defects-layer snapshot and arrows). Prints median times.
#include "app/common/placementresult.h"
#include "app/common/presetlibrary.h"
#include "app/defects/defectscontroller.h"

#include <QCoreApplication>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace {

template <typename F> double medianMs(int runs, F&& f)
{
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        f(i);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const ws::PresetLibrary presets{QString()};
    auto hw = presets.hardware(QStringLiteral("wse3"));
    auto model = presets.model(QStringLiteral("qwen3-32b"));
    if (!hw || !model) {
        std::fprintf(stderr, "bench_defectsui: presets missing\n");
        return 1;
    }
    ws::DefectsContext context;
    context.spec.hardware = *hw;
    context.spec.model = *model;
    context.spec.workload.contextTokens = 8192;
    auto placed = ws::computePlacement(context.spec);
    auto layout = ws::SpareLayout::fromSpec(hw->wafer);
    if (!placed || !layout) {
        std::fprintf(stderr, "bench_defectsui: no placement\n");
        return 1;
    }
    context.snapshot = placed->snapshot;
    std::printf("WSE-3: %lld physical cores, Qwen3-32B bf16 on %d wafers\n",
                static_cast<long long>(layout->physicalCoreCount()), placed->devices);
    ws::PlacementCache placements; // as the controller's jobs share theirs
    for (double d0 : {0.0005, 0.002}) {
        ws::DefectEditor editor(*layout);
        const double editMs = medianMs(9, [&](int i) {
            editor.clear();
            editor.injectPoisson(d0, uint64_t(i + 1));
        });
        // An undo and a redo (each flips the edit's cores and remaps); ends with the draw applied.
        const double undoMs = medianMs(9,
                                       [&](int) {
                                           editor.undo();
                                           editor.redo();
                                       }) /
                              2;
        ws::DefectsOutcome last;
        const double jobMs = medianMs(5, [&](int) {
            last = ws::computeDefectsOutcome(context, context.spec.defects.withDevice(0, editor.defects()),
                                             editor.layout(), false, &placements);
        });
        std::printf("D0 %.4f/mm2: %lld dead, %lld capacity lost, S_max %.4f, %.4f -> %.4f ms/token (%d -> %d wafers)\n"
                    "  GUI-thread edit (draw + remap) %.1f ms, undo/redo %.1f ms, worker job %.1f ms (median)\n",
                    d0, static_cast<long long>(last.summary.deadCores),
                    static_cast<long long>(last.summary.capacityLostCores), last.hopStretch,
                    last.secondsPerTokenBefore * 1e3, last.secondsPerTokenAfter * 1e3, last.devicesBefore,
                    last.devicesAfter, editMs, undoMs, jobMs);
    }
    return 0;
}
