// The mesh engine (engine/wafer/mesh): one token of stories260K in values mode on its WSE-3 sub-mesh (the
// tiled executor's numbers, the dense decoder beside them, the mesh's events), and one Llama-3.1-70B layer on
// WSE-3 timing only (a full layer region of cores). Prints milliseconds and the peak resident memory; no
// assertions (targets: 20 ms per stories260K token, 1 s and 2 GB for the 70B layer). Then the 70B layer's run
// played as Dataflow frames (meshplayback.h): building the playback, and one frame's overlay for the whole wafer
// at 100 cycles through the layer with the dock's trail at 1 us a second (330 cycles), and the whole frame as the
// window makes it (overlay, image, MeshView paint at 1600 x 1000); target 8 ms a frame.
#include "app/common/allocator.h"
#include "engine/decode/decodemodel.h"
#include "engine/wafer/dataflow/meshframe.h"
#include "engine/wafer/mesh/meshplayback.h"
#include "engine/wafer/mesh/meshvalues.h"
#include "engine/wafer/placement/meshsnapshotbuilder.h"
#include "engine/wafer/placement/placer.h"
#include "tests/common/presetfixture.h"
#include "views/mesh/meshimage.h"
#include "views/mesh/meshview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <utility>

using namespace ws;

namespace {
// User and system CPU seconds so far (system time here is mostly first-touch page faults).
std::pair<double, double> cpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return {double(u.ru_utime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec),
            double(u.ru_stime.tv_sec) + 1e-6 * double(u.ru_stime.tv_usec)};
}

double peakResidentMiB()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0; // KiB on Linux
}
} // namespace

int main(int argc, char** argv)
{
    ws::keepLargeBuffersMapped(); // as the app's main does: every frame's images mapped and handed back alike
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv); // the whole frame's paint, last
    const HardwareSpec wse3 = wstest::hardwarePreset(QStringLiteral("wse3"));
    const MeshParams params = MeshParams::fromHardware(wse3.wafer);

    const std::string path = wstest::testModelPath(QStringLiteral("stories260K/stories260K.gguf")).toStdString();
    auto model = DecodeModel::load(path);
    if (!model) {
        std::printf("stories260K: %s\n", model.error().message().c_str());
    } else {
        const int context = 64;
        PlacementOptions o;
        o.precision = Precision::Fp32;
        o.contextTokens = context;
        o.fitSubMesh = true;
        auto placement = placeModel(model->modelConfig(), wse3.wafer, o);
        auto values = placement ? MeshValues::create(*placement, *model, params, context)
                                : Expected<MeshValues>(placement.error());
        if (!values) {
            std::printf("stories260K: %s\n", values.error().message().c_str());
            return 1;
        }
        const int steps = 16;
        TokenId token = 1;
        QElapsedTimer timer;
        timer.start();
        double cycles = 0;
        size_t events = 0;
        for (int pos = 0; pos < steps; ++pos) {
            auto s = values->step(token, pos);
            if (!s) {
                std::printf("stories260K: %s\n", s.error().message().c_str());
                return 1;
            }
            token = s->engineId;
            cycles = s->run.totalCycles;
            events = s->run.fabric->events().size();
        }
        const double stepMs = timer.nsecsElapsed() * 1e-6 / steps;
        // The mesh events alone, at the last position's context.
        MeshOptions mo;
        mo.context = steps;
        timer.restart();
        for (int i = 0; i < steps; ++i)
            (void)executeMeshToken(*placement, model->modelConfig(), params, mo);
        const double meshMs = timer.nsecsElapsed() * 1e-6 / steps;
        long long cores = 0;
        for (const PlacedRegion& r : placement->regions)
            cores += r.rect.cores();
        std::printf("stories260K values mode on wse3 (%lld cores in its regions): %.2f ms per token "
                    "(mesh events alone %.2f ms; %zu events, %.0f cycles)\n",
                    cores, stepMs, meshMs, events, cycles);
    }

    const ModelConfig llama70 = wstest::modelPreset(QStringLiteral("llama-3.1-70b"));
    PlacementOptions o;
    o.precision = Precision::Bf16;
    o.contextTokens = 8192;
    auto placement = placeModel(llama70, wse3.wafer, o);
    if (!placement) {
        std::printf("llama-3.1-70b: %s\n", placement.error().message().c_str());
        return 1;
    }
    const double before = peakResidentMiB();
    MeshOptions mo;
    mo.context = 4096;
    mo.layer = 5;
    QElapsedTimer timer;
    timer.start();
    const auto cpuBefore = cpuSeconds();
    auto run = executeMeshToken(*placement, llama70, params, mo);
    const double ms = timer.nsecsElapsed() * 1e-6;
    const auto cpuAfter = cpuSeconds();
    const double userMs = 1e3 * (cpuAfter.first - cpuBefore.first);
    const double systemMs = 1e3 * (cpuAfter.second - cpuBefore.second);
    if (!run) {
        std::printf("llama-3.1-70b: %s\n", run.error().message().c_str());
        return 1;
    }
    std::printf("llama-3.1-70b layer 5 on wse3, timing only: %.0f ms (CPU %.0f ms user, %.0f ms system), %zu "
                "cores, %zu events, %.0f cycles (closed forms %.0f); peak resident %.0f MiB (%.0f MiB before)\n",
                ms, userMs, systemMs, run->fabric->cores().size(), run->fabric->events().size(), run->totalCycles,
                run->closedFormCycles(), peakResidentMiB(), before);

    timer.restart();
    const auto playback = std::make_shared<const MeshPlayback>(std::make_shared<const MeshRun>(std::move(*run)));
    const double buildMs = timer.nsecsElapsed() * 1e-6;
    auto base = std::make_shared<MeshSnapshot>();
    base->meshCols = placement->fabricCols;
    base->meshRows = placement->fabricRows;
    base->deviceCount = 1;
    MeshFrame frame;
    frame.base = base;
    DataflowFrameOptions fo;
    fo.trailCycles = 330;
    const int frames = 100;
    double worstMs = 0;
    timer.restart();
    for (int i = 0; i < frames; ++i) {
        QElapsedTimer one;
        one.start();
        fo.cycle = playback->run().totalCycles * (i + 0.5) / frames;
        playback->fillFrame(frame, fo);
        worstMs = std::max(worstMs, one.nsecsElapsed() * 1e-6);
    }
    std::printf("its playback: built in %.0f ms; a frame's overlay (%d x %d cores, trail 330 cycles) %.2f ms on "
                "average over %d frames, %.2f ms at worst\n",
                buildMs, base->meshCols, base->meshRows, timer.nsecsElapsed() * 1e-6 / frames, frames, worstMs);

    // The whole frame as the window makes it from the engine's events: the overlay on the placement's own
    // snapshot, its image (prepareMeshFrame, the Dataflow layer at the view's fitted scale, what the window does
    // off the GUI thread) and the MeshView's paint into a 1600 x 1000 image (the GUI thread's part).
    const auto placed = std::make_shared<const MeshSnapshot>(buildMeshSnapshot(*placement));
    views::MeshView view;
    view.resize(1600, 1000);
    view.setSnapshot(placed);
    QImage target(view.size(), QImage::Format_ARGB32_Premultiplied);
    {
        // The window's view has painted before the Dataflow layer plays (the scenario opens on its SRAM layer), so
        // the frames are timed in a view that has: its first paint ever (fonts, the legend's glyphs) took 5-6 ms
        // against 2-3 for the next, and that is the process starting, not a frame of the stream.
        QPainter warm(&target);
        view.render(&warm);
    }
    view.setLayer(MeshLayer::Dataflow);
    std::vector<double> prepareMs, paintMs, wholeMs;
    std::vector<std::shared_ptr<MeshFrame>> pool;
    views::PreparedMeshFrame last, spare;
    for (int i = 0; i < frames; ++i) {
        QElapsedTimer one;
        one.start();
        // From a pool of frames, as the Dataflow dock takes them (DataflowController::render): a frame the view
        // no longer holds is filled again instead of allocated (and its pages faulted in) afresh.
        std::shared_ptr<MeshFrame> shown = reusableFrame(pool, 3);
        shown->base = placed;
        fo.cycle = playback->run().totalCycles * (i + 0.5) / frames;
        playback->fillFrame(*shown, fo);
        // In the images of the frame shown before the last, as PreparedFrames makes them (the view let go of them).
        views::PreparedMeshFrame prepared =
            views::prepareMeshFrame(shown, 0, MeshLayer::Dataflow, view.transform(), std::exchange(spare, {}));
        prepareMs.push_back(one.nsecsElapsed() * 1e-6);
        QElapsedTimer paint;
        paint.start();
        view.setPreparedFrame(prepared);
        spare = std::exchange(last, std::move(prepared));
        QPainter painter(&target);
        view.render(&painter);
        paintMs.push_back(paint.nsecsElapsed() * 1e-6);
        wholeMs.push_back(one.nsecsElapsed() * 1e-6);
    }
    const auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    const auto worst = [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); };
    std::printf("whole frame from its events at 1600 x 1000 (%.2f px per core): overlay and image %.2f ms median "
                "(%.2f worst), paint %.2f ms median (%.2f worst), together %.2f ms median, %.2f ms worst (target "
                "8 ms)\n",
                view.transform().scale, median(prepareMs), worst(prepareMs), median(paintMs), worst(paintMs),
                median(wholeMs), worst(wholeMs));
    // The first frames fill the pool of frames and the recycled images (new pages); from the third on, the stream
    // as it runs: its slowest frames are those whose overlay holds the most activity.
    const std::vector<double> running(wholeMs.begin() + 2, wholeMs.end());
    std::vector<double> sorted = running;
    std::sort(sorted.begin(), sorted.end());
    std::printf("  the first two frames %.2f and %.2f ms; from the third: p95 %.2f ms, worst %.2f ms\n", wholeMs[0],
                wholeMs[1], sorted[sorted.size() * 95 / 100], sorted.back());

    return 0;
}
