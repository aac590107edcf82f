// The mouse wheel over the real MainWindow at 1366 × 768 edits nothing (issue 31, item 4): notches in both
// directions on a grid of points over every dock (each shown and raised in turn) and over the scenario bar, and then
// over every spin box, combo box and slider of those, leave the scenario, the request and every control's value as they
// were, and start no placement and no layout re-placement. The wheel does reach the docks: the Layout dock, taller than
// its room at this size, scrolls.
#include "app/common/languagemanager.h"
#include "app/common/presetlibrary.h"
#include "app/explore/layoutdock.h"
#include "app/explore/layouteditcontroller.h"
#include "app/session/chatcontroller.h"
#include "app/window/mainwindow.h"
#include "app/window/scenariobar.h"
#include "tests/common/testmodels.h"
#include "tests/common/wheel.h"
#include "views/widgets/wheelguard.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDockWidget>
#include <QPointer>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QUndoStack>
#include <QtTest>

#include <map>
#include <memory>

using namespace ws;

namespace {

// What a control shows: the value the wheel would change.
QString valueOf(const QWidget* w)
{
    if (auto* s = qobject_cast<const QAbstractSpinBox*>(w))
        return s->text();
    if (auto* c = qobject_cast<const QComboBox*>(w))
        return QString::number(c->currentIndex()) + QLatin1Char(' ') + c->currentText();
    if (auto* s = qobject_cast<const QAbstractSlider*>(w))
        return QString::number(s->value());
    return {};
}

QString nameOf(const QWidget* w)
{
    return QStringLiteral("%1 %2").arg(QLatin1String(w->metaObject()->className()), w->objectName());
}

} // namespace

class TestWindowWheel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void wheelOverEveryDockChangesNothing();

private:
    void verifyUnchanged(const char* where);
    void wheelOver(QWidget* area, const char* where); // a grid of points, 3 notches down then 3 up at each
    void wheelOverControls(QWidget* area, const char* where);

    std::unique_ptr<PresetLibrary> m_presets;
    std::unique_ptr<LanguageManager> m_languages;
    std::unique_ptr<MainWindow> m_window;
    Scenario m_scenario;
    Scenario m_request;
    std::map<QPointer<QWidget>, QString> m_values;
    std::unique_ptr<QSignalSpy> m_placements, m_layouts;
    int m_points = 0, m_controls = 0;
};

void TestWindowWheel::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("WaferScopeTest"));
    QSettings().clear();
    m_presets = std::make_unique<PresetLibrary>(QString());
    QVERIFY(m_presets->loadErrors().isEmpty());
    m_languages = std::make_unique<LanguageManager>();
    QVERIFY(m_languages->setLanguage(QStringLiteral("en")));
}

void TestWindowWheel::verifyUnchanged(const char* where)
{
    QCoreApplication::processEvents();
    QVERIFY2(!m_window->isBusy(), where);
    QVERIFY2(!m_window->layoutEdit()->isBusy(), where);
    QVERIFY2(m_placements->isEmpty(), where);
    QVERIFY2(m_layouts->isEmpty(), where);
    QCOMPARE(m_window->layoutEdit()->undoStack()->count(), 0);
    QVERIFY2(m_window->scenario() == m_scenario, where);
    const Scenario r = m_window->request();
    QVERIFY2(r.modelPreset == m_request.modelPreset && r.hardwarePreset == m_request.hardwarePreset &&
                 r.precision == m_request.precision && r.contextTokens == m_request.contextTokens &&
                 r.draftModel == m_request.draftModel,
             where);
    for (const auto& [control, value] : m_values)
        if (control)
            QVERIFY2(valueOf(control) == value,
                     qPrintable(QStringLiteral("%1: %2 became %3 (%4)")
                                    .arg(nameOf(control), value, valueOf(control), QLatin1String(where))));
}

void TestWindowWheel::wheelOver(QWidget* area, const char* where)
{
    const QRect r = QRect(area->mapTo(m_window.get(), QPoint(0, 0)), area->size()).intersected(m_window->rect());
    for (int notches : {-3, 3})
        for (int y = r.top() + 4; y < r.bottom(); y += 24)
            for (int x = r.left() + 4; x < r.right(); x += 24) {
                const QWidget* under = m_window->childAt(x, y);
                if (!under || (under != area && !area->isAncestorOf(under)))
                    continue; // another dock's tab bar, a splitter handle
                wstest::wheel(m_window.get(), QPoint(x, y), notches);
                ++m_points;
            }
    verifyUnchanged(where);
}

void TestWindowWheel::wheelOverControls(QWidget* area, const char* where)
{
    for (QWidget* control : area->findChildren<QWidget*>()) {
        if (!views::WheelGuard::guards(control) || !control->isVisible() || !control->isEnabled())
            continue;
        for (QWidget* p = control->parentWidget(); p; p = p->parentWidget())
            if (auto* scroll = qobject_cast<QScrollArea*>(p))
                scroll->ensureWidgetVisible(control, 0, 0);
        QCoreApplication::processEvents();
        const QPoint centre = control->mapTo(m_window.get(), control->rect().center());
        const QWidget* under = m_window->childAt(centre);
        if (!under || (under != control && !control->isAncestorOf(under)))
            continue; // covered, or out of the window at this size
        for (int notches : {-3, 3, -3})
            wstest::wheel(m_window.get(), centre, notches);
        ++m_controls;
        verifyUnchanged(qPrintable(QStringLiteral("%1 in %2").arg(nameOf(control), QLatin1String(where))));
    }
}

void TestWindowWheel::wheelOverEveryDockChangesNothing()
{
    m_window = std::make_unique<MainWindow>(*m_presets, *m_languages);
    {
        QSignalSpy finished(m_window.get(), &MainWindow::placementFinished);
        QVERIFY(m_window->ensurePlacement());
        m_window->resize(1366, 768);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        QVERIFY(finished.wait(120000) && finished.last().at(0).toBool());
    }
    // A model in the chat: the chat dock as it is in use, its settings enabled.
    const QString model = wstest::testModelPath(QStringLiteral("stories260K/stories260K.gguf"));
    if (QFileInfo::exists(model)) {
        QSignalSpy loaded(m_window->chat(), &ChatController::modelChanged);
        m_window->chat()->openModelFile(model);
        QVERIFY(loaded.wait(60000));
    } else if (wstest::runningInCi()) {
        QFAIL("test model missing");
    }
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->isBusy() && !m_window->layoutEdit()->isBusy(), 120000);
    QCoreApplication::processEvents();
    QCOMPARE(m_window->size(), QSize(1366, 768));

    // The keyboard focus rests on the heatmap, not on a control: no control here may take the wheel.
    QVERIFY(!views::WheelGuard::guards(QApplication::focusWidget()));
    m_scenario = m_window->scenario();
    m_request = m_window->request();
    for (QWidget* w : m_window->findChildren<QWidget*>())
        if (views::WheelGuard::guards(w))
            m_values[w] = valueOf(w);
    QVERIFY(m_values.size() >= 20);
    m_placements = std::make_unique<QSignalSpy>(m_window.get(), &MainWindow::placementFinished);
    m_layouts = std::make_unique<QSignalSpy>(m_window->layoutEdit(), &LayoutEditController::stateChanged);

    // The Layout dock's form is taller than its room here: the wheel over its first combo box scrolls it.
    LayoutDock* layout = m_window->layoutEdit()->dock();
    layout->show();
    layout->raise();
    QCoreApplication::processEvents();
    auto* scroll = qobject_cast<QScrollArea*>(layout->widget());
    QVERIFY2(scroll, "the Layout dock's page is in a scroll area");
    QScrollBar* bar = scroll->verticalScrollBar();
    QVERIFY2(bar->maximum() > 0, "the Layout dock has all the room it needs at 1366 x 768");
    bar->setValue(0);
    auto* strategy = layout->findChild<QComboBox*>(QStringLiteral("layoutStrategy"));
    QVERIFY(strategy);
    const QPoint at = strategy->mapTo(m_window.get(), strategy->rect().center());
    QVERIFY(m_window->childAt(at) == strategy || strategy->isAncestorOf(m_window->childAt(at)));
    wstest::wheel(m_window.get(), at, -2);
    QVERIFY2(bar->value() > 0, "the wheel over an unfocused combo box scrolls the dock");
    verifyUnchanged("the Layout dock's strategy");
    if (QTest::currentTestFailed())
        return;

    int docks = 0;
    for (QDockWidget* dock : m_window->findChildren<QDockWidget*>()) {
        const bool wasVisible = dock->isVisible();
        dock->show();
        dock->raise();
        QCoreApplication::processEvents();
        if (dock->visibleRegion().isEmpty())
            QFAIL(qPrintable(dock->objectName() + QStringLiteral(" is not on screen")));
        // A dock shown fills what waited while it was hidden (the comparison's charts and settings): its controls'
        // values as it appears are those the wheel must leave.
        if (!wasVisible)
            for (QWidget* w : dock->findChildren<QWidget*>())
                if (m_values.count(w))
                    m_values[w] = valueOf(w);
        const QByteArray name = dock->objectName().toUtf8();
        wheelOver(dock, name.constData());
        if (QTest::currentTestFailed())
            return;
        wheelOverControls(dock, name.constData());
        if (QTest::currentTestFailed())
            return;
        if (!wasVisible)
            dock->hide();
        ++docks;
    }
    QVERIFY(docks >= 9); // inspector, defects, layout, chat, dataflow, comparison, token race, compare, sweep
    auto* scenarioBar = m_window->findChild<ScenarioBar*>();
    QVERIFY(scenarioBar);
    wheelOver(scenarioBar, "scenario bar");
    if (QTest::currentTestFailed())
        return;
    wheelOverControls(scenarioBar, "scenario bar");
    if (QTest::currentTestFailed())
        return;
    qInfo("%d docks, %d points, %d controls wheeled over", docks, m_points, m_controls);
    QVERIFY(m_controls >= 20);
    verifyUnchanged("the end");
}

QTEST_MAIN(TestWindowWheel)
#include "tst_windowwheel.moc"
