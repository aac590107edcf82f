#include "engine/wafer/redundancy/yieldmodel.h"

#include <QTest>

#include <cmath>

// Reference values: the worked-numbers table of shared/facts/wafer-mapping.md §3.4
// (a_c = 46,225 mm² / 970,000 cores, 900k logical cores, so N_seg = 900,000 / n),
// and its monolithic-die contrast figures.
class TestYieldModel : public QObject
{
    Q_OBJECT
private:
    static constexpr double kCoreAreaMm2 = 46225.0 / 970000.0;

    // |actual - expected| within half a unit of the last printed digit.
    static bool matchesPrinted(double actual, double printed, double halfUnit)
    {
        return std::abs(actual - printed) <= halfUnit * (1 + 1e-9);
    }

private slots:
    void worked_data()
    {
        QTest::addColumn<double>("d0");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("s");
        QTest::addColumn<double>("spareFraction");
        QTest::addColumn<double>("segmentFail"); // printed with 2 significant digits
        QTest::addColumn<double>("waferYield");
        QTest::addColumn<double>("yieldHalfUnit"); // half a unit of the printed last digit
        QTest::addColumn<double>("expectedDead");  // printed as an integer
        QTest::newRow("D0=0.001 100+1") << 0.001 << 100 << 1 << 0.0099 << 1.1e-5 << 0.90 << 0.005 << 43.0;
        QTest::newRow("D0=0.001 100+2") << 0.001 << 100 << 2 << 0.0196 << 1.9e-8 << 0.9998 << 0.00005 << 44.0;
        QTest::newRow("D0=0.002 100+1") << 0.002 << 100 << 1 << 0.0099 << 4.6e-5 << 0.66 << 0.005 << 87.0;
        QTest::newRow("D0=0.002 200+2") << 0.002 << 200 << 2 << 0.0099 << 1.2e-6 << 0.995 << 0.0005 << 87.0;
        QTest::newRow("D0=0.005 100+2") << 0.005 << 100 << 2 << 0.0196 << 2.3e-6 << 0.98 << 0.005 << 219.0;
        QTest::newRow("D0=0.010 100+2") << 0.010 << 100 << 2 << 0.0196 << 1.8e-5 << 0.85 << 0.005 << 437.0;
    }
    void worked()
    {
        QFETCH(double, d0);
        QFETCH(int, n);
        QFETCH(int, s);
        QFETCH(double, spareFraction);
        QFETCH(double, segmentFail);
        QFETCH(double, waferYield);
        QFETCH(double, yieldHalfUnit);
        QFETCH(double, expectedDead);
        const ws::SegmentYield y = ws::YieldModel::redundantWafer(900000 / n, n, s, kCoreAreaMm2, d0);
        QVERIFY2(matchesPrinted(double(s) / (n + s), spareFraction, 0.00005), "spare fraction");
        const double printedUnit = std::pow(10.0, std::floor(std::log10(segmentFail)) - 1);
        QVERIFY2(matchesPrinted(y.segmentFailureProbability, segmentFail, printedUnit / 2),
                 qPrintable(QString::number(y.segmentFailureProbability)));
        QVERIFY2(matchesPrinted(y.waferYield, waferYield, yieldHalfUnit), qPrintable(QString::number(y.waferYield)));
        QVERIFY2(matchesPrinted(y.expectedDeadCores, expectedDead, 0.5),
                 qPrintable(QString::number(y.expectedDeadCores)));
    }

    void monolithicContrast()
    {
        // "e^-46.2 ≈ 8e-21 (Poisson), or 1.7e-3 under a negative binomial with alpha = 2;
        //  an 814 mm² die yields 0.44 under Poisson."
        const double wafer = ws::YieldModel::poisson(46225, 0.001);
        QVERIFY(wafer > 7.5e-21 && wafer < 8.5e-21);
        const double nb = ws::YieldModel::negativeBinomial(46225, 0.001, 2.0);
        QVERIFY(std::abs(nb - 1.7e-3) < 0.05e-3);
        QVERIFY(std::abs(ws::YieldModel::poisson(814, 0.001) - 0.44) < 0.005);
    }

    void modelsAgreeAtTheirLimits_data()
    {
        QTest::addColumn<double>("area");
        QTest::addColumn<double>("d0");
        QTest::newRow("reticle die, mature node") << 800.0 << 0.001;
        QTest::newRow("reticle die, new node") << 800.0 << 0.005;
        QTest::newRow("wafer") << 46225.0 << 0.001;
    }
    void modelsAgreeAtTheirLimits()
    {
        QFETCH(double, area);
        QFETCH(double, d0);
        using ws::YieldModel;
        // alpha = 1 is Seeds; alpha -> infinity is Poisson.
        QCOMPARE(YieldModel::negativeBinomial(area, d0, 1.0), YieldModel::seeds(area, d0));
        QVERIFY(std::abs(YieldModel::negativeBinomial(area, d0, 1e9) - YieldModel::poisson(area, d0)) < 1e-6);
        // Jensen: clustering (Gamma-mixed density) only raises yield; Murphy lies between Poisson and Seeds.
        const double p = YieldModel::poisson(area, d0);
        const double m = YieldModel::murphy(area, d0);
        const double s = YieldModel::seeds(area, d0);
        QVERIFY(p < m && m < s);
        QVERIFY(YieldModel::negativeBinomial(area, d0, 2.0) > p);
        QCOMPARE(YieldModel::evaluate(ws::YieldFormula::Murphy, area, d0, 0), m);
        QCOMPARE(YieldModel::murphy(area, 0.0), 1.0);
    }

    void segmentTailIsExact()
    {
        // n + s = 3 cores, s = 1: P(fail) = P(2 or 3 dead) = 3p^2(1-p) + p^3.
        const double p = 0.1;
        QVERIFY(std::abs(ws::YieldModel::segmentFailureProbability(2, 1, p) - (3 * p * p * (1 - p) + p * p * p)) <
                1e-15);
        // No spares: any dead core fails the segment.
        QVERIFY(std::abs(ws::YieldModel::segmentFailureProbability(10, 0, p) - (1 - std::pow(1 - p, 10))) < 1e-12);
        QCOMPARE(ws::YieldModel::segmentFailureProbability(10, 2, 0.0), 0.0);
        QCOMPARE(ws::YieldModel::segmentFailureProbability(10, 2, 1.0), 1.0);
    }

    void layoutWithShortLastSegment()
    {
        // 25 columns in segments of 10: two full segments and one of 5 (+1 spare each).
        auto layout = ws::SpareLayout::rowShift(25, 4, 10, 1, 0.05);
        QVERIFY(layout.hasValue());
        const double d0 = 0.5;
        const double p = ws::YieldModel::coreFailureProbability(0.05, d0);
        const double full = 1 - ws::YieldModel::segmentFailureProbability(10, 1, p);
        const double last = 1 - ws::YieldModel::segmentFailureProbability(5, 1, p);
        const double expected = std::pow(full * full * last, 4);
        QVERIFY(std::abs(ws::YieldModel::redundantWafer(*layout, d0).waferYield - expected) < 1e-12);
    }
};

QTEST_GUILESS_MAIN(TestYieldModel)
#include "tst_yieldmodel.moc"
