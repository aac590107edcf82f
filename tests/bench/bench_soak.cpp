// Soak: a long demo compressed, in four runs (the first argument picks one; `all` runs them in turn):
//
//   bench_soak chat [tokens=10000] [frames=10000] [model.gguf]
//       The real main window (offscreen) streams chat tokens through its ChatController and RunController
//       (worker thread, GeneratorSessionModel on stories260K from WAFERSCOPE_TEST_MODELS, or the file named;
//       the synthetic models of engine/gguf/syntheticmodel.h have no tokenizer, so the chat cannot run on one)
//       interleaved with dataflow frames through the main MeshView: one chat turn, then a slice of frames.
//   bench_soak frames [frames=100000]
//       The Dataflow animation alone: DataflowController -> MeshView::setFrame -> paint, frame after frame.
//   bench_soak tour [minutes=30]
//       The first shipped tour in presentation mode, looping (leave and present again at its end), for that
//       many minutes of tour time on the test's clock (advance(0.5) a turn, as tst_tourwindow does).
//   bench_soak open [cycles=1000]
//       Scenario files opened and closed (File > Open, File > New), two scenarios in turn, each placed.
//
// Each run samples, after a warm-up (caches, pools, fonts, glyphs), the resident set (/proc/self/statm),
// the heap in use (glibc mallinfo2), the live count of C++ allocations (this program's operator new/delete
// count them), open file descriptors (/proc/self/fd) and threads (/proc/self/status), and prints them with
// the mean RSS of the first and the last quarter of the samples. Targets: RSS grows by less than 5 % from
// the first quarter to the last; descriptors and threads do not grow. Measures and prints; asserts nothing.
#include "app/common/allocator.h"
#include "app/common/languagemanager.h"
#include "app/common/presetlibrary.h"
#include "app/dataflow/dataflowcontroller.h"
#include "app/dataflow/dataflowdock.h"
#include "app/present/presentationmode.h"
#include "app/present/tourformat.h"
#include "app/present/tourplayer.h"
#include "app/session/chatcontroller.h"
#include "app/session/livewafer.h"
#include "app/session/runcontroller.h"
#include "app/stage/stage.h"
#include "app/window/filemenucontroller.h"
#include "app/window/mainwindow.h"
#include "engine/session/sessionsnapshot.h"
#include "tests/common/testmodels.h"
#include "views/chat/chatpane.h"
#include "views/mesh/meshview.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QImage>
#include <QPainter>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <new>
#include <vector>

#include <malloc.h>
#include <unistd.h>

namespace {

std::atomic<long long> g_allocations{0};
std::atomic<long long> g_frees{0};

} // namespace

void* operator new(std::size_t size)
{
    void* p = std::malloc(size ? size : 1);
    if (!p)
        throw std::bad_alloc();
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    return p;
}
void* operator new[](std::size_t size)
{
    return ::operator new(size);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept
{
    void* p = std::malloc(size ? size : 1);
    if (p)
        g_allocations.fetch_add(1, std::memory_order_relaxed);
    return p;
}
void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept
{
    return ::operator new(size, tag);
}
void operator delete(void* p) noexcept
{
    if (p)
        g_frees.fetch_add(1, std::memory_order_relaxed);
    std::free(p);
}
void operator delete[](void* p) noexcept
{
    ::operator delete(p);
}
void operator delete(void* p, std::size_t) noexcept
{
    ::operator delete(p);
}
void operator delete[](void* p, std::size_t) noexcept
{
    ::operator delete(p);
}

namespace {

struct Sample
{
    long long tokens = 0; // chat: tokens so far; tour: tour seconds; open: cycles
    int frames = 0;
    int fds = 0;
    int threads = 0;
    double rssMiB = 0;
    double heapMiB = 0;
    long long liveAllocations = 0;
    long long allocations = 0;
};

Sample sample(long long tokens, int frames)
{
    Sample s;
    s.tokens = tokens;
    s.frames = frames;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
        long long size = 0, resident = 0;
        if (std::fscanf(f, "%lld %lld", &size, &resident) == 2)
            s.rssMiB = double(resident) * double(::sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
        std::fclose(f);
    }
    s.fds = int(QDir(QStringLiteral("/proc/self/fd")).entryList(QDir::Files | QDir::System).size());
    if (FILE* f = std::fopen("/proc/self/status", "r")) {
        char line[256];
        while (std::fgets(line, sizeof line, f))
            if (std::strncmp(line, "Threads:", 8) == 0)
                s.threads = std::atoi(line + 8);
        std::fclose(f);
    }
    const struct mallinfo2 m = ::mallinfo2();
    s.heapMiB = double(m.uordblks + m.hblkhd) / (1024.0 * 1024.0);
    s.allocations = g_allocations.load();
    s.liveAllocations = s.allocations - g_frees.load();
    return s;
}

void print(const char* what, const Sample& s)
{
    std::printf("  %-9s %6lld  frames %6d  RSS %8.1f MiB  heap %8.1f MiB  live C++ allocations %9lld (%lld made)"
                "  fds %3d  threads %3d\n",
                what, s.tokens, s.frames, s.rssMiB, s.heapMiB, s.liveAllocations, s.allocations, s.fds, s.threads);
}

double percent(double from, double to)
{
    return from > 0 ? (to - from) / from * 100.0 : 0.0;
}

// Runs the event loop until `done` or `seconds` pass; false on timeout.
template <typename F> bool waitFor(F&& done, double seconds)
{
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > qint64(seconds * 1000))
            return false;
        QEventLoop loop;
        QTimer::singleShot(5, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return true;
}

// The samples after the warm-up: their first and last quarter's mean RSS, the peak, descriptors and threads.
void report(const char* run, const std::vector<Sample>& all, size_t warmup, double seconds, const char* unit)
{
    if (all.size() <= warmup) {
        std::printf("bench_soak %s: too few samples (%zu)\n", run, all.size());
        return;
    }
    const std::vector<Sample> samples(all.begin() + std::ptrdiff_t(warmup), all.end());
    const size_t quarter = std::max<size_t>(1, samples.size() / 4);
    auto meanRss = [&](size_t from, size_t count) {
        double sum = 0;
        for (size_t i = from; i < from + count; ++i)
            sum += samples[i].rssMiB;
        return sum / double(count);
    };
    const double first = meanRss(0, quarter);
    const double last = meanRss(samples.size() - quarter, quarter);
    const Sample& start = samples.front();
    const Sample& end = samples.back();
    const Sample peak = *std::max_element(samples.begin(), samples.end(),
                                          [](const Sample& a, const Sample& b) { return a.rssMiB < b.rssMiB; });
    std::printf("bench_soak %s: %zu samples after a warm-up of %zu, in %.1f s (first column: %s)\n", run,
                samples.size(), warmup, seconds, unit);
    const size_t step = std::max<size_t>(1, samples.size() / 8);
    for (size_t i = 0; i < samples.size(); i += step)
        print("", samples[i]);
    print("start", start);
    print("peak", peak);
    print("end", end);
    std::printf("RESULT %s: RSS start %.1f, peak %.1f, end %.1f MiB; mean of the first quarter %.1f -> last quarter "
                "%.1f MiB (%+.2f%%, target < +5%%); heap %+.2f%%; live C++ allocations %+lld; fds %d -> %d; "
                "threads %d -> %d\n",
                run, start.rssMiB, peak.rssMiB, end.rssMiB, first, last, percent(first, last),
                percent(start.heapMiB, end.heapMiB), end.liveAllocations - start.liveAllocations, start.fds, end.fds,
                start.threads, end.threads);
    std::fflush(stdout);
}

struct Soak
{
    ws::MainWindow& window;
    ws::DataflowController* dataflow = nullptr;
    QImage target;
    int frames = 0;

    // `count` dataflow frames put in the main view and painted.
    void playFrames(int count)
    {
        const ws::views::MeshView* view = window.stage()->view();
        for (int i = 0; i < count; ++i, ++frames) {
            dataflow->seekFraction(double(frames % 997) / 997.0); // the frame goes to the view (setFrame)
            if (target.size() != view->size())
                target = QImage(view->size(), QImage::Format_ARGB32_Premultiplied);
            QPainter painter(&target);
            window.stage()->widget()->render(&painter);
            if (frames % 50 == 0)
                QCoreApplication::processEvents();
        }
    }

    bool settle(double seconds = 300)
    {
        return waitFor([&] { return !window.isBusy() && window.result(); }, seconds);
    }
};

int runChat(Soak& soak, long long tokenTarget, int frameTarget, const QString& modelPath)
{
    QApplication* app = qApp;
    ws::ChatController* chat = soak.window.chat();
    bool loaded = false;
    QString loadError;
    QObject::connect(chat->runController(), &ws::RunController::modelLoaded, app, [&] { loaded = true; });
    QObject::connect(chat->runController(), &ws::RunController::modelLoadFailed, app,
                     [&](const QString& e) { loadError = e; });
    chat->openModelFile(modelPath);
    if (!waitFor([&] { return loaded || !loadError.isEmpty(); }, 60) || !loaded) {
        std::fprintf(stderr, "bench_soak: cannot load %s: %s\n", qPrintable(modelPath), qPrintable(loadError));
        return 1;
    }
    chat->liveWafer()->setSlowMotion(false); // the scenario system's own pace, not the demo's slow motion
    ws::views::ChatSettings settings = chat->pane()->settings();
    settings.mode = ws::PromptMode::Completion;
    settings.maxTokens = 250; // stories260K has 512 tokens of context: each turn is a fresh story
    settings.paceSystemId.clear();
    chat->pane()->setSettings(settings);

    long long tokens = 0;
    int turns = 0;
    bool turnDone = false;
    QString runError;
    QObject::connect(chat->runController(), &ws::RunController::runFinished, app,
                     [&](std::shared_ptr<const ws::SessionSnapshot> s) {
                         tokens += s->generatedTokens;
                         ++turns;
                         turnDone = true;
                     });
    QObject::connect(chat->runController(), &ws::RunController::runFailed, app, [&](quint64, const QString& e) {
        runError = e;
        turnDone = true;
    });

    // One chat turn (a new conversation each time, as after Clear), then a slice of frames.
    const int framesPerTurn =
        int(std::max<long long>(1, frameTarget * settings.maxTokens / std::max(1LL, tokenTarget)));
    std::vector<Sample> samples;
    QElapsedTimer clock;
    clock.start();
    const int firstFrame = soak.frames;
    while ((tokens < tokenTarget || soak.frames - firstFrame < frameTarget) && runError.isEmpty()) {
        if (tokens < tokenTarget) {
            chat->pane()->clear();
            turnDone = false;
            chat->pane()->send(QStringLiteral("Once upon a time"));
            if (!waitFor([&] { return turnDone; }, 120)) {
                std::fprintf(stderr, "bench_soak: a turn did not finish\n");
                return 1;
            }
        }
        soak.playFrames(std::min(framesPerTurn, frameTarget - (soak.frames - firstFrame)));
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        samples.push_back(sample(tokens, soak.frames));
    }
    if (!runError.isEmpty()) {
        std::fprintf(stderr, "bench_soak: a turn failed: %s\n", qPrintable(runError));
        return 1;
    }
    std::printf("bench_soak chat: %lld tokens in %d turns of up to %d (%s), %d frames of %d between turns\n", tokens,
                turns, settings.maxTokens, qPrintable(QFileInfo(modelPath).fileName()), soak.frames - firstFrame,
                framesPerTurn);
    report("chat", samples, 3, clock.elapsed() / 1000.0, "tokens");
    return 0;
}

int runFrames(Soak& soak, int frameTarget)
{
    const int chunk = std::max(1, frameTarget / 200);
    std::vector<Sample> samples;
    QElapsedTimer clock;
    clock.start();
    for (int done = 0; done < frameTarget; done += chunk) {
        soak.playFrames(std::min(chunk, frameTarget - done));
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        samples.push_back(sample(done + chunk, soak.frames));
    }
    const double seconds = clock.elapsed() / 1000.0;
    std::printf("bench_soak frames: %d dataflow frames on the main view (%d x %d), %.2f ms a frame\n", frameTarget,
                soak.window.stage()->view()->width(), soak.window.stage()->view()->height(),
                seconds * 1000.0 / std::max(1, frameTarget));
    report("frames", samples, 5, seconds, "frames");
    return 0;
}

int runTour(Soak& soak, double minutes)
{
    auto* mode = soak.window.findChild<ws::PresentationMode*>();
    const QStringList tours = ws::TourFormat::shippedTours();
    if (!mode || tours.isEmpty()) {
        std::fprintf(stderr, "bench_soak: no presentation mode or no shipped tour\n");
        return 1;
    }
    mode->setFullScreen(false);
    mode->setAutoPlay(false); // the bench's clock
    std::vector<Sample> samples;
    QElapsedTimer clock;
    clock.start();
    double tourSeconds = 0;
    int loops = 0;
    double nextSample = 0;
    while (tourSeconds < minutes * 60.0) {
        QString error;
        if (!mode->present(tours.first(), &error)) {
            std::fprintf(stderr, "bench_soak: cannot present %s: %s\n", qPrintable(tours.first()), qPrintable(error));
            return 1;
        }
        ws::TourPlayer* player = mode->player();
        while (!player->isFinished() && tourSeconds < minutes * 60.0) {
            waitFor([] { return false; }, 0.005);
            player->advance(0.5);
            tourSeconds += 0.5;
            if (tourSeconds >= nextSample) {
                QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
                samples.push_back(sample(qint64(tourSeconds), loops));
                nextSample += 15.0;
            }
        }
        if (!player->error().isEmpty()) {
            std::fprintf(stderr, "bench_soak: the tour failed: %s\n", qPrintable(player->error()));
            return 1;
        }
        loops += player->isFinished() ? 1 : 0;
        mode->leave();
        soak.settle();
    }
    std::printf("bench_soak tour: \"%s\" looped %d times, %.0f minutes of tour time (the frames column: loops)\n",
                qPrintable(QFileInfo(tours.first()).fileName()), loops, minutes);
    report("tour", samples, 4, clock.elapsed() / 1000.0, "tour seconds");
    return 0;
}

int runOpen(Soak& soak, int cycles)
{
    QTemporaryDir dir;
    ws::FileMenuController* files = soak.window.fileMenu();
    files->setInteractive(false);
    QString lastError;
    QObject::connect(files, &ws::FileMenuController::errorOccurred, qApp, [&](const QString& e) { lastError = e; });
    // Two scenarios, saved as File > Save writes them: a dense 8B model on WSE-3, a 0.6B one on WSE-2.
    QStringList paths;
    for (const auto& [model, hardware] : {std::pair{"llama-3.1-8b", "wse3"}, std::pair{"qwen3-0.6b", "wse2"}}) {
        ws::Scenario s = ws::MainWindow::defaultRequest();
        s.modelPreset = QString::fromLatin1(model);
        s.hardwarePreset = QString::fromLatin1(hardware);
        soak.window.applyScenario(s);
        if (!soak.settle()) {
            std::fprintf(stderr, "bench_soak: %s on %s did not place\n", model, hardware);
            return 1;
        }
        paths << dir.filePath(QStringLiteral("%1.waferscope").arg(QString::fromLatin1(model)));
        if (!files->saveTo(paths.back())) {
            std::fprintf(stderr, "bench_soak: cannot save %s: %s\n", qPrintable(paths.back()), qPrintable(lastError));
            return 1;
        }
    }
    std::vector<Sample> samples;
    QElapsedTimer clock;
    clock.start();
    for (int i = 0; i < cycles; ++i) {
        if (!files->openFile(paths[i % 2]) || !soak.settle()) {
            std::fprintf(stderr, "bench_soak: opening %s failed: %s\n", qPrintable(paths[i % 2]),
                         qPrintable(lastError));
            return 1;
        }
        files->newScenario();
        waitFor([&] { return !soak.window.isBusy(); }, 300);
        if ((i + 1) % 10 == 0) {
            QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
            samples.push_back(sample(i + 1, 0));
        }
    }
    const double seconds = clock.elapsed() / 1000.0;
    std::printf("bench_soak open: %d open/close cycles of two scenario files, %.0f ms a cycle\n", cycles,
                seconds * 1000.0 / std::max(1, cycles));
    report("open", samples, 3, seconds, "cycles");
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    ws::keepLargeBuffersMapped(); // as the app's main does
    qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true); // recent files and autosave go to the test locations
    const QString run = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("chat");
    auto arg = [&](int i, double fallback) { return argc > i ? std::atof(argv[i]) : fallback; };
    const QString modelPath = argc > 4 ? QString::fromLocal8Bit(argv[4])
                                       : wstest::testModelPath(QStringLiteral("stories260K/stories260K.gguf"));

    ws::PresetLibrary presets{QString()};
    ws::LanguageManager languages;
    ws::MainWindow window(presets, languages);
    window.resize(1366, 768);
    window.show();
    window.setRequest(ws::MainWindow::defaultRequest());
    Soak soak{window};
    if (!soak.settle()) {
        std::fprintf(stderr, "bench_soak: the default placement did not finish\n");
        return 1;
    }
    window.setLayer(ws::MeshLayer::Dataflow);
    soak.dataflow = window.dataflowDock()->controller();
    if (!waitFor([&] { return soak.dataflow->totalCycles() > 0; }, 120)) {
        std::fprintf(stderr, "bench_soak: no dataflow schedule\n");
        return 1;
    }
    const bool all = run == QLatin1String("all");
    int rc = 0;
    if (run == QLatin1String("frames") || all)
        rc |= runFrames(soak, int(arg(2, 100000)));
    if (run == QLatin1String("chat") || all) {
        if (!QFileInfo::exists(modelPath)) {
            std::fprintf(stderr, "bench_soak: %s is missing (set WAFERSCOPE_TEST_MODELS)\n", qPrintable(modelPath));
            return 1;
        }
        rc |= runChat(soak, all ? 10000 : (long long)arg(2, 10000), all ? 10000 : int(arg(3, 10000)), modelPath);
    }
    if (run == QLatin1String("tour") || all)
        rc |= runTour(soak, all ? 30 : arg(2, 30));
    if (run == QLatin1String("open") || all)
        rc |= runOpen(soak, all ? 1000 : int(arg(2, 1000)));
    if (!all && run != QLatin1String("frames") && run != QLatin1String("chat") && run != QLatin1String("tour") &&
        run != QLatin1String("open")) {
        std::fprintf(stderr, "usage: bench_soak chat|frames|tour|open|all [count...]\n");
        return 2;
    }
    return rc;
}
