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

class TestCliFaults : public QObject
{
    Q_OBJECT

private slots:
    void generateOnTruncatedModelFailsCleanly()
    {
        WS_REQUIRE_MODEL(source, "random/qwen2-tiny-random.gguf");
        bool sawMidRun = false;
        for (int attempt = 0; attempt < 5 && !sawMidRun; ++attempt) {
            QTemporaryDir dir;
            const QString copy = wstest::writableCopy(source_q, dir, QStringLiteral("model.gguf"));
            QVERIFY(!copy.isEmpty());
            QProcess cli;
            cli.start(wstest::cliBinary(),
                      {QStringLiteral("generate"), QStringLiteral("--model"), copy, QStringLiteral("--prompt"),
                       QStringLiteral("Once upon a time"), QStringLiteral("--tokens"), QStringLiteral("100000"),
                       QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--mmap")});
            QVERIFY(cli.waitForStarted());
            QVERIFY(cli.waitForReadyRead(60000)); // the first generated text
            QCOMPARE(::truncate(copy.toLocal8Bit().constData(), 4096), 0);
            QVERIFY(cli.waitForFinished(120000));
            const QByteArray err = cli.readAllStandardError();
            QCOMPARE(cli.exitStatus(), QProcess::NormalExit); // no SIGBUS
            if (cli.exitCode() == 0)
                continue; // it finished before the cut; try again
            QVERIFY2(err.contains("truncated"), err.constData());
            QVERIFY2(err.contains(copy.toLocal8Bit()), err.constData());
            sawMidRun = true;
        }
        QVERIFY2(sawMidRun, "every run finished before the file was cut");
    }

    void generateOnResidentModelIgnoresTheCut()
    {
        WS_REQUIRE_MODEL(source, "random/qwen2-tiny-random.gguf");
        const QStringList args = {QStringLiteral("generate"), QStringLiteral("--prompt"),
                                  QStringLiteral("Once upon a time"), QStringLiteral("--tokens"), QStringLiteral("400"),
                                  QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--model")};
        QProcess intact;
        intact.start(wstest::cliBinary(), args + QStringList{source_q});
        QVERIFY(intact.waitForFinished(120000));
        QCOMPARE(intact.exitCode(), 0);
        const QByteArray expected = intact.readAllStandardOutput();
        QVERIFY(expected.size() > 100);
        bool sawMidRun = false;
        for (int attempt = 0; attempt < 5 && !sawMidRun; ++attempt) {
            QTemporaryDir dir;
            const QString copy = wstest::writableCopy(source_q, dir, QStringLiteral("model.gguf"));
            QVERIFY(!copy.isEmpty());
            QProcess cli;
            cli.start(wstest::cliBinary(), args + QStringList{copy});
            QVERIFY(cli.waitForStarted());
            QVERIFY(cli.waitForReadyRead(60000)); // the first generated text
            QCOMPARE(::truncate(copy.toLocal8Bit().constData(), 4096), 0);
            const QByteArray beforeCut = cli.readAllStandardOutput();
            QVERIFY(cli.waitForFinished(120000));
            const QByteArray afterCut = cli.readAllStandardOutput();
            QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
            QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
            QCOMPARE(beforeCut + afterCut, expected);
            sawMidRun = !afterCut.isEmpty(); // text came after the cut: it fell in the middle of the run
        }
        QVERIFY2(sawMidRun, "every run finished before the file was cut");
    }
};

QTEST_GUILESS_MAIN(TestCliFaults)
#include "tst_cli_faults.moc"
