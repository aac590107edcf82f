#include "engine/wafer/redundancy/yieldmodel.h"
#include "engine/wafer/redundancy/yieldmontecarlo.h"

#include <QTest>

#include <cmath>

// Monte Carlo (real defect draws + real remap) against the closed forms, in settings
// where they must agree:
// - no spares (s = 0): the wafer works iff no core is dead, P = (1-p)^N = exp(-D0 a_c N),
//   which is exactly the Poisson formula for the physical area A = a_c N;
// - the same with the density Gamma-mixed per wafer: exactly the negative binomial;
// - one spare per segment (s = 1): shifts differ by at most 1, so the vertical limit
//   never bites and the wafer works iff every segment has <= 1 dead core, which is
//   the segment formula P_seg_ok^N_seg.
// Tolerance: 2 percentage points, with enough trials that this is >= 2.9 standard errors.
class TestYieldMonteCarlo : public QObject
{
    Q_OBJECT
private:
    static constexpr double kCoreAreaMm2 = 46225.0 / 970000.0;

private slots:
    void matchesClosedForm_data()
    {
        QTest::addColumn<int>("cols");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("s");
        QTest::addColumn<double>("d0");
        QTest::addColumn<double>("alpha");
        QTest::addColumn<int>("trials");
        QTest::newRow("s=0, D0=0.0005, Poisson") << 100 << 100 << 100 << 0 << 0.0005 << 0.0 << 10000;
        QTest::newRow("s=0, D0=0.001, Poisson") << 100 << 100 << 100 << 0 << 0.001 << 0.0 << 10000;
        QTest::newRow("s=0, D0=0.002, Poisson") << 100 << 100 << 100 << 0 << 0.002 << 0.0 << 10000;
        QTest::newRow("s=0, D0=0.002, neg. binomial alpha=2") << 100 << 100 << 100 << 0 << 0.002 << 2.0 << 10000;
        QTest::newRow("100+1 segments, D0=0.004") << 500 << 300 << 100 << 1 << 0.004 << 0.0 << 4000;
    }
    void matchesClosedForm()
    {
        QFETCH(int, cols);
        QFETCH(int, rows);
        QFETCH(int, n);
        QFETCH(int, s);
        QFETCH(double, d0);
        QFETCH(double, alpha);
        QFETCH(int, trials);
        const ws::SpareLayout layout = *ws::SpareLayout::rowShift(cols, rows, n, s, kCoreAreaMm2);
        ws::MonteCarloOptions options;
        options.defectsPerMm2 = d0;
        options.alpha = alpha;
        options.trials = trials;
        options.seed = 2026;
        const auto mc = ws::YieldMonteCarlo::run(layout, options);
        QVERIFY(mc.hasValue());
        double formula = 0;
        if (s == 0)
            formula = alpha > 0 ? ws::YieldModel::negativeBinomial(layout.physicalAreaMm2(), d0, alpha)
                                : ws::YieldModel::poisson(layout.physicalAreaMm2(), d0);
        else
            formula = ws::YieldModel::redundantWafer(layout, d0).waferYield;
        qInfo("%s: Monte Carlo %.4f +- %.4f (%d trials), formula %.4f", QTest::currentDataTag(), mc->yield,
              mc->standardError, trials, formula);
        QVERIFY(formula > 0.3 && formula < 0.95); // a setting where the comparison means something
        QVERIFY2(std::abs(mc->yield - formula) < 0.02, qPrintable(QString("MC %1 vs %2").arg(mc->yield).arg(formula)));
        // Dead cores per wafer average p * N_phys (Poisson) or the same mean under Gamma mixing.
        const double expectedDead =
            ws::YieldModel::coreFailureProbability(kCoreAreaMm2, d0) * double(layout.physicalCoreCount());
        QVERIFY(std::abs(mc->meanDeadCores - expectedDead) < 0.1 * expectedDead);
    }

    void capacityFallsWithDensity()
    {
        const ws::SpareLayout layout = *ws::SpareLayout::rowShift(200, 100, 50, 1, kCoreAreaMm2);
        ws::MonteCarloOptions options;
        options.trials = 200;
        double previous = 2;
        for (double d0 : {0.0, 0.01, 0.1, 1.0}) {
            options.defectsPerMm2 = d0;
            const auto mc = ws::YieldMonteCarlo::run(layout, options);
            QVERIFY(mc.hasValue());
            QVERIFY(mc->meanUsableFraction <= previous);
            previous = mc->meanUsableFraction;
        }
        QCOMPARE(ws::YieldMonteCarlo::run(layout, {0.0, 0, ws::ClusterScope::Wafer, 10, 1})->yield, 1.0);
        QVERIFY(previous < 0.5);
    }

    void badOptionsAreErrors()
    {
        const ws::SpareLayout layout = *ws::SpareLayout::rowShift(20, 10, 10, 1, kCoreAreaMm2);
        QVERIFY(!ws::YieldMonteCarlo::run(layout, {0.001, 0, ws::ClusterScope::Wafer, 0, 1}).hasValue());
        QVERIFY(!ws::YieldMonteCarlo::run(layout, {-0.001, 0, ws::ClusterScope::Wafer, 10, 1}).hasValue());
    }
};

QTEST_GUILESS_MAIN(TestYieldMonteCarlo)
#include "tst_yieldmontecarlo.moc"
