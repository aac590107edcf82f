// How smoothly Present mode plays: the real MainWindow at 1920 x 1080
// (offscreen, the window's size rather than full screen, which offscreen
// makes 800 x 600) with the default scenario placed presents the first
// shipped tour in real time, from the start again (Home) each time it ends,
// for a given time. Every paint of the main heatmap is timed (how long the
// paint took) and so is the gap between one paint's start and the next (the
// frame time a viewer sees); a 1 ms timer on the GUI thread records how late
// each tick comes (the event-loop delay). Prints the median, 99th percentile
// and worst of each, frames/s sustained and the load average. The frames are
// also counted by what the tour was doing: playing tokens (the picture moves,
// so its frames/s is the one to judge against 60), a still step (a caption or
// a wait: nothing moves and nothing needs painting) and everything else (a
// scenario being placed, instant steps, the start again), each with its
// event-loop delay. After the tour time, leaving Present mode and presenting
// again (a viewer's Esc and F11, a second apart: the whole window laid out
// twice) are timed on their own, with the dispatches their late ticks waited
// behind. The slowest GUI-thread dispatches are printed with the tour step
// they came in and the widgets they painted (tests/bench/timedapplication.h,
// the probe bench_session uses). The window has the application's style and
// palette (applyTheme), as the app starts. The targets (issue 30) are 60 frames/s and a
// worst delay under 16 ms; this measures and prints, and asserts nothing.
//
//   bench_present [seconds]          (default 60, or WAFERSCOPE_BENCH_SECONDS)
#include "app/common/allocator.h"
#include "app/common/languagemanager.h"
#include "app/common/presetlibrary.h"
#include "app/present/presentationmode.h"
#include "app/present/tourplayer.h"
#include "app/stage/stage.h"
#include "app/window/mainwindow.h"
#include "app/window/theme.h"
#include "tests/bench/timedapplication.h"

#include <QElapsedTimer>
#include <QEvent>
#include <QEventLoop>
#include <QFile>
#include <QSignalSpy>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

// What the tour is doing when a frame is painted.
enum Activity
{
    Moving, // a play or race step: tokens move across the wafer, or the race runs
    Still,  // a caption or wait step: the picture stands still
    Other,  // placing a scenario, instant steps, from the start again
    Switch, // leaving Present mode and presenting again (after the tour time)
    ActivityCount
};
const char* const kActivityNames[ActivityCount] = {"moving (play, race)", "still (caption, wait)",
                                                   "other (placing, instant)", "leave and present"};

// Times the paints one widget receives, by activity, on top of the shared dispatch probe.
class PaintTimingApplication : public wsbench::TimedApplication
{
public:
    using TimedApplication::TimedApplication;
    QObject* watched = nullptr;
    QElapsedTimer clock;
    Activity activity = Other;
    std::vector<double> paintMs;                   // how long each paint took
    std::vector<double> intervalMs[ActivityCount]; // start of one paint to the start of the next, by activity
    int frames[ActivityCount] = {};                // paints, by the activity at their start
    double seconds[ActivityCount] = {};            // time spent in each activity
    qint64 activitySince = 0;
    qint64 lastStart = -1;

    void setActivity(Activity next)
    {
        const qint64 now = clock.isValid() ? clock.nsecsElapsed() : 0;
        seconds[activity] += double(now - activitySince) / 1e9;
        activitySince = now;
        activity = next;
    }
    bool notify(QObject* receiver, QEvent* event) override
    {
        if (receiver != watched || event->type() != QEvent::Paint || !clock.isValid())
            return TimedApplication::notify(receiver, event);
        const qint64 start = clock.nsecsElapsed();
        const bool result = TimedApplication::notify(receiver, event);
        paintMs.push_back(double(clock.nsecsElapsed() - start) / 1e6);
        ++frames[activity];
        if (lastStart >= 0)
            intervalMs[activity].push_back(double(start - lastStart) / 1e6);
        lastStart = start;
        return result;
    }
};

struct Figures
{
    double median = 0;
    double p99 = 0;
    double worst = 0;
};

Figures figuresOf(std::vector<double> values)
{
    if (values.empty())
        return {};
    std::sort(values.begin(), values.end());
    return {values[values.size() / 2], values[size_t(double(values.size() - 1) * 0.99)], values.back()};
}

QByteArray loadAverage()
{
    QFile file(QStringLiteral("/proc/loadavg"));
    return file.open(QIODevice::ReadOnly) ? file.readAll().trimmed() : QByteArray("unknown");
}

} // namespace

int main(int argc, char** argv)
{
    ws::keepLargeBuffersMapped(); // as the app's main does: every frame's images mapped and handed back alike
    qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
    PaintTimingApplication app(argc, argv);
    ws::applyTheme(app); // the application's style and palette, as the app starts
    const QByteArray fromEnv = qgetenv("WAFERSCOPE_BENCH_SECONDS");
    const double seconds = argc > 1 ? std::atof(argv[1]) : fromEnv.isEmpty() ? 60.0 : fromEnv.toDouble();

    const ws::PresetLibrary presets;
    ws::LanguageManager languages;
    ws::MainWindow window(presets, languages);
    window.resize(1920, 1080);
    QSignalSpy placed(&window, &ws::MainWindow::placementFinished);
    window.ensurePlacement();
    if (!placed.wait(120000) || !placed.at(0).at(0).toBool()) {
        std::fprintf(stderr, "bench_present: the default scenario was not placed\n");
        return 1;
    }
    window.show();
    auto* presentation = window.findChild<ws::PresentationMode*>();
    if (!presentation) {
        std::fprintf(stderr, "bench_present: no presentation mode\n");
        return 1;
    }
    presentation->setFullScreen(false);
    int tours = 0;
    QString error;
    std::function<bool()> present = [&] {
        if (!presentation->present(presentation->tourPath(), &error))
            return false;
        ++tours;
        ws::TourPlayer* player = presentation->player();
        QObject::connect(player, &ws::TourPlayer::stepChanged, presentation, [&app, player](int index) {
            const ws::TourStep& step = player->tour().steps[size_t(index)];
            const bool moving = step.kind == ws::TourStepKind::Play || step.kind == ws::TourStepKind::Race;
            const bool timed = ws::TourFormat::stepSeconds(step, 1.0) > 0;
            app.setActivity(moving ? Moving : timed ? Still : Other);
        });
        QObject::connect(player, &ws::TourPlayer::finished, presentation, [&, player] {
            app.setActivity(Other);
            // From the start again, in Present mode (Home, as a booth's loop would): the tour's own figures.
            // Leaving and presenting again are timed apart, after the tour time (switchModes).
            QTimer::singleShot(0, presentation, [&, player] {
                ++tours;
                player->restart();
            });
        });
        return true;
    };
    if (!present()) {
        std::fprintf(stderr, "bench_present: %s\n", qPrintable(error));
        return 1;
    }
    app.processEvents();
    std::printf("window %dx%d, heatmap %dx%d, tour %s, %.0f s\n", window.width(), window.height(),
                window.stage()->widget()->width(), window.stage()->widget()->height(),
                qPrintable(presentation->tourPath()), seconds);

    // The event-loop delay: how late a 1 ms timer's ticks come.
    std::vector<double> lateMs;
    std::vector<double> lateByActivity[ActivityCount];
    QElapsedTimer tickClock;
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    tick.setInterval(1);
    qint64 lastTick = 0;
    qint64 lastTickNs = wsbench::TimedApplication::nowNs();
    // The latest ticks (over 12 ms late), with the dispatches they waited behind.
    std::vector<std::pair<double, QByteArray>> lateTicks;
    QObject::connect(&tick, &QTimer::timeout, [&] {
        const qint64 now = tickClock.nsecsElapsed();
        lateMs.push_back(std::max(0.0, double(now - lastTick) / 1e6 - 1.0));
        lateByActivity[app.activity].push_back(lateMs.back());
        if (lateMs.back() > 12) {
            lateTicks.push_back({lateMs.back(), app.dispatchesSince(lastTickNs) + " during " + app.context()});
            std::sort(lateTicks.begin(), lateTicks.end(),
                      [](const auto& a, const auto& b) { return a.first > b.first; });
            if (lateTicks.size() > 6)
                lateTicks.pop_back();
        }
        lastTick = now;
        lastTickNs = wsbench::TimedApplication::nowNs();
    });
    // A slow dispatch names the step the tour was at when it ended (the step it entered, if it entered one).
    app.context = [presentation] {
        const ws::TourPlayer* player = presentation->player();
        if (!player)
            return QByteArray("no tour");
        const int index = player->stepIndex();
        const auto& steps = player->tour().steps;
        return QByteArray("step ") + QByteArray::number(index + 1) + " (" +
               (index < int(steps.size()) ? ws::TourFormat::kindId(steps[size_t(index)].kind).toUtf8()
                                          : QByteArray("end")) +
               ')';
    };
    app.watched = window.stage()->widget();
    app.keep = 8;
    app.reset();
    app.clock.start();
    tickClock.start();
    tick.start();
    QEventLoop loop;
    QTimer::singleShot(int(seconds * 1000), &loop, &QEventLoop::quit);
    loop.exec();
    app.setActivity(app.activity); // count the time of the activity in progress
    const double elapsed = double(app.clock.nsecsElapsed()) / 1e9;
    // Then a viewer's two key presses, Esc and F11, a second apart: leaving restores the whole window (menus,
    // toolbars, docks), presenting lays it out again and places the tour's scenario. Their delays are their own.
    const size_t switchFrom = lateMs.size();
    const auto tourSlowest = app.slowest;
    const double tourWorstCpuMs = app.worstCpuMs;
    const auto tourLateTicks = lateTicks;
    app.reset();
    lateTicks.clear();
    app.setActivity(Switch);
    QTimer::singleShot(0, presentation, [&] { presentation->leave(); });
    QTimer::singleShot(1000, presentation, [&] { present(); });
    QTimer::singleShot(3000, &loop, &QEventLoop::quit);
    loop.exec();
    tick.stop();
    app.setActivity(Switch);
    const Figures switchLate = figuresOf(std::vector<double>(lateMs.begin() + long(switchFrom), lateMs.end()));
    lateMs.resize(switchFrom);

    const Figures paint = figuresOf(app.paintMs);
    std::vector<double> allIntervals;
    for (const auto& intervals : app.intervalMs)
        allIntervals.insert(allIntervals.end(), intervals.begin(), intervals.end());
    const Figures frame = figuresOf(allIntervals);
    const Figures late = figuresOf(lateMs);
    std::printf("frames: %zu in %.1f s = %.1f frames/s sustained (tours started: %d)\n", app.paintMs.size(), elapsed,
                double(app.paintMs.size()) / elapsed, tours);
    std::printf("frame time (paint start to paint start): median %.2f ms, p99 %.2f ms, worst %.2f ms\n", frame.median,
                frame.p99, frame.worst);
    for (int a = 0; a < Switch; ++a) {
        const Figures f = figuresOf(app.intervalMs[a]);
        const Figures l = figuresOf(lateByActivity[a]);
        std::printf("  %-25s: %5d frames in %5.1f s = %5.1f frames/s; frame time median %.2f ms, p99 %.2f ms, "
                    "worst %.2f ms; event-loop delay p99 %.2f ms, worst %.2f ms\n",
                    kActivityNames[a], app.frames[a], app.seconds[a],
                    app.seconds[a] > 0 ? app.frames[a] / app.seconds[a] : 0.0, f.median, f.p99, f.worst, l.p99,
                    l.worst);
    }
    std::printf("paint duration: median %.2f ms, p99 %.2f ms, worst %.2f ms\n", paint.median, paint.p99, paint.worst);
    std::printf("event-loop delay in the tour (1 ms timer, %zu ticks): median %.2f ms, p99 %.2f ms, worst %.2f ms\n",
                lateMs.size(), late.median, late.p99, late.worst);
    std::printf("leaving and presenting again (Esc, then F11 a second later): event-loop delay worst %.2f ms, "
                "p99 %.2f ms\n",
                switchLate.worst, switchLate.p99);
    std::printf("the most GUI-thread CPU in one event dispatch in the tour: %.2f ms\n", tourWorstCpuMs);
    for (const auto& slow : tourSlowest)
        std::printf("  slow GUI dispatch: %.2f ms (%.2f ms CPU) in %s%s%s\n", slow.ms, slow.cpuMs,
                    slow.what.constData(), slow.paints.isEmpty() ? "" : "; paints: ", slow.paints.constData());
    for (const auto& [ms, behind] : tourLateTicks)
        std::printf("  tick %.2f ms late, behind: %s\n", ms, behind.constData());
    for (const auto& [ms, behind] : lateTicks)
        std::printf("  switch: tick %.2f ms late, behind: %s\n", ms, behind.constData());
    std::printf("leaving and presenting again, the slowest dispatches:\n");
    for (const auto& slow : app.slowest)
        std::printf("  slow GUI dispatch: %.2f ms (%.2f ms CPU) in %s%s%s\n", slow.ms, slow.cpuMs,
                    slow.what.constData(), slow.paints.isEmpty() ? "" : "; paints: ", slow.paints.constData());
    std::printf("load average: %s\n", loadAverage().constData());
    presentation->leave();
    return 0;
}
