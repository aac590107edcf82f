// Soak: a long demo compressed. The real main window (offscreen) streams 10,000 chat tokens through its
// ChatController and RunController (worker thread, GeneratorSessionModel on stories260K from
// WAFERSCOPE_TEST_MODELS, or the file named; the synthetic models of engine/gguf/syntheticmodel.h have no
// tokenizer, so the chat cannot run on one) and plays 10,000 dataflow frames through the main MeshView
// (DataflowController -> MeshView::setFrame -> paint), interleaved: one chat turn, then a slice of frames.
// After a warm-up (the first turns and frames: caches, pools, fonts, glyphs) it samples the resident set
// (/proc/self/statm), the heap in use (glibc mallinfo2: every malloc, Qt's QArrayData included) and the
// live count of C++ allocations (this program's operator new/delete count them), and prints them with the
// growth from the warm-up to the end. Target: RSS grows by less than 5%. Measures and prints; asserts nothing.
//
//   bench_soak [tokens] [frames] [model.gguf]
#include "app/common/languagemanager.h"
#include "app/common/presetlibrary.h"
#include "app/dataflow/dataflowcontroller.h"
#include "app/dataflow/dataflowdock.h"
#include "app/session/chatcontroller.h"
#include "app/session/runcontroller.h"
#include "app/stage/stage.h"
#include "app/window/mainwindow.h"
#include "engine/session/sessionsnapshot.h"
#include "tests/common/testmodels.h"
#include "views/chat/chatpane.h"
#include "views/mesh/meshview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QImage>
#include <QPainter>
#include <QStandardPaths>
#include <QTimer>

#include <atomic>
#include <cstdio>
#include <cstdlib>
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
    long long tokens = 0;
    int frames = 0;
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
    const struct mallinfo2 m = ::mallinfo2();
    s.heapMiB = double(m.uordblks + m.hblkhd) / (1024.0 * 1024.0);
    s.allocations = g_allocations.load();
    s.liveAllocations = s.allocations - g_frees.load();
    return s;
}

void print(const char* what, const Sample& s)
{
    std::printf("  %-9s tokens %6lld  frames %6d  RSS %8.1f MiB  heap in use %8.1f MiB  live C++ allocations %9lld"
                "  (%lld made)\n",
                what, s.tokens, s.frames, s.rssMiB, s.heapMiB, s.liveAllocations, s.allocations);
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

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true); // recent files and autosave go to the test locations
    const long long tokenTarget = argc > 1 ? std::atoll(argv[1]) : 10000;
    const int frameTarget = argc > 2 ? std::atoi(argv[2]) : 10000;
    const QString modelPath = argc > 3 ? QString::fromLocal8Bit(argv[3])
                                       : wstest::testModelPath(QStringLiteral("stories260K/stories260K.gguf"));
    if (!QFileInfo::exists(modelPath)) {
        std::fprintf(stderr, "bench_soak: %s is missing (set WAFERSCOPE_TEST_MODELS)\n", qPrintable(modelPath));
        return 1;
    }

    ws::PresetLibrary presets{QString()};
    ws::LanguageManager languages;
    ws::MainWindow window(presets, languages);
    window.resize(1366, 768);
    window.show();
    window.setRequest(ws::MainWindow::defaultRequest());
    if (!waitFor([&] { return !window.isBusy() && window.result(); }, 300)) {
        std::fprintf(stderr, "bench_soak: the default placement did not finish\n");
        return 1;
    }
    window.setLayer(ws::MeshLayer::Dataflow);
    ws::DataflowController* dataflow = window.dataflowDock()->controller();
    if (!waitFor([&] { return dataflow->totalCycles() > 0; }, 120)) {
        std::fprintf(stderr, "bench_soak: no dataflow schedule\n");
        return 1;
    }

    ws::ChatController* chat = window.chat();
    bool loaded = false;
    QString loadError;
    QObject::connect(chat->runController(), &ws::RunController::modelLoaded, &app, [&] { loaded = true; });
    QObject::connect(chat->runController(), &ws::RunController::modelLoadFailed, &app,
                     [&](const QString& e) { loadError = e; });
    chat->openModelFile(modelPath);
    if (!waitFor([&] { return loaded || !loadError.isEmpty(); }, 60) || !loaded) {
        std::fprintf(stderr, "bench_soak: cannot load %s: %s\n", qPrintable(modelPath), qPrintable(loadError));
        return 1;
    }
    ws::views::ChatSettings settings = chat->pane()->settings();
    settings.mode = ws::PromptMode::Completion;
    settings.maxTokens = 250; // stories260K has 512 tokens of context: each turn is a fresh story
    settings.paceSystemId.clear();
    chat->pane()->setSettings(settings);

    long long tokens = 0;
    int turns = 0;
    bool turnDone = false;
    QString runError;
    QObject::connect(chat->runController(), &ws::RunController::runFinished, &app,
                     [&](std::shared_ptr<const ws::SessionSnapshot> s) {
                         tokens += s->generatedTokens;
                         ++turns;
                         turnDone = true;
                     });
    QObject::connect(chat->runController(), &ws::RunController::runFailed, &app, [&](quint64, const QString& e) {
        runError = e;
        turnDone = true;
    });

    const ws::views::MeshView* view = window.stage()->view();
    QImage target;
    int frames = 0;
    auto playFrames = [&](int count) {
        for (int i = 0; i < count && frames < frameTarget; ++i, ++frames) {
            dataflow->seekFraction(double(frames % 997) / 997.0); // the frame goes to the view (setFrame)
            if (target.size() != view->size())
                target = QImage(view->size(), QImage::Format_ARGB32_Premultiplied);
            QPainter painter(&target);
            window.stage()->widget()->render(&painter);
            if (frames % 50 == 0)
                QCoreApplication::processEvents();
        }
    };

    // One chat turn (a new conversation each time, as after Clear), then a slice of frames.
    const int framesPerTurn =
        int(std::max<long long>(1, frameTarget * settings.maxTokens / std::max(1LL, tokenTarget)));
    std::vector<Sample> samples;
    Sample warm;
    QElapsedTimer clock;
    clock.start();
    constexpr int warmupTurns = 3;
    while ((tokens < tokenTarget || frames < frameTarget) && runError.isEmpty()) {
        if (tokens < tokenTarget) {
            chat->pane()->clear();
            turnDone = false;
            chat->pane()->send(QStringLiteral("Once upon a time"));
            if (!waitFor([&] { return turnDone; }, 120)) {
                std::fprintf(stderr, "bench_soak: a turn did not finish\n");
                return 1;
            }
        }
        playFrames(framesPerTurn);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        const int iteration = int(samples.size());
        samples.push_back(sample(tokens, frames));
        if (iteration == warmupTurns - 1)
            warm = samples.back();
    }
    const double seconds = clock.elapsed() / 1000.0;
    if (!runError.isEmpty()) {
        std::fprintf(stderr, "bench_soak: a turn failed: %s\n", qPrintable(runError));
        return 1;
    }
    const Sample end = samples.back();
    Sample peak = warm;
    for (size_t i = warmupTurns; i < samples.size(); ++i)
        if (samples[i].rssMiB > peak.rssMiB)
            peak = samples[i];

    std::printf("bench_soak: %lld tokens in %d turns of up to %d (%s) and %d dataflow frames on the main view "
                "(%d x %d) in %.1f s\n",
                tokens, turns, settings.maxTokens, qPrintable(QFileInfo(modelPath).fileName()), frames, view->width(),
                view->height(), seconds);
    std::printf("  samples after each turn and its %d frames; warm-up: the first %d turns\n", framesPerTurn,
                warmupTurns);
    const size_t step = std::max<size_t>(1, samples.size() / 8);
    for (size_t i = 0; i < samples.size(); i += step)
        print(i + 1 == size_t(warmupTurns) ? "warm" : "", samples[i]);
    print("warm", warm);
    print("peak", peak);
    print("end", end);
    std::printf("RESULT RSS after warm-up %.1f MiB -> end %.1f MiB (%+.2f%%, peak %+.2f%%); heap in use %+.2f%%; "
                "live C++ allocations %+lld (target: RSS < +5%%)\n",
                warm.rssMiB, end.rssMiB, percent(warm.rssMiB, end.rssMiB), percent(warm.rssMiB, peak.rssMiB),
                percent(warm.heapMiB, end.heapMiB), end.liveAllocations - warm.liveAllocations);
    return 0;
}
