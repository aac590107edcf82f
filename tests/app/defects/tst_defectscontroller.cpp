// DefectsController: edits on a full WSE-3 go through the remap and the prediction off the GUI
// thread; every rate is handled, undo gives back the previous numbers exactly, stale results
// are dropped.
#include "app/common/backgroundpool.h"
#include "app/common/placementresult.h"
#include "app/common/presetlibrary.h"
#include "app/defects/defectscontroller.h"

#include <QScopeGuard>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>

#include <cmath>

using namespace ws;

namespace {

bool sameSummary(const DefectSummary& a, const DefectSummary& b)
{
    return a.deadCores == b.deadCores && a.sparesUsed == b.sparesUsed &&
           a.unrepairableSegments == b.unrepairableSegments && a.usableCores == b.usableCores &&
           a.nominalUsableCores == b.nominalUsableCores && a.capacityLostCores == b.capacityLostCores &&
           a.shiftedCores == b.shiftedCores && a.droppedRows == b.droppedRows &&
           a.displacementConflicts == b.displacementConflicts;
}

} // namespace

class TestDefectsController : public QObject
{
    Q_OBJECT

private:
    DefectsContext m_context;

    // Waits until no job runs and returns the latest outcome.
    std::shared_ptr<const DefectsOutcome> settle(DefectsController& c)
    {
        [&] { QTRY_VERIFY_WITH_TIMEOUT(!c.isBusy(), 120000); }();
        return c.outcome();
    }

private slots:
    void initTestCase()
    {
        const PresetLibrary presets{QString()};
        auto hw = presets.hardware(QStringLiteral("wse3"));
        auto model = presets.model(QStringLiteral("qwen3-8b"));
        QVERIFY(hw.hasValue());
        QVERIFY(model.hasValue());
        m_context.spec.hardware = *hw;
        m_context.spec.model = *model;
        m_context.spec.workload.contextTokens = 8192;
        auto placed = computePlacement(m_context.spec);
        QVERIFY2(placed.hasValue(), placed ? "" : placed.error().message().c_str());
        m_context.snapshot = placed->snapshot;
    }

    void rates_data()
    {
        QTest::addColumn<double>("rate");
        QTest::newRow("none") << 0.0;
        QTest::newRow("one-percent") << 0.01;
        QTest::newRow("half") << 0.5;
    }

    void rates()
    {
        QFETCH(double, rate);
        DefectsController c;
        QVERIFY(c.setContext(m_context).hasValue());
        auto clean = settle(c);
        QVERIFY(clean);
        QVERIFY(clean->remapped());
        QCOMPARE(clean->summary.deadCores, int64_t(0));
        QCOMPARE(clean->summary.capacityLostCores, int64_t(0));
        QVERIFY(clean->secondsPerTokenBefore > 0);

        QVERIFY(c.injectRandom(rate, 7).hasValue());
        auto o = settle(c);
        QVERIFY(o);
        QVERIFY(o->remapped());
        const SpareLayout* layout = c.layout();
        QVERIFY(layout);
        // DefectMap::random's contract: exactly round(rate * physical cores) dead.
        QCOMPARE(o->summary.deadCores, int64_t(std::llround(rate * double(layout->physicalCoreCount()))));
        QCOMPARE(o->summary.nominalUsableCores,
                 int64_t(layout->nominalUsableCols()) * int64_t(layout->nominalUsableRows()));
        QCOMPARE(o->summary.capacityLostCores, o->summary.nominalUsableCores - o->summary.usableCores);
        QCOMPARE(o->summary.usableCores, int64_t(o->usableMesh.cols) * int64_t(o->usableMesh.rows));
        QVERIFY(o->snapshot);
        QVERIFY(!o->snapshot->coreState.empty());
        if (rate == 0.0) {
            QCOMPARE(o->summary.capacityLostCores, int64_t(0));
            QCOMPARE(o->hopStretch, 1.0);
        } else {
            QVERIFY(o->summary.capacityLostCores > 0);
        }
        if (rate == 0.5) {
            QVERIFY(!o->error.empty() || o->summary.usableCores < o->summary.nominalUsableCores / 2);
        }
        if (o->secondsPerTokenAfter > 0 && o->secondsPerTokenBefore > 0) {
            QVERIFY(o->hopStretch >= 1.0);
            QVERIFY2(o->secondsPerTokenAfter >= o->secondsPerTokenBefore * (1 - 1e-12),
                     "defects cannot make a token faster");
        }
    }

    void undoRestoresSummary()
    {
        DefectsController c;
        QVERIFY(c.setContext(m_context).hasValue());
        settle(c);
        QVERIFY(c.injectPoisson(0.002, 3).hasValue());
        const auto first = settle(c);
        QVERIFY(first && first->remapped());
        QVERIFY(first->summary.deadCores > 0);
        QVERIFY(c.killDie(1, 1).hasValue());
        const auto second = settle(c);
        QVERIFY(second && second->remapped());
        QVERIFY(!sameSummary(first->summary, second->summary));
        QVERIFY(c.canUndo());
        QVERIFY(c.undo());
        const auto undone = settle(c);
        QVERIFY(sameSummary(undone->summary, first->summary));
        QCOMPARE(undone->hopStretch, first->hopStretch);
        QCOMPARE(undone->secondsPerTokenAfter, first->secondsPerTokenAfter);
        QVERIFY(c.canRedo());
        QVERIFY(c.redo());
        const auto redone = settle(c);
        QVERIFY(sameSummary(redone->summary, second->summary));
    }

    void brushOnHeatmapCells()
    {
        DefectsController c;
        QVERIFY(c.setContext(m_context).hasValue());
        settle(c);
        QVERIFY(c.setMeshRect(QRect(100, 100, 3, 2), true).hasValue());
        const auto o = settle(c);
        QVERIFY(o && o->remapped());
        QVERIFY(o->summary.deadCores >= 6); // the 3 x 2 nominal cores (and any spares between them)
        QVERIFY(c.setMeshRect(QRect(100, 100, 3, 2), false).hasValue());
        QCOMPARE(settle(c)->summary.deadCores, int64_t(0));
        QVERIFY(!c.setMeshRect(QRect(-10, -10, 2, 2), true).hasValue());
    }

    void staleResultsAreDropped()
    {
        DefectsController c;
        QVERIFY(c.setContext(m_context).hasValue());
        settle(c);
        QSignalSpy changed(&c, &DefectsController::outcomeChanged);
        // Two edits before any result arrives: only the second one's result may be shown.
        QVERIFY(c.injectPoisson(0.001, 11).hasValue());
        QVERIFY(c.injectPoisson(0.001, 12).hasValue());
        const auto o = settle(c);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(o->requestId, c.latestRequest());
        QCOMPARE(o->summary.deadCores, c.editor()->defects().deadCount());
        // A result for an older request is refused and leaves the shown one alone.
        DefectsOutcome old;
        old.requestId = c.latestRequest() - 1;
        old.remap = o->remap;
        QVERIFY(!c.acceptOutcome(old));
        QCOMPARE(c.outcome(), o);
    }

    // The outcome a new one replaces holds the last remap's scene and snapshot (tens of MB on a full wafer):
    // it is freed on the app's background pool, not on the thread that takes the new one.
    void aReplacedOutcomeIsFreedInTheBackground()
    {
        DefectsController c;
        DefectsOutcome first;
        first.requestId = c.latestRequest();
        first.snapshot = std::make_shared<const MeshSnapshot>();
        const std::weak_ptr<const MeshSnapshot> firstsSnapshot = first.snapshot;
        QVERIFY(c.acceptOutcome(std::move(first)));
        // Every thread of the pool held: a delete handed to it waits.
        QSemaphore release;
        const int threads = backgroundPool()->maxThreadCount();
        for (int i = 0; i < threads; ++i)
            backgroundPool()->start([&release] { release.acquire(); });
        auto letGo = qScopeGuard([&] { release.release(threads); }); // also when a check fails
        DefectsOutcome second;
        second.requestId = c.latestRequest();
        QVERIFY(c.acceptOutcome(std::move(second)));
        QVERIFY(!firstsSnapshot.expired()); // not freed here
        letGo.dismiss();
        release.release(threads);
        QTRY_VERIFY(firstsSnapshot.expired()); // freed once a pooled thread took it
    }

    void notAWafer()
    {
        const PresetLibrary presets{QString()};
        DefectsContext gpu = m_context;
        gpu.spec.hardware = *presets.hardware(QStringLiteral("h100"));
        DefectsController c;
        QVERIFY(!c.setContext(gpu).hasValue());
        QVERIFY(!c.injectPoisson(0.001, 1).hasValue());
        QVERIFY(!c.undo());
    }
};

QTEST_MAIN(TestDefectsController)
#include "tst_defectscontroller.moc"
