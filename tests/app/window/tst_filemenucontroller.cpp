// FileMenuController: the modified marker, open/save through the scenario
// callbacks, recent files, and that a bad file changes nothing.
#include "app/scenario/scenarioformat.h"
#include "app/window/filemenucontroller.h"
#include "tests/app/window/filemenufixture.h"

#include <QFile>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace ws;

class TestFileMenuController : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init() { m_files.setUp(); }
    void cleanup() { m_files.tearDown(); }

    void buildsTheFileMenu()
    {
        QMenu* menu = m_files.controller->buildFileMenu();
        QStringList texts;
        for (QAction* action : menu->actions())
            texts << action->text();
        for (const char* expected : {"&New", "&Open…", "Open &Recent", "&Save", "Save &As…", "&Export", "&Record…"})
            QVERIFY2(texts.contains(QString::fromUtf8(expected)), expected);
    }

    void modifiedMarker()
    {
        QVERIFY(!m_files.window->isWindowModified());
        QVERIFY(m_files.window->windowTitle().contains("[*]"));
        m_files.controller->markModified();
        QVERIFY(m_files.controller->isModified());
        QVERIFY(m_files.window->isWindowModified());
    }

    void openSaveAndRecent()
    {
        QTemporaryDir dir;
        Scenario s;
        s.modelPreset = "qwen3-32b";
        s.batch = 5;
        const QString path = dir.filePath("a.waferscope");
        QString error;
        QVERIFY(ScenarioFormat::save(s, path, &error));
        m_files.controller->markModified();
        QSignalSpy opened(m_files.controller, &FileMenuController::scenarioOpened);
        QVERIFY(m_files.controller->openFile(path));
        QCOMPARE(opened.size(), 1);
        QVERIFY(m_files.shown == s);
        QVERIFY(!m_files.controller->isModified());
        QCOMPARE(m_files.controller->filePath(), path);
        QVERIFY(m_files.window->windowTitle().startsWith("a.waferscope"));
        QCOMPARE(m_files.controller->recentFiles().value(0), path);

        m_files.shown.batch = 6;
        m_files.controller->markModified();
        QVERIFY(m_files.controller->save());
        QVERIFY(!m_files.controller->isModified());
        QCOMPARE(ScenarioFormat::load(path, &error)->batch, 6);
    }

    void badFileChangesNothing_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::newRow("future version") << QByteArray("{\"version\": 2}");
        QTest::newRow("truncated") << QByteArray("{\"version\": 1, \"model\": {");
        QTest::newRow("garbage") << QByteArray("\x00\x01\x02", 3);
    }
    void badFileChangesNothing()
    {
        QFETCH(QByteArray, content);
        QTemporaryDir dir;
        const QString path = dir.filePath("bad.waferscope");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
        file.close();
        m_files.shown.batch = 42;
        m_files.controller->markModified();
        QSignalSpy errors(m_files.controller, &FileMenuController::errorOccurred);
        QVERIFY(!m_files.controller->openFile(path));
        QCOMPARE(errors.size(), 1);
        QVERIFY(errors.first().at(0).toString().contains(path));
        QCOMPARE(m_files.shown.batch, 42);         // the current scenario is untouched
        QVERIFY(m_files.controller->isModified()); // and still marked modified
        QVERIFY(m_files.controller->filePath().isEmpty());
        QVERIFY(!m_files.controller->recentFiles().contains(path));
    }

private:
    wstest::FileMenuFixture m_files;
};

QTEST_MAIN(TestFileMenuController)
#include "tst_filemenucontroller.moc"
