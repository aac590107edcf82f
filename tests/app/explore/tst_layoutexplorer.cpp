// The layout explorer in the window: the compare dock's delta table equals `waferscope-cli compare --json`'s
// deltas for the same two scenario files (one mechanism: predictScenario and comparePredictions), the difference
// layers add up to what changed, the sweep dock's points are the engine's sweep of the window's scenario with
// progress, cancel, export as the CLI writes it and a point that opens as B with its own layout, and the
// optimiser's result opens as B against the default as A, never slower.
#include "app/common/presetlibrary.h"
#include "app/explore/comparedock.h"
#include "app/explore/explorebase.h"
#include "app/explore/optimizerunner.h"
#include "app/explore/sweepdock.h"
#include "app/scenario/scenarioformat.h"
#include "app/scenario/scenarioprediction.h"
#include "engine/explore/layoutcompare.h"
#include "views/explore/layoutdeltatable.h"
#include "views/explore/sweepchart.h"
#include "views/mesh/meshimage.h"
#include "views/mesh/meshview.h"

#include "tests/common/clirunner.h"
#include "tests/common/scenariofiles.h"

#include <QApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

#include <cmath>

namespace {
using wstest::readAll;
using wstest::scenarioFile;
using wstest::writeAll;

ws::Scenario smallScenario()
{
    ws::Scenario s;
    s.modelPreset = QStringLiteral("llama-3.1-8b");
    s.hardwarePreset = QStringLiteral("wse3");
    s.precision = ws::Precision::Bf16;
    s.contextTokens = 4096;
    return s;
}
} // namespace

class TestLayoutExplorer : public QObject
{
    Q_OBJECT

    // Each shown cell against its row's exported values: the id, then A, B and B - A as the table formats them
    // (bytes for the headroom, whole numbers for counts, five significant digits otherwise; B - A signed).
    static void showsTheRowsItDescribes(const ws::views::LayoutDeltaTable& table)
    {
        const ws::views::ChartData data = table.rows().exported();
        QCOMPARE(data.columns, QStringList({"quantity", "a", "b", "b_minus_a"}));
        QCOMPARE(table.columnCount(), 4);
        QCOMPARE(table.rowCount(), int(data.rows.size()));
        const QLocale locale;
        bool phases = false;
        for (int r = 0; r < table.rowCount(); ++r) {
            const QString id = data.rows[r].at(0).toString();
            phases = phases || id.startsWith("breakdown/");
            QCOMPARE(table.item(r, 0)->text().isEmpty(), false);
            for (int c = 1; c < 4; ++c) {
                const double v = data.rows[r].at(c).toDouble();
                const QString sign = c == 3 && v > 0   ? QStringLiteral("+")
                                     : c == 3 && v < 0 ? QStringLiteral("−")
                                                       : QString();
                const QString text = id == "sram_headroom_bytes" ? sign + ws::views::formatBytes(std::fabs(v))
                                     : id == "devices" || id == "kv_capacity_tokens" || id == "max_concurrency"
                                         ? (v > 0 ? sign : QString()) + locale.toString(qlonglong(std::llround(v)))
                                         : (v > 0 ? sign : QString()) + locale.toString(v, 'g', 5);
                QVERIFY2(table.item(r, c)->text() == text,
                         qPrintable(QStringLiteral("%1, %2: \"%3\" for %4")
                                        .arg(id, data.columns.at(c), table.item(r, c)->text(), text)));
            }
        }
        QVERIFY(phases);
    }

private slots:
    void compareTableEqualsTheCliDeltas()
    {
        QTemporaryDir dir;
        const QString layout = dir.filePath("B.json");
        const auto placed =
            wstest::runCli({"place", "--model", "llama-3.1-8b", "--hardware", "wse3", "--precision", "bf16",
                            "--context", "4096", "--order", "row-major", "--bands", "3", "--layout-out", layout});
        QVERIFY2(placed.exitCode == 0, placed.err.constData());
        writeAll(dir.filePath("A.waferscope"), scenarioFile("llama-3.1-8b", {}));
        writeAll(dir.filePath("B.waferscope"), scenarioFile("llama-3.1-8b", readAll(layout)));
        const auto c =
            wstest::runCli({"compare", dir.filePath("A.waferscope"), dir.filePath("B.waferscope"), "--json"});
        QVERIFY2(c.exitCode == 0, c.err.constData());
        const QJsonObject delta = QJsonDocument::fromJson(c.out).object().value("delta").toObject();

        QString error;
        const auto a = ws::ScenarioFormat::load(dir.filePath("A.waferscope"), &error);
        const auto b = ws::ScenarioFormat::load(dir.filePath("B.waferscope"), &error);
        QVERIFY2(a && b, qPrintable(error));
        const ws::PresetLibrary presets;
        ws::CompareDock dock(presets);
        QSignalSpy done(&dock, &ws::CompareDock::compared);
        dock.pinA(*a, QStringLiteral("A"));
        dock.setB(*b, QStringLiteral("B"));
        QVERIFY(done.wait(120000));
        QVERIFY2(done.last().at(0).toBool(), qPrintable(dock.lastError()));
        const auto rows = dock.table()->deltas();
        QCOMPARE(qsizetype(rows.size()), delta.size() - 1 + delta.value("breakdown").toObject().size());
        bool anyNonZero = false;
        for (const auto& [id, value] : rows) {
            const QJsonValue expected =
                id.startsWith("breakdown/") ? delta.value("breakdown").toObject().value(id.mid(10)) : delta.value(id);
            QVERIFY2(expected.isDouble(), qPrintable(id));
            QVERIFY2(qAbs(value - expected.toDouble()) <= 1e-9 * (1 + qAbs(expected.toDouble())), qPrintable(id));
            anyNonZero = anyNonZero || value != 0;
        }
        QVERIFY(anyNonZero); // row-major with 3 bands is another layout than the default
        showsTheRowsItDescribes(*dock.table());

        // Zoom and pan follow each other: a wheel on A zooms B to the same factor and centre, and back.
        dock.resize(900, 700);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        const QPointF at(dock.viewA()->width() / 3.0, dock.viewA()->height() / 3.0);
        QWheelEvent wheel(at, dock.viewA()->mapToGlobal(at), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(dock.viewA(), &wheel);
        QVERIFY(dock.viewA()->zoomFactor() > 1.0);
        QCOMPARE(dock.viewB()->zoomFactor(), dock.viewA()->zoomFactor());
        QCOMPARE(dock.viewB()->centreCore(), dock.viewA()->centreCore());
        QWheelEvent back(at, dock.viewB()->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                         Qt::NoScrollPhase, false);
        QApplication::sendEvent(dock.viewB(), &back);
        QCOMPARE(dock.viewA()->zoomFactor(), dock.viewB()->zoomFactor());

        // Difference mode draws B - A on B's view; side by side draws the layers again.
        dock.setMode(ws::CompareDock::Mode::SramDifference);
        QVERIFY(dock.viewB()->difference());
        QCOMPARE(dock.viewB()->difference()->kind, ws::MeshDifference::Kind::SramBytes);
        dock.setMode(ws::CompareDock::Mode::TimeDifference);
        QVERIFY(dock.viewB()->difference());
        QCOMPARE(dock.viewB()->difference()->kind, ws::MeshDifference::Kind::RegionTimeMs);
        dock.setMode(ws::CompareDock::Mode::Layouts);
        QVERIFY(!dock.viewB()->difference());
    }

    void differenceLayersAddUpToTheChange()
    {
        const ws::PresetLibrary presets;
        QString error;
        ws::Scenario b = smallScenario();
        auto base = ws::sweepBaseOf(b, presets, &error);
        QVERIFY2(base, qPrintable(error));
        base->order = ws::LayerOrder::ColumnMajor;
        base->bandsPerDevice = 2;
        ws::Layout layout;
        QVERIFY(ws::predictPlaced(*base, nullptr, &layout));
        b = ws::scenarioWithLayout(b, *base, layout);
        const auto pa = ws::predictScenario(smallScenario(), presets, QString(), &error, true);
        const auto pb = ws::predictScenario(b, presets, QString(), &error, true);
        QVERIFY2(pa && pb, qPrintable(error));
        const ws::MeshSnapshot& sa = *pa->scene.snapshot;
        const ws::MeshSnapshot& sb = *pb->scene.snapshot;
        const ws::MeshDifference d = ws::sramDifference(sa, sb);
        double sum = 0, usedA = 0, usedB = 0;
        for (size_t dev = 0; dev < d.values.size(); ++dev)
            for (size_t i = 0; i < d.values[dev].size(); ++i) {
                sum += d.values[dev][i];
                usedA += double(sa.sramFraction[dev][i]) * double(sa.sramBytesPerCore);
                usedB += double(sb.sramFraction[dev][i]) * double(sb.sramBytesPerCore);
            }
        QVERIFY(d.largest > 0);
        QVERIFY(qAbs(sum - (usedB - usedA)) <= 1e-3 * usedA);
        QCOMPARE(ws::sramDifference(sa, sa).largest, 0.0);

        // Region time: every core of B's layer region carries that layer's time B - A.
        const ws::TokenSchedule& ta = *pa->scene.timing->schedule;
        const ws::TokenSchedule& tb = *pb->scene.timing->schedule;
        const ws::MeshDifference t = ws::regionTimeDifference(sa, ta, sb, tb);
        const auto msA = ws::layerTimesMs(ta);
        const auto msB = ws::layerTimesMs(tb);
        QCOMPARE(msA.size(), size_t(32));
        for (const ws::MeshRegion& r : sb.regions) {
            if (r.layerIndex < 0)
                continue;
            const size_t at = size_t(r.y + r.height / 2) * size_t(t.meshCols) + size_t(r.x + r.width / 2);
            QCOMPARE(double(t.values[size_t(r.device)][at]),
                     double(float(msB[size_t(r.layerIndex)] - msA[size_t(r.layerIndex)])));
        }
        QCOMPARE(ws::regionTimeDifference(sa, ta, sa, ta).largest, 0.0);
    }

    void sweepDockRunsTheEngineSweep()
    {
        const ws::PresetLibrary presets;
        const ws::Scenario current = smallScenario();
        ws::SweepDock dock(presets, [current] { return current; });
        QSignalSpy done(&dock, &ws::SweepDock::finished);
        dock.setAxes("concurrency=1:4:1", "order=snake,row-major");
        dock.run();
        QVERIFY(done.wait(120000));
        QVERIFY(done.last().at(0).toBool());
        QString error;
        const auto base = ws::sweepBaseOf(current, presets, &error);
        const auto expected = ws::runSweep(
            *base, {*ws::parseSweepAxis("concurrency=1:4:1"), *ws::parseSweepAxis("order=snake,row-major")});
        QVERIFY(expected);
        QCOMPARE(QByteArray::fromStdString(ws::sweepCsv(*dock.result())),
                 QByteArray::fromStdString(ws::sweepCsv(*expected)));

        QTemporaryDir dir;
        for (const char* name : {"s.csv", "s.json", "s.png", "s.svg"})
            QVERIFY2(dock.exportTo(dir.filePath(name), &error), qPrintable(error));
        QCOMPARE(readAll(dir.filePath("s.csv")), QByteArray::fromStdString(ws::sweepCsv(*expected)));
        QCOMPARE(readAll(dir.filePath("s.json")), QByteArray::fromStdString(ws::sweepJson(*expected)));

        // A point opens as B with its own values and layout.
        QSignalSpy opened(&dock, &ws::SweepDock::openAsB);
        dock.openPoint(5); // concurrency 3, row-major
        QVERIFY(opened.wait(60000));
        const auto b = opened.last().at(0).value<ws::Scenario>();
        QCOMPARE(b.batch, 3);
        QVERIFY(b.layout);
        QCOMPARE(b.layout->order, ws::LayerOrder::RowMajor);
    }

    void sweepCancels()
    {
        const ws::PresetLibrary presets;
        const ws::Scenario current = smallScenario();
        ws::SweepDock dock(presets, [current] { return current; });
        QSignalSpy done(&dock, &ws::SweepDock::finished);
        dock.setAxes("concurrency=1:100000:1", "");
        dock.run();
        QVERIFY(dock.isRunning());
        dock.cancel();
        QCOMPARE(done.size(), 1);
        QVERIFY(!done.last().at(0).toBool());
        QTRY_VERIFY_WITH_TIMEOUT(!dock.isRunning(), 30000); // the worker stopped early, not after 100,000 points
        QVERIFY(!dock.result());
    }

    void optimiserOpensBestAsBAgainstTheDefault()
    {
        const ws::PresetLibrary presets;
        ws::OptimizeRunner runner(presets, nullptr);
        QSignalSpy optimized(&runner, &ws::OptimizeRunner::optimized);
        runner.start(smallScenario());
        QVERIFY(optimized.wait(120000));
        const auto a = optimized.last().at(0).value<ws::Scenario>();
        const auto b = optimized.last().at(2).value<ws::Scenario>();
        QVERIFY(a.layout && b.layout);
        QString error;
        const auto pa = ws::predictScenario(a, presets, QString(), &error);
        const auto pb = ws::predictScenario(b, presets, QString(), &error);
        QVERIFY2(pa && pb, qPrintable(error));
        QVERIFY(pb->prediction.secondsPerToken < pa->prediction.secondsPerToken); // strictly faster for 8B (bench)
    }
};

QTEST_MAIN(TestLayoutExplorer)
#include "tst_layoutexplorer.moc"
