// LeakSanitizer probe for tst_lsan_detects: with no argument it leaks one QObject of ours (with a child
// and a name, so Qt's own allocations hang off it) and must fail at exit; with --clean it frees it and
// must exit 0, so the suppressions (tests/lsan.supp) cover what Qt keeps for the process, and no more.
#include <QCoreApplication>
#include <QObject>
#include <QString>

#include <cstring>
#include <thread>

namespace {
QObject* volatile g_sink = nullptr;

[[gnu::noinline]] void leakAnObjectOfOurs(bool clean)
{
    auto* object = new QObject;
    object->setObjectName(QStringLiteral("leaked by lsan_probe"));
    (void)new QObject(object); // a child, freed only with its parent
    g_sink = object;
    if (clean)
        delete g_sink;
    g_sink = nullptr; // the last pointer to it is gone
}
} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    // On a thread that has ended by the leak check: LeakSanitizer scans live stacks conservatively, and a copy
    // of the pointer left in a dead frame of the main thread's stack (which the exit handlers' frames reuse)
    // once hid the leak (CI, stop 40: exit 0 and no report).
    const bool clean = argc > 1 && std::strcmp(argv[1], "--clean") == 0;
    std::thread(leakAnObjectOfOurs, clean).join();
    return 0;
}
