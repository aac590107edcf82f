// MappedFile's guard against a file that changes on disk while mapped (mappedfile.h): a truncated file
// must not kill the process with SIGBUS. Each truncation runs in a forked child, so a regression shows
// as the child's signal death instead of taking the test runner down; the child reports over a pipe.
// A resident file (read whole into memory, how a decode holds its weights by default) is immune: cutting
// the file changes nothing the process reads.
#include "engine/decode/decodemodel.h"
#include "engine/gguf/mappedfile.h"
#include "engine/session/generatorsessionmodel.h"
#include "engine/session/tokenstream.h"
#include "tests/common/testmodels.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <functional>
#include <string>

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

// A file of `bytes` bytes, each `fill`; false when it cannot be written whole.
bool writeFilled(const QString& path, int bytes, char fill)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(QByteArray(bytes, fill)) == bytes;
}

struct ChildResult
{
    bool exited = false; // false: killed by a signal
    int signal = 0;
    int code = -1;
    std::string message; // what the child wrote to the pipe
};

// Runs `body` in a forked child; its return value is the exit code, what it writes to `fd` comes back.
ChildResult inChild(const std::function<int(int fd)>& body)
{
    int fds[2];
    if (::pipe(fds) != 0)
        return {};
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        const int code = body(fds[1]);
        ::close(fds[1]);
        ::_exit(code);
    }
    ::close(fds[1]);
    ChildResult r;
    char buffer[512];
    // A child that hangs (a fault handler that never returns blocks even SIGTERM) is killed after a
    // minute, so it fails its test and never outlives it.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        pollfd p{fds[0], POLLIN, 0};
        const int ready = left.count() > 0 ? ::poll(&p, 1, int(left.count())) : 0;
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0) {
            ::kill(pid, SIGKILL);
            r.message += "(child killed after 60 s)";
            break;
        }
        const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
        if (n <= 0)
            break;
        r.message.append(buffer, size_t(n));
    }
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    r.exited = WIFEXITED(status);
    r.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    r.code = r.exited ? WEXITSTATUS(status) : -1;
    return r;
}

void say(int fd, const std::string& text)
{
    [[maybe_unused]] const ssize_t n = ::write(fd, text.data(), text.size());
}

} // namespace

class TestMappedFile : public QObject
{
    Q_OBJECT

private slots:
    // A child that does die must not wait for QtTest's crash handler to attach gdb to it.
    void initTestCase() { qputenv("QTEST_DISABLE_STACK_DUMP", "1"); }

    void truncatedMappingReadsZerosAndSaysSo()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("weights.bin"));
        QVERIFY(writeFilled(path, 256 * 1024, '\x5a'));
        const std::string p = path.toStdString();
        const ChildResult r = inChild([&](int fd) {
            auto mapped = ws::MappedFile::open(p);
            if (!mapped)
                return 2;
            const uint8_t* data = (*mapped)->data();
            if (data[200 * 1024] != 0x5a || !(*mapped)->checkIntact())
                return 3;
            if (::truncate(p.c_str(), 4096) != 0)
                return 4;
            const uint8_t past = data[200 * 1024]; // SIGBUS without the guard
            if (past != 0)
                return 5;
            ws::Status intact = (*mapped)->checkIntact();
            if (intact)
                return 6;
            say(fd, intact.error().message() + "|" + intact.error().file);
            return 0;
        });
        QVERIFY2(r.exited, qPrintable(QStringLiteral("child died of signal %1").arg(r.signal)));
        QCOMPARE(r.code, 0);
        QVERIFY2(r.message.find("truncated") != std::string::npos, r.message.c_str());
        QVERIFY2(r.message.find(p) != std::string::npos, r.message.c_str());
    }

    void replacedFileIsReportedRemovedIsNot()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("m.bin"));
        const QString other = dir.filePath(QStringLiteral("other.bin"));
        for (const QString& name : {path, other})
            QVERIFY(writeFilled(name, 8192, '\x11'));
        auto mapped = ws::MappedFile::open(path.toStdString());
        QVERIFY(mapped);
        QVERIFY((*mapped)->checkIntact());
        QVERIFY(QFile::remove(path)); // unlinked: the mapping keeps the inode
        QVERIFY((*mapped)->checkIntact());
        QCOMPARE((*mapped)->data()[100], uint8_t(0x11));
        QVERIFY(QFile::rename(other, path)); // another file under the same name
        ws::Status intact = (*mapped)->checkIntact();
        QVERIFY(!intact);
        QVERIFY2(intact.error().message().find("replaced") != std::string::npos, intact.error().message().c_str());
        QCOMPARE((*mapped)->data()[100], uint8_t(0x11)); // still the old, whole file
    }

    // Cut shorter before any lost page was read: the check sees it by the file's size and names it as a
    // truncation (a file grown or rewritten in place is "changed").
    void truncatedBeforeAnyReadIsNamedTruncated()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("m.bin"));
        QVERIFY(writeFilled(path, 3 * 4096, '\x22'));
        auto mapped = ws::MappedFile::open(path.toStdString());
        QVERIFY(mapped);
        QVERIFY((*mapped)->checkIntact());
        QCOMPARE(::truncate(path.toLocal8Bit().constData(), 4096), 0);
        ws::Status cut = (*mapped)->checkIntact();
        QVERIFY(!cut);
        QVERIFY2(cut.error().message().find("truncated") != std::string::npos, cut.error().message().c_str());
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::Append));
            f.write(QByteArray(4 * 4096, '\x33')); // now longer than the mapping
        }
        ws::Status grown = (*mapped)->checkIntact();
        QVERIFY(!grown);
        QVERIFY2(grown.error().message().find("changed") != std::string::npos, grown.error().message().c_str());
    }

    // Read whole: the bytes are the file's, the copy is this process's own, so cutting or replacing the
    // file afterwards changes nothing and the copy stays intact.
    void residentFileIsImmuneToChangesOnDisk()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("weights.bin"));
        QByteArray bytes(5 * 1024 * 1024 + 123, '\0'); // more than two huge pages, not a multiple of one
        for (int i = 0; i < bytes.size(); ++i)
            bytes[i] = char((i * 131 + i / 4096) & 0xff);
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QCOMPARE(f.write(bytes), qint64(bytes.size()));
        }
        const uint64_t before = ws::MappedFile::mappingsMade();
        auto resident = ws::MappedFile::open(path.toStdString(), ws::FileResidency::Resident);
        QVERIFY2(resident, resident ? "" : resident.error().message().c_str());
        QCOMPARE(ws::MappedFile::mappingsMade(), before + 1);
        QVERIFY((*resident)->isResident());
        QCOMPARE((*resident)->sizeBytes(), uint64_t(bytes.size()));
        QVERIFY(std::memcmp((*resident)->data(), bytes.constData(), size_t(bytes.size())) == 0);
        QCOMPARE(::truncate(path.toLocal8Bit().constData(), 4096), 0);
        QVERIFY((*resident)->checkIntact());
        QVERIFY(std::memcmp((*resident)->data(), bytes.constData(), size_t(bytes.size())) == 0);
        QVERIFY(QFile::remove(path));
        QVERIFY((*resident)->checkIntact());

        auto missing = ws::MappedFile::open(path.toStdString(), ws::FileResidency::Resident);
        QVERIFY(!missing);
        QCOMPARE(missing.error().code, ws::ErrorCode::NotFound);
        QCOMPARE(missing.error().file, path.toStdString());
        QVERIFY(writeFilled(path, 0, 0));
        auto empty = ws::MappedFile::open(path.toStdString(), ws::FileResidency::Resident);
        QVERIFY(empty);
        QCOMPARE((*empty)->sizeBytes(), uint64_t(0));
    }

    // The decode pipeline, the model file truncated between two steps: mapped, the turn ends with the
    // error (and the next turn fails too, it does not run on zeros); resident (the default), the turn
    // runs on and gives exactly the tokens of a turn on the intact file.
    void sessionOnTruncatedModel_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<bool>("mapped");
        QTest::newRow("gguf, mapped") << QStringLiteral("stories260K/stories260K.gguf") << true;
        QTest::newRow("llama2c, mapped") << QStringLiteral("stories260K/stories260K.bin") << true;
        QTest::newRow("gguf, resident") << QStringLiteral("stories260K/stories260K.gguf") << false;
        QTest::newRow("llama2c, resident") << QStringLiteral("stories260K/stories260K.bin") << false;
    }
    void sessionOnTruncatedModel()
    {
        QFETCH(QString, model);
        QFETCH(bool, mapped);
        const QString source = wstest::testModelPath(model);
        WS_REQUIRE_MODEL_FILE(source);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString copy = dir.filePath(QFileInfo(source).fileName());
        QVERIFY(QFile::copy(source, copy));
        QVERIFY(QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner));
        QFile::copy(wstest::testModelPath(QStringLiteral("stories260K/tok512.bin")), dir.filePath("tok512.bin"));
        const std::string p = copy.toStdString();
        ws::TurnRequest request;
        request.messages.push_back({ws::ChatRole::User, "Once upon a time"});
        request.mode = ws::PromptMode::Completion;
        request.maxTokens = 64;
        request.sampling.temperature = 0;
        ws::GeneratorSessionModel::Options options;
        options.mapWeights = mapped;
        // The intact file's tokens, for the resident case.
        std::vector<ws::TokenId> intact;
        {
            auto session = ws::GeneratorSessionModel::load(p, options);
            QVERIFY(session);
            QCOMPARE((*session)->model().weightsResident(), !mapped);
            auto stream = (*session)->startTurn(request);
            QVERIFY(stream);
            for (int i = 0; i < 65; ++i) {
                ws::Expected<ws::TokenStep> step = (*stream)->next();
                QVERIFY(step);
                if (step->endOfText)
                    break;
                intact.push_back(step->token);
            }
        }
        QVERIFY(intact.size() > 8);
        const ChildResult r = inChild([&](int fd) {
            auto session = ws::GeneratorSessionModel::load(p, options);
            if (!session)
                return 2;
            auto stream = (*session)->startTurn(request);
            std::vector<ws::TokenId> tokens;
            ws::Expected<ws::TokenStep> first =
                stream ? (*stream)->next() : ws::Expected<ws::TokenStep>(ws::makeError(ws::ErrorCode::Io, "no turn"));
            if (!first)
                return 3;
            tokens.push_back(first->token);
            if (::truncate(p.c_str(), 1024) != 0)
                return 4;
            for (int i = 0; i < 64; ++i) {
                ws::Expected<ws::TokenStep> step = (*stream)->next();
                if (!step) {
                    say(fd, step.error().message());
                    if (!mapped)
                        return 7; // a resident copy must not fail
                    // Sticky: the next turn fails too, it does not run on zeros.
                    auto again = (*session)->startTurn(request);
                    return again && (*again)->next() ? 6 : 0;
                }
                if (step->endOfText)
                    break;
                tokens.push_back(step->token);
            }
            if (mapped)
                return 5; // the cut went unnoticed
            say(fd, tokens == intact ? "same tokens" : "other tokens");
            return 0;
        });
        QVERIFY2(r.exited, qPrintable(QStringLiteral("child died of signal %1").arg(r.signal)));
        QVERIFY2(r.code == 0,
                 qPrintable(QStringLiteral("child exit %1: %2").arg(r.code).arg(QString::fromStdString(r.message))));
        if (mapped)
            QVERIFY2(r.message.find("truncated") != std::string::npos, r.message.c_str());
        else
            QCOMPARE(r.message, std::string("same tokens"));
    }
};

QTEST_GUILESS_MAIN(TestMappedFile)
#include "tst_mappedfile.moc"
