#include "engine/wafer/redundancy/yieldcurves.h"
#include "engine/wafer/redundancy/yieldmodel.h"

#include <QTest>

#include <cmath>

class TestYieldCurves : public QObject
{
    Q_OBJECT
private slots:
    void samplesTheModels()
    {
        ws::YieldCurveRequest r;
        r.layout = *ws::SpareLayout::rowShift(300, 100, 100, 1, 46225.0 / 970000.0);
        r.areaMm2 = 800;
        r.alpha = 3;
        r.points = 13;
        r.minDefectsPerMm2 = 1e-4;
        r.maxDefectsPerMm2 = 1e-1;
        r.monteCarloPoints = 3;
        r.monteCarloTrials = 50;
        const auto c = ws::computeYieldCurves(r);
        QVERIFY(c.hasValue());
        QCOMPARE(int(c->defectsPerMm2.size()), 13);
        QCOMPARE(c->defectsPerMm2.front(), 1e-4);
        QVERIFY(std::abs(c->defectsPerMm2.back() - 1e-1) < 1e-15);
        QVERIFY(std::abs(c->defectsPerMm2[4] - 1e-3) < 1e-15); // log spacing: a decade per 4 steps
        for (size_t i = 0; i < c->defectsPerMm2.size(); ++i) {
            const double d0 = c->defectsPerMm2[i];
            QCOMPARE(c->poisson[i], ws::YieldModel::poisson(800, d0));
            QCOMPARE(c->murphy[i], ws::YieldModel::murphy(800, d0));
            QCOMPARE(c->seeds[i], ws::YieldModel::seeds(800, d0));
            QCOMPARE(c->negativeBinomial[i], ws::YieldModel::negativeBinomial(800, d0, 3));
            QCOMPARE(c->redundantWafer[i], ws::YieldModel::redundantWafer(r.layout, d0).waferYield);
            if (i > 0)
                QVERIFY(c->redundantWafer[i] <= c->redundantWafer[i - 1]);
        }
        QCOMPARE(int(c->monteCarlo.size()), 3);
        QVERIFY(c->monteCarlo.front().yield > c->monteCarlo.back().yield);
        QCOMPARE(c->segmentSpareCores, 1);
    }

    void badRequestsAreErrors()
    {
        ws::YieldCurveRequest r;
        QVERIFY(!ws::computeYieldCurves(r).hasValue()); // no layout
        r.layout = *ws::SpareLayout::rowShift(30, 10, 10, 1, 0.05);
        QVERIFY(ws::computeYieldCurves(r).hasValue());
        r.minDefectsPerMm2 = 0;
        QVERIFY(!ws::computeYieldCurves(r).hasValue());
        r.minDefectsPerMm2 = 1e-3;
        r.maxDefectsPerMm2 = 1e-4;
        QVERIFY(!ws::computeYieldCurves(r).hasValue());
        r.maxDefectsPerMm2 = 1e-2;
        r.points = 1;
        QVERIFY(!ws::computeYieldCurves(r).hasValue());
    }
};

QTEST_GUILESS_MAIN(TestYieldCurves)
#include "tst_yieldcurves.moc"
