// FileMenuController: the modified marker, open/save through the scenario
// callbacks, recent files, and that a bad file changes nothing.
#include "app/scenario/scenarioformat.h"
#include "app/window/filemenucontroller.h"

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

    void init()
    {
        m_window = std::make_unique<QMainWindow>();
        m_controller = new FileMenuController(m_window.get());
        m_controller->setInteractive(false);
        m_shown = Scenario{};
        m_controller->setScenarioAccess([this] { return m_shown; }, [this](const Scenario& s) { m_shown = s; });
    }
    void cleanup() { m_window.reset(); }

    void buildsTheFileMenu()
    {
        QMenu* menu = m_controller->buildFileMenu();
        QStringList texts;
        for (QAction* action : menu->actions())
            texts << action->text();
        for (const char* expected : {"&New", "&Open…", "Open &Recent", "&Save", "Save &As…", "&Export", "&Record…"})
            QVERIFY2(texts.contains(QString::fromUtf8(expected)), expected);
    }

    void modifiedMarker()
    {
        QVERIFY(!m_window->isWindowModified());
        QVERIFY(m_window->windowTitle().contains("[*]"));
        m_controller->markModified();
        QVERIFY(m_controller->isModified());
        QVERIFY(m_window->isWindowModified());
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
        m_controller->markModified();
        QSignalSpy opened(m_controller, &FileMenuController::scenarioOpened);
        QVERIFY(m_controller->openFile(path));
        QCOMPARE(opened.size(), 1);
        QVERIFY(m_shown == s);
        QVERIFY(!m_controller->isModified());
        QCOMPARE(m_controller->filePath(), path);
        QVERIFY(m_window->windowTitle().startsWith("a.waferscope"));
        QCOMPARE(m_controller->recentFiles().value(0), path);

        m_shown.batch = 6;
        m_controller->markModified();
        QVERIFY(m_controller->save());
        QVERIFY(!m_controller->isModified());
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
        m_shown.batch = 42;
        m_controller->markModified();
        QSignalSpy errors(m_controller, &FileMenuController::errorOccurred);
        QVERIFY(!m_controller->openFile(path));
        QCOMPARE(errors.size(), 1);
        QVERIFY(errors.first().at(0).toString().contains(path));
        QCOMPARE(m_shown.batch, 42);         // the current scenario is untouched
        QVERIFY(m_controller->isModified()); // and still marked modified
        QVERIFY(m_controller->filePath().isEmpty());
        QVERIFY(!m_controller->recentFiles().contains(path));
    }

private:
    std::unique_ptr<QMainWindow> m_window;
    FileMenuController* m_controller = nullptr;
    Scenario m_shown;
};

QTEST_MAIN(TestFileMenuController)
#include "tst_filemenucontroller.moc"
