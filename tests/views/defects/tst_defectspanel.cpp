// DefectsPanel (offscreen): shows the numbers it is given, and its tools ask for the right edits.
#include "views/defects/defectspanel.h"
#include "views/defects/yieldpanel.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLocale>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

using namespace ws;
using ws::views::DefectsPanel;

class TestDefectsPanel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }

    void showsNumbers_data()
    {
        QTest::addColumn<qlonglong>("dead");
        QTest::addColumn<qlonglong>("spares");
        QTest::addColumn<qlonglong>("lost");
        QTest::newRow("few") << 12LL << 9LL << 0LL;
        QTest::newRow("many") << 4567LL << 3210LL << 7LL;
    }

    void showsNumbers()
    {
        QFETCH(qlonglong, dead);
        QFETCH(qlonglong, spares);
        QFETCH(qlonglong, lost);
        DefectsPanel panel;
        views::DefectsPanelNumbers n;
        n.valid = true;
        n.summary.deadCores = dead;
        n.summary.sparesUsed = spares;
        n.summary.shiftedCores = dead * 3;
        n.summary.unrepairableSegments = lost > 0 ? 1 : 0;
        n.summary.nominalUsableCores = 1000;
        n.summary.usableCores = 1000 - lost;
        n.summary.capacityLostCores = lost;
        n.usableCols = 100;
        n.usableRows = 10;
        n.hopStretch = 1.25;
        n.secondsPerTokenBefore = 0.002;
        n.secondsPerTokenAfter = 0.0025;
        panel.setNumbers(n);
        const QLocale c = QLocale::c();
        QCOMPARE(panel.valueText(QStringLiteral("dead")), c.toString(dead));
        QCOMPARE(panel.valueText(QStringLiteral("spares")), c.toString(spares));
        QCOMPARE(panel.valueText(QStringLiteral("shifted")), c.toString(dead * 3));
        QVERIFY(panel.valueText(QStringLiteral("lost")).startsWith(c.toString(lost) + QLatin1Char(' ')));
        QVERIFY(panel.valueText(QStringLiteral("usable")).startsWith(c.toString(1000 - lost)));
        QCOMPARE(panel.valueText(QStringLiteral("stretch")), QStringLiteral("1.2500"));
        QCOMPARE(panel.valueText(QStringLiteral("before")), QStringLiteral("2.000 ms"));
        QCOMPARE(panel.valueText(QStringLiteral("after")), QStringLiteral("2.500 ms"));
        QCOMPARE(panel.valueText(QStringLiteral("change")), QString::fromUtf8("+500.0 µs (+25.000%)"));

        n.devicesBefore = 2;
        n.devicesAfter = 3;
        panel.setNumbers(n);
        QCOMPARE(panel.valueText(QStringLiteral("before")), QStringLiteral("2.000 ms on 2 wafers"));
        QCOMPARE(panel.valueText(QStringLiteral("after")), QStringLiteral("2.500 ms on 3 wafers"));

        views::DefectsPanelNumbers none;
        none.error = QStringLiteral("the defects leave no usable mesh");
        panel.setNumbers(none);
        QCOMPARE(panel.valueText(QStringLiteral("dead")), QStringLiteral("–"));
        QCOMPARE(panel.valueText(QStringLiteral("status")), none.error);
    }

    void toolsEmitRequests()
    {
        DefectsPanel panel;
        panel.setWafer(QStringLiteral("WSE-3"), 0.05, 12, 7, 100, 1);
        QSignalSpy poisson(&panel, &DefectsPanel::poissonRequested);
        QSignalSpy clustered(&panel, &DefectsPanel::clusteredRequested);
        QSignalSpy die(&panel, &DefectsPanel::dieRequested);
        QSignalSpy clear(&panel, &DefectsPanel::clearRequested);
        QSignalSpy scheme(&panel, &DefectsPanel::schemeRequested);
        QSignalSpy undo(&panel, &DefectsPanel::undoRequested);
        QSignalSpy redo(&panel, &DefectsPanel::redoRequested);
        QSignalSpy brush(&panel, &DefectsPanel::brushChanged);

        panel.setDensity(0.003);
        panel.setSeed(42);
        panel.findChild<QPushButton*>(QStringLiteral("poisson"))->click();
        QCOMPARE(poisson.count(), 1);
        QCOMPARE(poisson.at(0).at(0).toDouble(), 0.003);
        QCOMPARE(poisson.at(0).at(1).toULongLong(), 42ULL);
        // The next draw uses the next seed.
        panel.findChild<QDoubleSpinBox*>(QStringLiteral("alpha"))->setValue(0.5);
        panel.findChild<QPushButton*>(QStringLiteral("clustered"))->click();
        QCOMPARE(clustered.count(), 1);
        QCOMPARE(clustered.at(0).at(0).toDouble(), 0.003);
        QCOMPARE(clustered.at(0).at(1).toDouble(), 0.5);
        QCOMPARE(clustered.at(0).at(2).toULongLong(), 43ULL);

        auto* dieX = panel.findChild<QSpinBox*>(QStringLiteral("dieX"));
        auto* dieY = panel.findChild<QSpinBox*>(QStringLiteral("dieY"));
        QCOMPARE(dieX->maximum(), 12);
        QCOMPARE(dieY->maximum(), 7);
        dieX->setValue(3);
        dieY->setValue(7);
        panel.findChild<QPushButton*>(QStringLiteral("killDie"))->click();
        QCOMPARE(die.count(), 1);
        QCOMPARE(die.at(0).at(0).toInt(), 2); // 0-based
        QCOMPARE(die.at(0).at(1).toInt(), 6);

        panel.findChild<QPushButton*>(QStringLiteral("clear"))->click();
        QCOMPARE(clear.count(), 1);

        panel.findChild<QComboBox*>(QStringLiteral("scheme"))->setCurrentIndex(DefectsPanel::DieRowColumn);
        QCOMPARE(scheme.count(), 1);
        QCOMPARE(scheme.at(0).at(0).toInt(), int(DefectsPanel::DieRowColumn));
        panel.findChild<QSpinBox*>(QStringLiteral("dieSpares"))->setValue(4);
        QCOMPARE(scheme.count(), 2);
        QCOMPARE(scheme.at(1).at(1).toInt(), 4);

        // Undo/redo follow the history they are given.
        QVERIFY(!panel.undoAction()->isEnabled());
        panel.undoAction()->trigger();
        QCOMPARE(undo.count(), 0);
        panel.setHistory(true, true);
        panel.undoAction()->trigger();
        panel.redoAction()->trigger();
        QCOMPARE(undo.count(), 1);
        QCOMPARE(redo.count(), 1);
        QVERIFY(panel.undoAction()->shortcut() == QKeySequence::Undo ||
                panel.undoAction()->shortcut().toString() == QStringLiteral("Ctrl+Z"));
        QCOMPARE(panel.redoAction()->shortcut().toString(), QStringLiteral("Ctrl+Shift+Z"));

        panel.findChild<QCheckBox*>(QStringLiteral("brush"))->setChecked(true);
        QCOMPARE(brush.count(), 1);
        QCOMPARE(brush.at(0).at(0).toBool(), true);
        QCOMPARE(brush.at(0).at(1).toBool(), true); // kills by default
        panel.findChild<QComboBox*>(QStringLiteral("brushMode"))->setCurrentIndex(1);
        QCOMPARE(brush.count(), 2);
        QCOMPARE(brush.at(1).at(1).toBool(), false);
        QVERIFY(!panel.brushKills());
    }

    void yieldTab()
    {
        DefectsPanel panel;
        QVERIFY(panel.yieldPanel());
        auto curves = std::make_shared<YieldCurves>();
        curves->defectsPerMm2 = {1e-4, 1e-3};
        curves->poisson = {0.9, 0.5};
        curves->murphy = {0.9, 0.5};
        curves->seeds = {0.9, 0.5};
        curves->negativeBinomial = {0.9, 0.5};
        panel.setYieldCurves(curves);
        QCOMPARE(panel.yieldPanel()->curves().get(), curves.get());
    }
};

QTEST_MAIN(TestDefectsPanel)
#include "tst_defectspanel.moc"
