// Measures MeshView frame time for a full WSE-3 wafer (762 x 1176 logical
// cores) in a 1600 x 1000 widget on the offscreen platform, and prints it.
// Target: under 8 ms per frame. Painting draws a cached image (one pixel per
// core) scaled; the image is rebuilt only when the snapshot, layer or device
// changes, so that cost is printed separately. No assertions: figures only.
#include "tests/views/syntheticsnapshot.h"
#include "views/mesh/meshimage.h"
#include "views/mesh/meshraster.h"
#include "views/mesh/meshview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

namespace {

struct Stats
{
    double medianMs = 0;
    double worstMs = 0;
    double cpuMs = 0; // process CPU time per run (all threads), robust against a loaded machine
};

double processCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

template <typename F> Stats measure(int runs, F&& f)
{
    std::vector<double> ms;
    const double cpu0 = processCpuMs();
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        f(i);
        ms.push_back(t.nsecsElapsed() / 1e6);
    }
    const double cpu = (processCpuMs() - cpu0) / runs;
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms.back(), cpu};
}

void print(const char* what, const Stats& s)
{
    std::printf("%-58s median %7.2f ms   worst %7.2f ms   cpu %7.2f ms\n", what, s.medianMs, s.worstMs, s.cpuMs);
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    constexpr int cols = 762;
    constexpr int rows = 1176;
    const auto snapshot = ws::testing::makeSyntheticSnapshot(cols, rows, 2, 36, 7, 12);
    std::printf("MeshView benchmark: %d x %d cores (%d per wafer), 2 wafers, widget 1600 x 1000\n", cols, rows,
                cols * rows);

    print("build image, SRAM layer (per snapshot/layer change)",
          measure(20, [&](int) { (void)ws::views::buildMeshImage(*snapshot, 0, ws::MeshLayer::SramOccupancy); }));
    print("build image, placement layer",
          measure(20, [&](int) { (void)ws::views::buildMeshImage(*snapshot, 0, ws::MeshLayer::WeightPlacement); }));

    ws::views::MeshView view;
    view.resize(1600, 1000);
    view.setSnapshot(snapshot);
    QImage target(view.size(), QImage::Format_ARGB32_Premultiplied);
    auto frame = [&](int) {
        QPainter p(&target);
        view.render(&p);
    };

    frame(0); // first frame builds the reduced copy for the fitted scale
    std::printf("fitted scale: %.3f px per core\n", view.transform().scale);
    const Stats fitted = measure(100, frame);
    print("frame, fitted (whole wafer, dies, region labels, legend)", fitted);

    view.zoomIn();
    frame(0);
    print("frame, 1.25x fit (still below 1 px per core)", measure(100, frame));

    view.fitToWindow();
    print("frame while zooming below 1 px per core (reduce each frame)", measure(20, [&](int i) {
              if (i % 2)
                  view.zoomOut();
              else
                  view.zoomIn();
              frame(i);
          }));

    while (view.transform().scale < 8)
        view.zoomIn();
    std::printf("zoomed scale: %.2f px per core (grid shown)\n", view.transform().scale);
    print("frame, zoomed in (grid lines)", measure(100, frame));

    while (view.transform().scale < 50)
        view.zoomIn();
    std::printf("zoomed scale: %.2f px per core (per-core values shown)\n", view.transform().scale);
    print("frame, zoomed far in (grid and per-core values)", measure(100, frame));

    view.fitToWindow();
    view.setLayer(ws::MeshLayer::WeightPlacement);
    frame(0);
    print("frame, fitted, placement layer", measure(100, frame));

    // Present mode: the portrait wafer turned a quarter to fill the landscape view (above 1 px a core here, so the
    // raster reads the wafer's image a column at a time).
    view.setTurnToFit(true);
    view.fitToWindow();
    frame(0);
    std::printf("turned to fit: %.2f px per core\n", view.transform().scale);
    print("frame, turned to fit (Present mode), placement layer", measure(100, frame));
    // The raster alone (what a frame made off the GUI thread carries, or a paint at a new zoom makes): the turned
    // view against the same view upright, at the same scale.
    {
        const QImage cores =
            ws::views::buildMeshImage(*snapshot, 0, ws::MeshLayer::WeightPlacement,
                                      ws::views::meshLayerRange(*snapshot, ws::MeshLayer::WeightPlacement));
        ws::views::ViewTransform turned = view.transform();
        ws::views::ViewTransform upright = turned;
        upright.turned = false;
        upright.viewPx = upright.viewPx.transposed();
        upright.offsetPx = QPointF(upright.offsetPx.y(), upright.offsetPx.x());
        QImage raster;
        print("raster alone, turned (Present mode)",
              measure(50, [&](int) { ws::views::rasterizeMesh(cores, turned, 0, 0, raster); }));
        print("raster alone, upright, same scale",
              measure(50, [&](int) { ws::views::rasterizeMesh(cores, upright, 0, 0, raster); }));
        // What a turned view does now: the image turned once (turnMesh), each raster read from that copy.
        QImage copy;
        print("turnMesh (the image a quarter turn, once per image)",
              measure(50, [&](int) { ws::views::turnMesh(cores, copy); }));
        print("raster alone, turned, read from turnMesh's copy",
              measure(50, [&](int) { ws::views::rasterizeMesh(cores, turned, 0, 0, raster, {}, copy); }));
    }

    std::printf("RESULT fitted frame median %.2f ms wall, %.2f ms CPU (target < 8 ms)\n", fitted.medianMs,
                fitted.cpuMs);
    return 0;
}
