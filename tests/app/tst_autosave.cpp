// Autosave: periodic atomic autosave, recovery after a session that did not
// end cleanly, one session per folder. processKilledAndRecovered runs the real
// `waferscope` binary, kills it with SIGKILL and checks the next start recovers.
#include "app/io/autosave.h"
#include "app/io/scenarioformat.h"

#include <QFile>
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
};

QTEST_MAIN(TestAutosave)
#include "tst_autosave.moc"
