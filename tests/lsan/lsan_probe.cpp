// LeakSanitizer probe for tst_lsan_detects: with no argument it leaks one QObject of ours (with a child
// and a name, so Qt's own allocations hang off it) and must fail at exit; with --clean it frees it and
// must exit 0, so the suppressions (tests/lsan.supp) cover what Qt keeps for the process, and no more.
#include <QCoreApplication>
#include <QObject>
#include <QString>

#include <cstring>

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
    leakAnObjectOfOurs(argc > 1 && std::strcmp(argv[1], "--clean") == 0);
    return 0;
}
