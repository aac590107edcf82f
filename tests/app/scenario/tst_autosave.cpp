// Autosave: periodic atomic autosave, recovery after a session that did not
// end cleanly, one session per folder. processKilledAndRecovered runs the real
// `waferscope` binary, kills it with SIGKILL and checks the next start recovers;
// processTerminated sends SIGTERM: a clean exit that keeps unsaved changes for
// the next start, which restores them without asking.
#include "app/scenario/autosave.h"
#include "app/scenario/scenarioformat.h"
#include "tests/common/testmodels.h"

#include <QDateTime>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace ws;
using namespace std::chrono_literals;

namespace {

Scenario scenarioWithBatch(int batch)
{
    Scenario s;
    s.modelPreset = QStringLiteral("qwen3-32b");
    s.batch = batch;
    return s;
}

QString findAutosave(const QString& dataDir)
{
    QDirIterator it(dataDir, {QStringLiteral("autosave.waferscope")}, QDir::Files, QDirIterator::Subdirectories);
    return it.hasNext() ? it.next() : QString();
}

QProcessEnvironment appEnvironment(const QString& dataDir)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), dataDir); // QStandardPaths::AppDataLocation lives under it
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dataDir + QStringLiteral("/config"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    return env;
}

// Runs the app to completion and returns its exit code (-1 if it did not finish in time).
int runApp(const QString& dataDir, const QStringList& args, QByteArray* errors = nullptr)
{
    QProcess app;
    app.setProcessEnvironment(appEnvironment(dataDir));
    app.start(wstest::appBinary(), args);
    if (!app.waitForFinished(60000)) {
        app.kill();
        app.waitForFinished();
        return -1;
    }
    if (errors)
        *errors = app.readAllStandardError();
    return app.exitStatus() == QProcess::NormalExit ? app.exitCode() : -1;
}

// Starts the app with `args` and waits until it has written its first autosave (after its signal handlers are
// in place); false when it did not start, or ended first.
bool startUntilAutosaved(QProcess& app, const QString& dataDir, const QStringList& args)
{
    app.setProcessEnvironment(appEnvironment(dataDir));
    app.start(wstest::appBinary(), args);
    if (!app.waitForStarted(30000))
        return false;
    return QTest::qWaitFor([&] { return !findAutosave(dataDir).isEmpty() || app.state() == QProcess::NotRunning; },
                           30000) &&
           app.state() == QProcess::Running && !findAutosave(dataDir).isEmpty();
}

} // namespace

class TestAutosave : public QObject
{
    Q_OBJECT

private slots:
    void writesOnlyChangesAndCleansUpOnCleanExit()
    {
        QTemporaryDir dir;
        Autosave autosave;
        autosave.setDirectory(dir.path());
        Scenario current = scenarioWithBatch(3);
        autosave.setProvider([&] { return current; });
        QSignalSpy saved(&autosave, &Autosave::autosaved);
        QVERIFY(autosave.beginSession());
        QVERIFY(!autosave.hasRecovery());
        QVERIFY(autosave.saveNow());
        QCOMPARE(saved.size(), 1);
        QVERIFY(autosave.saveNow()); // unchanged: not written again
        QCOMPARE(saved.size(), 1);
        current.batch = 4;
        QVERIFY(autosave.saveNow());
        QCOMPARE(saved.size(), 2);
        QString error;
        const auto onDisk = ScenarioFormat::load(autosave.autosavePath(), &error);
        QVERIFY2(onDisk, qPrintable(error));
        QCOMPARE(onDisk->batch, 4);
        autosave.endSession();
        QVERIFY(!QFile::exists(autosave.autosavePath()));
    }

    void timerAutosaves()
    {
        QTemporaryDir dir;
        Autosave autosave;
        autosave.setDirectory(dir.path());
        autosave.setInterval(20ms);
        autosave.setProvider([] { return scenarioWithBatch(9); });
        QVERIFY(autosave.beginSession());
        QTRY_VERIFY(QFile::exists(autosave.autosavePath()));
        autosave.endSession();
    }

    void abandonedSessionIsRecovered()
    {
        QTemporaryDir dir;
        {
            Autosave crashed; // destroyed without endSession(), as after a crash
            crashed.setDirectory(dir.path());
            crashed.setProvider([] { return scenarioWithBatch(7); });
            QVERIFY(crashed.beginSession());
            QVERIFY(crashed.saveNow());
        }
        Autosave next;
        next.setDirectory(dir.path());
        Scenario current = scenarioWithBatch(1);
        next.setProvider([&] { return current; });
        QVERIFY(next.beginSession());
        QVERIFY(next.hasRecovery());
        QVERIFY(next.saveNow()); // the left-over file is kept until the user decides
        QString error;
        const auto recovered = next.takeRecovery(&error);
        QVERIFY2(recovered, qPrintable(error));
        QCOMPARE(recovered->batch, 7);
        QVERIFY(!next.hasRecovery());
        next.endSession();
    }

    void discardDeletesTheLeftOver()
    {
        QTemporaryDir dir;
        QFile leftOver(dir.filePath("autosave.waferscope"));
        QVERIFY(leftOver.open(QIODevice::WriteOnly));
        leftOver.write(ScenarioFormat::toJson(scenarioWithBatch(2)));
        leftOver.close();
        Autosave autosave;
        autosave.setDirectory(dir.path());
        QVERIFY(autosave.beginSession());
        QVERIFY(autosave.hasRecovery());
        autosave.discardRecovery();
        QVERIFY(!autosave.hasRecovery());
        QVERIFY(!QFile::exists(autosave.autosavePath()));
    }

    void corruptLeftOverGivesAnError()
    {
        QTemporaryDir dir;
        QFile leftOver(dir.filePath("autosave.waferscope"));
        QVERIFY(leftOver.open(QIODevice::WriteOnly));
        leftOver.write("{\"version\": 1, \"model\": {\"pre");
        leftOver.close();
        Autosave autosave;
        autosave.setDirectory(dir.path());
        QVERIFY(autosave.beginSession());
        QString error;
        QVERIFY(!autosave.takeRecovery(&error));
        QVERIFY(error.contains("truncated"));
    }

    void secondInstanceDoesNotShareTheSession()
    {
        QTemporaryDir dir;
        Autosave first;
        first.setDirectory(dir.path());
        QVERIFY(first.beginSession());
        Autosave second;
        second.setDirectory(dir.path());
        QSignalSpy failed(&second, &Autosave::autosaveFailed);
        QVERIFY(!second.beginSession());
        QCOMPARE(failed.size(), 1);
        first.endSession();
        QVERIFY(second.beginSession());
        second.endSession();
    }

    void processKilledAndRecovered()
    {
        QTemporaryDir dir;
        const QString dataDir = dir.filePath("data");
        const QString original = dir.filePath("original.waferscope");
        Scenario scenario = scenarioWithBatch(12);
        scenario.hardwarePreset = QStringLiteral("wse2");
        scenario.defects.cores = {{0, 3, 4}};
        scenario.layer = MeshLayer::KvCache;
        QString error;
        QVERIFY2(ScenarioFormat::save(scenario, original, &error), qPrintable(error));

        // 1. The app opens the scenario, autosaves it, and is killed with SIGKILL (QProcess::kill on Unix).
        QProcess app;
        QVERIFY2(startUntilAutosaved(app, dataDir, {QStringLiteral("--scenario"), original}),
                 qPrintable(app.errorString()));
        app.kill();
        QVERIFY(app.waitForFinished(10000));
        QCOMPARE(app.exitStatus(), QProcess::CrashExit);
        QVERIFY(!findAutosave(dataDir).isEmpty()); // the crash left it behind

        // 2. The next start recovers it (without a dialog: --recover) and exits cleanly.
        const QString recovered = dir.filePath("recovered.waferscope");
        QByteArray errors;
        QCOMPARE(runApp(dataDir, {QStringLiteral("--recover"), QStringLiteral("--print-scenario"), recovered}, &errors),
                 0);
        const auto reopened = ScenarioFormat::load(recovered, &error);
        QVERIFY2(reopened, qPrintable(error + QString::fromLocal8Bit(errors)));
        QVERIFY(*reopened == scenario);

        // 3. That clean exit removed the autosave: a third start has nothing to recover.
        QVERIFY(findAutosave(dataDir).isEmpty());
        const QString fresh = dir.filePath("fresh.waferscope");
        QCOMPARE(runApp(dataDir, {QStringLiteral("--recover"), QStringLiteral("--print-scenario"), fresh}), 0);
        const auto freshScenario = ScenarioFormat::load(fresh, &error);
        QVERIFY2(freshScenario, qPrintable(error));
        QVERIFY(*freshScenario == Scenario{});
    }

    void processTerminatedKeepsUnsavedWorkAndExitsCleanly()
    {
        QTemporaryDir dir;
        const QString dataDir = dir.filePath("data");
        const QString original = dir.filePath("original.waferscope");
        Scenario scenario = scenarioWithBatch(7);
        scenario.hardwarePreset = QStringLiteral("wse2");
        QString error;
        QVERIFY2(ScenarioFormat::save(scenario, original, &error), qPrintable(error));

        // 1. A scenario opened from its file and unchanged: SIGTERM is a clean exit, nothing left to recover.
        QProcess app;
        QVERIFY2(startUntilAutosaved(app, dataDir, {QStringLiteral("--scenario"), original}),
                 qPrintable(app.errorString()));
        app.terminate(); // SIGTERM
        QVERIFY(app.waitForFinished(30000));
        QCOMPARE(app.exitStatus(), QProcess::NormalExit);
        QCOMPARE(app.exitCode(), 0);
        QVERIFY(findAutosave(dataDir).isEmpty());

        // 2. A session with unsaved changes (a recovered scenario is saved nowhere yet) ended by SIGTERM.
        QVERIFY2(startUntilAutosaved(app, dataDir, {QStringLiteral("--scenario"), original}),
                 qPrintable(app.errorString()));
        app.kill(); // a crash leaves the autosave
        QVERIFY(app.waitForFinished(10000));
        const QString leftOver = findAutosave(dataDir);
        QVERIFY(!leftOver.isEmpty());
        {
            QFile file(leftOver);
            QVERIFY(file.open(QIODevice::ReadWrite));
            QVERIFY(file.setFileTime(QDateTime::currentDateTime().addDays(-1), QFileDevice::FileModificationTime));
        }
        app.start(wstest::appBinary(), {QStringLiteral("--recover")});
        QVERIFY2(app.waitForStarted(30000), qPrintable(app.errorString()));
        // Recovering rewrites the autosave (this session's first), after the handlers are in place.
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(leftOver).lastModified() > QDateTime::currentDateTime().addSecs(-3600) ||
                                     app.state() == QProcess::NotRunning,
                                 30000);
        app.terminate();
        QVERIFY(app.waitForFinished(30000));
        QCOMPARE(app.exitStatus(), QProcess::NormalExit);
        QCOMPARE(app.exitCode(), 0);
        QVERIFY2(!findAutosave(dataDir).isEmpty(), "SIGTERM lost the unsaved changes");

        // 3. The next start restores them without asking (no --recover; not interactive here, where a crash's
        //    left-over would stay undecided and the default scenario would be printed).
        const QString restored = dir.filePath("restored.waferscope");
        QByteArray errors;
        QCOMPARE(runApp(dataDir, {QStringLiteral("--print-scenario"), restored}, &errors), 0);
        const auto reopened = ScenarioFormat::load(restored, &error);
        QVERIFY2(reopened, qPrintable(error + QString::fromLocal8Bit(errors)));
        QVERIFY(*reopened == scenario);
        QVERIFY(findAutosave(dataDir).isEmpty());
    }

    void appOpensAFileArgumentAsTheDesktopFileDoes()
    {
        // The desktop file runs "waferscope %f": a bare FILE is the same as --scenario FILE.
        QTemporaryDir dir;
        Scenario scenario;
        scenario.modelPreset = QStringLiteral("qwen3-32b");
        scenario.batch = 3;
        const QString file = dir.filePath("opened.waferscope");
        QString error;
        QVERIFY2(ScenarioFormat::save(scenario, file, &error), qPrintable(error));
        const QString out = dir.filePath("out.waferscope");
        QByteArray errors;
        QCOMPARE(runApp(dir.filePath("data"), {file, QStringLiteral("--print-scenario"), out}, &errors), 0);
        const auto printed = ScenarioFormat::load(out, &error);
        QVERIFY2(printed, qPrintable(error + errors));
        QCOMPARE(*printed, scenario);
        // Two files, or a file and --scenario, is a mistake, said on one line.
        QCOMPARE(runApp(dir.filePath("data"), {file, file, QStringLiteral("--print-scenario"), out}, &errors), 2);
        QVERIFY2(errors.contains("one scenario file"), errors.constData());
    }

    void appRejectsABadScenarioFile()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath("bad.waferscope");
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"version\": 7}");
        file.close();
        QByteArray errors;
        QCOMPARE(runApp(dir.filePath("data"),
                        {QStringLiteral("--scenario"), bad, QStringLiteral("--print-scenario"), dir.filePath("out")},
                        &errors),
                 2);
        QVERIFY2(errors.contains("newer WaferScope"), errors.constData());
        QVERIFY(!QFile::exists(dir.filePath("out")));
    }
};

QTEST_MAIN(TestAutosave)
#include "tst_autosave.moc"
