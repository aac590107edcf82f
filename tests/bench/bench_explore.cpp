// Layout explorer benchmark: a hand edit of llama-3.1-70b on 4 WSE-3 wafers to the updated heatmap snapshot and
// prediction (target: under 100 ms), a 1,000-point sweep (target: under 2 s) and the optimiser's time for three
// models. Prints figures; asserts nothing.
#include "engine/explore/layoutoptimizer.h"
#include "engine/explore/layoutsweep.h"
#include "engine/predict/waferpredictor.h"
#include "engine/wafer/placement/layoutedit.h"
#include "engine/wafer/placement/meshsnapshotbuilder.h"

#include "tests/common/presetfixture.h"

#include <chrono>
#include <cstdio>

namespace {
double msSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
} // namespace

int main()
{
    const ws::ScenarioSpec b70 = wstest::sweepBase("llama-3.1-70b");
    ws::Layout layout;
    if (!ws::predictPlaced(b70, nullptr, &layout)) {
        std::fprintf(stderr, "cannot place llama-3.1-70b\n");
        return 1;
    }
    // One edit: swap two layers, place and check conservation, update the heatmap's snapshot from the one before
    // the edit (updateMeshSnapshot: only the edited regions' cores), predict again.
    auto before = ws::applyLayout(b70.model, b70.hardware, layout);
    if (!before) {
        std::fprintf(stderr, "cannot apply llama-3.1-70b's layout: %s\n", before.error().text.c_str());
        return 1;
    }
    const ws::MeshSnapshot beforeSnapshot = ws::buildMeshSnapshot(*before->placement);
    // The window writes each edit's snapshot into the buffers of one it no longer shows (LayoutEditController).
    ws::MeshSnapshot spare = beforeSnapshot;
    double worst = 0, total = 0, placeMs = 0, snapshotMs = 0, predictMs = 0, fullMs = 0, freshMs = 0;
    bool same = true;
    const int edits = 10;
    for (int i = 0; i < edits; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        auto edited = ws::swapLayers(layout, i, 79 - i);
        auto applied =
            edited ? ws::applyLayout(b70.model, b70.hardware, *edited) : ws::Expected<ws::PlacedLayout>(edited.error());
        if (!applied) {
            std::fprintf(stderr, "edit refused: %s\n", applied.error().text.c_str());
            return 1;
        }
        const double placed = msSince(t0);
        ws::updateMeshSnapshotInto(spare, beforeSnapshot, *before->placement, *applied->placement);
        const ws::MeshSnapshot& snapshot = spare;
        const double snapped = msSince(t0);
        ws::WaferPredictOptions o;
        o.placedLayout = &applied->layout;
        auto p = ws::predictWafer(b70.model, b70.hardware, b70.workload, o);
        const double ms = msSince(t0);
        if (!p) {
            std::fprintf(stderr, "prediction failed: %s\n", p.error().text.c_str());
            return 1;
        }
        const auto tFresh = std::chrono::steady_clock::now();
        same = same && ws::updateMeshSnapshot(beforeSnapshot, *before->placement, *applied->placement) == snapshot;
        freshMs += msSince(tFresh);
        const auto tFull = std::chrono::steady_clock::now();
        same = same && ws::buildMeshSnapshot(*applied->placement) == snapshot;
        fullMs += msSince(tFull);
        placeMs += placed;
        snapshotMs += snapped - placed;
        predictMs += ms - snapped;
        worst = std::max(worst, ms);
        total += ms;
        if (i == 0)
            std::printf("edit (swap layers 0 and 79) of llama-3.1-70b on %d WSE-3: %.4f ms per token after, %d cores "
                        "in the snapshot\n",
                        applied->placement->deviceCount, 1e3 * p->secondsPerToken,
                        snapshot.meshCols * snapshot.meshRows * snapshot.deviceCount);
    }
    std::printf("edit to updated heatmap snapshot and prediction: mean %.1f ms, worst %.1f ms over %d edits (target < "
                "100 ms)\n",
                total / edits, worst, edits);
    std::printf("  of which: edit, place and conservation %.1f ms, snapshot update (edited regions, into a spare "
                "snapshot's buffers) %.1f ms, "
                "prediction %.1f ms\n",
                placeMs / edits, snapshotMs / edits, predictMs / edits);
    std::printf("  the update into fresh memory instead (updateMeshSnapshot: the unchanged wafers' copy faults in "
                "new pages): %.1f ms\n",
                freshMs / edits);
    std::printf("  the whole snapshot rebuilt instead (every wafer, as before the incremental update): %.1f ms; "
                "update equal to it: %s\n",
                fullMs / edits, same ? "yes" : "NO");

    {
        auto edited = ws::applyLayout(b70.model, b70.hardware, *ws::swapLayers(layout, 0, 1));
        const auto t0 = std::chrono::steady_clock::now();
        const ws::MeshSnapshot one = ws::buildMeshSnapshot(*edited->placement, 0, 1);
        std::printf("  the shown wafer's snapshot alone (device 0 of %d): %.1f ms\n", edited->placement->deviceCount,
                    msSince(t0));
    }

    const ws::ScenarioSpec b8 = wstest::sweepBase("llama-3.1-8b");
    std::vector<ws::SweepAxis> axes{*ws::parseSweepAxis("concurrency=1:100:1"),
                                    *ws::parseSweepAxis("order=snake,row-major,column-major,snake,row-major,"
                                                        "column-major,snake,row-major,column-major,snake")};
    auto t0 = std::chrono::steady_clock::now();
    auto sweep = ws::runSweep(b8, axes);
    std::printf("sweep of %lld points (llama-3.1-8b, concurrency x order): %.0f ms (target < 2000 ms)\n",
                static_cast<long long>(sweep ? sweep->points.size() : 0), msSince(t0));
    t0 = std::chrono::steady_clock::now();
    auto sweep70 = ws::runSweep(b70, {*ws::parseSweepAxis("concurrency=1:1000:1")});
    std::printf("sweep of %lld points (llama-3.1-70b on 4 WSE-3, concurrency): %.0f ms\n",
                static_cast<long long>(sweep70 ? sweep70->points.size() : 0), msSince(t0));

    for (const char* model : {"llama-3.1-70b", "qwen3-32b", "llama-3.1-8b"}) {
        t0 = std::chrono::steady_clock::now();
        auto r = ws::optimizeLayout(wstest::sweepBase(model));
        const double ms = msSince(t0);
        if (!r) {
            std::fprintf(stderr, "%s: %s\n", model, r.error().text.c_str());
            continue;
        }
        std::printf(
            "optimize %s on wse3: %.0f ms, %d candidates; %.4f -> %.4f ms per token (%s, fill %.2f) on %d wafers\n",
            model, ms, r->candidates, r->defaultMsPerToken, r->bestMsPerToken, ws::layerOrderId(r->best.order),
            r->best.weightFill, r->bestWafers);
    }
    return 0;
}
