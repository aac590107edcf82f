// Measures recording speed: frames per second encoded for a full WSE-3 view at
// 1280 x 720 (the dataflow animation of Llama-3.1-8B placed on one WSE-3), for
// MP4 (H.264), WebM (VP9) and GIF, and the time to draw a frame. Encoding is
// timed on frames drawn beforehand; "end to end" runs the Recorder (drawing on
// this thread, encoding on its worker) as `waferscope-cli record` does.
// The machine may be shared: each figure is given per wall-clock second and
// per CPU second of this process (all its threads). Prints figures; asserts nothing.
#include "app/common/presetlibrary.h"
#include "app/record/framecomposer.h"
#include "app/record/recorder.h"
#include "app/record/videoencoder.h"
#include "app/scenario/scenarioscene.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>

#include <cstdio>
#include <ctime>
#include <vector>

namespace {

double cpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    constexpr int kFrames = 45;
    constexpr int kFps = 30;
    const QSize size(1280, 720);

    ws::Scenario scenario;
    scenario.modelPreset = QStringLiteral("llama-3.1-8b");
    scenario.hardwarePreset = QStringLiteral("wse3");
    const ws::PresetLibrary presets;
    QString error;
    const auto scene = ws::ScenarioScene::build(scenario, presets, {}, &error, true);
    if (!scene) {
        std::fprintf(stderr, "bench_record: %s\n", qPrintable(error));
        return 1;
    }
    std::printf("Recording benchmark: %s on %s, %d x %d cores, frames %d x %d, %d frames\n",
                scene->model().name.c_str(), scene->hardware().name.c_str(), scene->snapshot->meshCols,
                scene->snapshot->meshRows, size.width(), size.height(), kFrames);

    ws::FrameComposer composer(size, true);
    const auto draw = [&](int i) {
        const double fraction = double(i) / kFrames;
        const ws::TokenSchedule& schedule = *scene->timing->schedule;
        return composer.compose(ws::FrameComposer::tokenFrame(scene->snapshot, schedule, fraction, 0),
                                ws::MeshLayer::Dataflow, 0, ws::FrameComposer::activePhases(schedule, fraction),
                                {QStringLiteral("Why is the sky blue?"), {}, {}});
    };
    std::vector<QImage> frames;
    QElapsedTimer timer;
    timer.start();
    double cpu = cpuSeconds();
    for (int i = 0; i < kFrames; ++i)
        frames.push_back(draw(i));
    const double drawMs = timer.nsecsElapsed() / 1e6 / kFrames;
    const double drawCpuMs = (cpuSeconds() - cpu) * 1e3 / kFrames;
    std::printf("%-34s %8.2f ms per frame wall (%6.1f frames/s), %6.2f ms CPU (%6.1f frames per CPU s)\n",
                "draw frame (heatmap + chat panel)", drawMs, 1000.0 / drawMs, drawCpuMs, 1000.0 / drawCpuMs);

    QTemporaryDir dir;
    const struct
    {
        ws::VideoFormat format;
        const char* name;
        const char* file;
    } formats[] = {{ws::VideoFormat::Mp4, "MP4 (H.264)", "a.mp4"},
                   {ws::VideoFormat::WebM, "WebM (VP9)", "a.webm"},
                   {ws::VideoFormat::Gif, "GIF", "a.gif"}};
    for (const auto& f : formats) {
        ws::VideoEncoder encoder;
        timer.restart();
        cpu = cpuSeconds();
        bool ok = encoder.open(dir.filePath(QString::fromLatin1(f.file)), ws::VideoSettings{f.format, size, kFps});
        for (const QImage& frame : frames)
            ok = ok && encoder.addFrame(frame);
        ok = ok && encoder.finish();
        const double seconds = timer.nsecsElapsed() / 1e9;
        const double cpuUsed = cpuSeconds() - cpu;
        if (!ok) {
            std::fprintf(stderr, "bench_record: %s\n", qPrintable(encoder.errorString()));
            return 1;
        }
        std::printf("encode %-27s %8.1f frames/s wall, %6.1f frames per CPU s (%d frames, %lld KiB)\n", f.name,
                    kFrames / seconds, kFrames / cpuUsed, kFrames,
                    QFileInfo(dir.filePath(QString::fromLatin1(f.file))).size() / 1024);
    }
    for (const auto& f : formats) {
        ws::Recorder recorder;
        timer.restart();
        cpu = cpuSeconds();
        if (!recorder.record(dir.filePath(QStringLiteral("r_") + QString::fromLatin1(f.file)),
                             ws::VideoSettings{f.format, size, kFps}, kFrames, draw)) {
            std::fprintf(stderr, "bench_record: %s\n", qPrintable(recorder.errorString()));
            return 1;
        }
        const double seconds = timer.nsecsElapsed() / 1e9;
        std::printf("end to end (draw + encode) %-8s %8.1f frames/s wall, %6.1f frames per CPU s\n", f.name,
                    kFrames / seconds, kFrames / (cpuSeconds() - cpu));
    }
    return 0;
}
