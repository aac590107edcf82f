// `waferscope-cli generate` on a model file truncated while it decodes. Mapped (--mmap, the MappedFile
// guard): the process ends with an error exit and a message, never with SIGBUS. Read into memory (the
// default): the run goes on and prints exactly what it prints for the intact file. The file is cut as
// soon as the first generated text arrives on stdout, so the truncation lands in the middle of the run.
#include "tests/common/modelcopy.h"
#include "tests/common/testmodels.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

namespace {

// One `generate` run on a writable copy of `source` (the copy's path last on the command line), the copy
// truncated to 4 KiB as soon as the first generated text arrives.
struct CutRun
{
    bool started = false;
    QString copy;
    QByteArray beforeCut, afterCut, err;
    QProcess::ExitStatus status = QProcess::CrashExit;
    int exitCode = -1;
};

CutRun runAndCut(const QString& source, const QStringList& args)
{
    CutRun r;
    QTemporaryDir dir;
    r.copy = wstest::writableCopy(source, dir, QStringLiteral("model.gguf"));
    if (r.copy.isEmpty())
        return r;
    QProcess cli;
    cli.start(wstest::cliBinary(), args + QStringList{r.copy});
    if (!cli.waitForStarted() || !cli.waitForReadyRead(60000)) // the first generated text
        return r;
    if (::truncate(r.copy.toLocal8Bit().constData(), 4096) != 0)
        return r;
    r.beforeCut = cli.readAllStandardOutput();
    if (!cli.waitForFinished(120000))
        return r;
    r.afterCut = cli.readAllStandardOutput();
    r.err = cli.readAllStandardError();
    r.status = cli.exitStatus();
    r.exitCode = cli.exitCode();
    r.started = true;
    return r;
}

const QStringList kGenerate = {QStringLiteral("generate"), QStringLiteral("--prompt"),
                               QStringLiteral("Once upon a time"), QStringLiteral("--threads"), QStringLiteral("1")};

} // namespace

class TestCliFaults : public QObject
{
    Q_OBJECT

private slots:
    void generateOnTruncatedModelFailsCleanly()
    {
        WS_REQUIRE_MODEL(source, "random/qwen2-tiny-random.gguf");
        bool sawMidRun = false;
        for (int attempt = 0; attempt < 5 && !sawMidRun; ++attempt) {
            const CutRun r =
                runAndCut(source_q, kGenerate + QStringList{QStringLiteral("--tokens"), QStringLiteral("100000"),
                                                            QStringLiteral("--mmap"), QStringLiteral("--model")});
            QVERIFY(r.started);
            QCOMPARE(r.status, QProcess::NormalExit); // no SIGBUS
            if (r.exitCode == 0)
                continue; // it finished before the cut; try again
            QVERIFY2(r.err.contains("truncated"), r.err.constData());
            QVERIFY2(r.err.contains(r.copy.toLocal8Bit()), r.err.constData());
            sawMidRun = true;
        }
        QVERIFY2(sawMidRun, "every run finished before the file was cut");
    }

    void generateOnResidentModelIgnoresTheCut()
    {
        WS_REQUIRE_MODEL(source, "random/qwen2-tiny-random.gguf");
        const QStringList args =
            kGenerate + QStringList{QStringLiteral("--tokens"), QStringLiteral("400"), QStringLiteral("--model")};
        QProcess intact;
        intact.start(wstest::cliBinary(), args + QStringList{source_q});
        QVERIFY(intact.waitForFinished(120000));
        QCOMPARE(intact.exitCode(), 0);
        const QByteArray expected = intact.readAllStandardOutput();
        QVERIFY(expected.size() > 100);
        bool sawMidRun = false;
        for (int attempt = 0; attempt < 5 && !sawMidRun; ++attempt) {
            const CutRun r = runAndCut(source_q, args);
            QVERIFY(r.started);
            QCOMPARE(r.status, QProcess::NormalExit);
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QCOMPARE(r.beforeCut + r.afterCut, expected);
            sawMidRun = !r.afterCut.isEmpty(); // text came after the cut: it fell in the middle of the run
        }
        QVERIFY2(sawMidRun, "every run finished before the file was cut");
    }
};

QTEST_GUILESS_MAIN(TestCliFaults)
#include "tst_cli_faults.moc"
