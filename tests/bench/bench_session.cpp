// How responsive the GUI thread stays while the live session generates at
// full speed: a 1 ms timer on the GUI thread records how late each tick
// comes, while the worker thread runs stories260K as fast as this CPU allows
// and the chat pane shows every snapshot it gets. Prints the worst and 99th
// percentile event-loop latency, with and without generation, plus tokens/s
// and snapshots/s. Measures and prints; asserts nothing.
//
//   bench_session [model.gguf] [seconds] [generator threads]
//
// The generator uses what the app uses by default: all cores but one, so
// the GUI thread keeps a core (on a 2-core machine: one generator thread).
#include "app/session/chatcontroller.h"
#include "app/session/runcontroller.h"
#include "engine/session/generatorsessionmodel.h"
#include "tests/common/testmodels.h"
#include "views/chatpane.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <ctime>
#include <cstdio>
#include <vector>

namespace {

struct Latency
{
    double worstMs = 0;
    double p99Ms = 0;
    double medianMs = 0;
    int ticks = 0;
};

// Runs the event loop for `seconds` with a 1 ms precise timer and returns
// how late the ticks were (gap between ticks minus the 1 ms interval).
Latency measureLoop(double seconds, const std::function<void()>& whileRunning = {})
{
    std::vector<double> lateMs;
    QElapsedTimer clock;
    clock.start();
    qint64 last = clock.nsecsElapsed();
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    tick.setInterval(1);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        lateMs.push_back(std::max(0.0, (now - last) / 1e6 - 1.0));
        last = now;
        if (whileRunning)
            whileRunning();
    });
    QEventLoop loop;
    QTimer::singleShot(int(seconds * 1000), &loop, &QEventLoop::quit);
    tick.start();
    loop.exec();
    Latency result;
    if (lateMs.empty())
        return result;
    std::sort(lateMs.begin(), lateMs.end());
    result.ticks = int(lateMs.size());
    result.worstMs = lateMs.back();
    result.p99Ms = lateMs[size_t(double(lateMs.size() - 1) * 0.99)];
    result.medianMs = lateMs[lateMs.size() / 2];
    return result;
}

double threadCpuSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + ts.tv_nsec / 1e9;
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    const QString modelPath =
        argc > 1 ? QString::fromLocal8Bit(argv[1]) : wstest::testModelPath(QStringLiteral("stories260K/stories260K.gguf"));
    const double seconds = argc > 2 ? std::atof(argv[2]) : 5.0;
    const bool showPane = !(argc > 4 && QByteArray(argv[4]) == "nopane");
    const int threads = argc > 3 ? std::atoi(argv[3]) : ws::ChatController::defaultGeneratorThreads();

    ws::RunController controller;
    ws::views::ChatPane pane;
    pane.resize(480, 800);
    if (showPane)
        pane.show();
    bool loadedOk = false;
    QEventLoop loading;
    QObject::connect(&controller, &ws::RunController::modelLoaded, &loading, [&] {
        loadedOk = true;
        loading.quit();
    });
    QObject::connect(&controller, &ws::RunController::modelLoadFailed, &loading, [&](const QString& message) {
        std::fprintf(stderr, "cannot load %s: %s\n", qPrintable(modelPath), qPrintable(message));
        loading.quit();
    });
    const std::string path = modelPath.toStdString();
    controller.loadModel([path, threads]() -> ws::Expected<std::unique_ptr<ws::SessionModel>> {
        ws::GeneratorSessionModel::Options options;
        options.threads = threads;
        auto model = ws::GeneratorSessionModel::load(path, options);
        if (!model)
            return model.error();
        return std::unique_ptr<ws::SessionModel>(std::move(*model));
    });
    loading.exec();
    if (!loadedOk)
        return 1;
    pane.setModel(controller.modelInfo());

    // Baseline: the same loop with nothing generating.
    const Latency idle = measureLoop(std::min(seconds, 2.0));

    // Generation: turns of 400 tokens back to back, each snapshot shown in the pane.
    int snapshots = 0;
    double paneMs = 0;      // GUI time spent in ChatPane::setSnapshot
    double paneWorstMs = 0;
    double turnStartWorstMs = 0; // GUI time to start the next turn (new messages, occasional clear)
    long long tokens = 0;
    double generateSeconds = 0;
    QObject::connect(&controller, &ws::RunController::snapshotReady, &pane,
                     [&](std::shared_ptr<const ws::SessionSnapshot> s) {
                         ++snapshots;
                         QElapsedTimer t;
                         t.start();
                         if (showPane)
                             pane.setSnapshot(s);
                         const double ms = t.nsecsElapsed() / 1e6;
                         paneMs += ms;
                         paneWorstMs = std::max(paneWorstMs, ms);
                     });
    auto startTurn = [&] {
        pane.send(QStringLiteral("Once upon a time"));
        ws::RunRequest request;
        request.turn.messages = {{ws::ChatRole::User, "Once upon a time"}};
        request.turn.mode = ws::PromptMode::Completion;
        request.turn.maxTokens = 400;
        controller.start(request);
    };
    QObject::connect(&controller, &ws::RunController::runFinished, &pane,
                     [&](std::shared_ptr<const ws::SessionSnapshot> s) {
                         QElapsedTimer t;
                         t.start();
                         tokens += s->generatedTokens;
                         generateSeconds += s->elapsedSeconds;
                         if (pane.messageCount() > 40)
                             pane.clear();
                         startTurn();
                         turnStartWorstMs = std::max(turnStartWorstMs, t.nsecsElapsed() / 1e6);
                     });
    startTurn();
    const double cpu0 = threadCpuSeconds();
    const Latency busy = measureLoop(seconds);
    const double guiCpu = threadCpuSeconds() - cpu0;
    controller.stop();

    std::printf("bench_session: model %s, %.1f s of generation, %d generator thread(s), %d cores, "
                "1 ms timer on the GUI thread\n",
                qPrintable(QFileInfo(modelPath).fileName()), seconds, threads, QThread::idealThreadCount());
    std::printf("  idle       : worst %.2f ms, p99 %.2f ms, median %.3f ms (%d ticks)\n", idle.worstMs, idle.p99Ms,
                idle.medianMs, idle.ticks);
    std::printf("  generating : worst %.2f ms, p99 %.2f ms, median %.3f ms (%d ticks)  [target: worst < 16 ms]\n",
                busy.worstMs, busy.p99Ms, busy.medianMs, busy.ticks);
    std::printf("  generation : %lld tokens in finished turns, %.0f tokens/s on the worker; %d snapshots shown "
                "(%.1f per second)\n",
                tokens, generateSeconds > 0 ? double(tokens) / generateSeconds : 0.0, snapshots,
                snapshots / seconds);
    std::printf("  GUI thread : %.2f s of CPU in %.1f s\n", guiCpu, seconds);
    std::printf("  chat pane  : setSnapshot %.3f ms on average, worst %.2f ms\n", snapshots ? paneMs / snapshots : 0.0,
                paneWorstMs);
    std::printf("  next turn  : worst %.2f ms to add the messages and start it\n", turnStartWorstMs);
    return 0;
}
