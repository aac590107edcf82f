#include "engine/wafer/redundancy/defectmap.h"

#include <QTest>

#include <cmath>

using ws::DefectMap;
using ws::SpareLayout;

namespace {

SpareLayout layout200()
{
    // 200 x 100 fabric, 20 + 1 segments, 4 x 2 dies, 0.05 mm² cores.
    return *SpareLayout::rowShift(200, 100, 20, 1, 0.05, 4, 2);
}

} // namespace

class TestDefectMap : public QObject
{
    Q_OBJECT
private slots:
    void randomKillsExactlyTheRate_data()
    {
        QTest::addColumn<double>("rate");
        QTest::newRow("none") << 0.0;
        QTest::newRow("one in a thousand") << 0.001;
        QTest::newRow("five percent") << 0.05;
        QTest::newRow("half") << 0.5;
        QTest::newRow("three quarters (draws survivors)") << 0.75;
        QTest::newRow("all") << 1.0;
    }
    void randomKillsExactlyTheRate()
    {
        QFETCH(double, rate);
        const SpareLayout layout = layout200();
        const auto map = DefectMap::random(layout, rate, 42);
        QVERIFY(map.hasValue());
        QCOMPARE(map->cols(), layout.physicalCols());
        const int64_t expected = std::llround(rate * double(layout.physicalCoreCount()));
        QCOMPARE(map->deadCount(), expected);
        QCOMPARE(int64_t(map->deadIndices().size()), expected); // the counter agrees with the cells
    }

    void sameSeedSameMap()
    {
        const SpareLayout layout = layout200();
        QVERIFY(*DefectMap::random(layout, 0.01, 7) == *DefectMap::random(layout, 0.01, 7));
        QVERIFY(!(*DefectMap::random(layout, 0.01, 7) == *DefectMap::random(layout, 0.01, 8)));
        QVERIFY(*DefectMap::poisson(layout, 0.02, 7) == *DefectMap::poisson(layout, 0.02, 7));
        QVERIFY(*DefectMap::clustered(layout, 0.02, 2.0, ws::ClusterScope::Die, 7) ==
                *DefectMap::clustered(layout, 0.02, 2.0, ws::ClusterScope::Die, 7));
    }

    void poissonMatchesTheCoreFailureProbability()
    {
        // Mean dead cores over many maps ~ p N, p = 1 - exp(-D0 a_c); 6 sigma bound.
        const SpareLayout layout = layout200();
        const double d0 = 0.2;
        const double p = -std::expm1(-d0 * layout.coreAreaMm2());
        const double n = double(layout.physicalCoreCount());
        const int maps = 50;
        double total = 0;
        for (int i = 0; i < maps; ++i)
            total += double(DefectMap::poisson(layout, d0, uint64_t(1000 + i))->deadCount());
        const double mean = total / maps;
        const double sigma = std::sqrt(n * p * (1 - p) / maps);
        QVERIFY2(std::abs(mean - p * n) < 6 * sigma, qPrintable(QString("mean %1 expected %2").arg(mean).arg(p * n)));
    }

    void clusteringSpreadsTheCounts()
    {
        // Same mean density, but the Gamma-mixed draw has a far larger variance than Poisson.
        const SpareLayout layout = layout200();
        auto variance = [&](bool clustered) {
            double sum = 0;
            double sq = 0;
            const int maps = 200;
            for (int i = 0; i < maps; ++i) {
                const auto m = clustered ? DefectMap::clustered(layout, 0.1, 0.5, ws::ClusterScope::Wafer, uint64_t(i))
                                         : DefectMap::poisson(layout, 0.1, uint64_t(i));
                const double d = double(m->deadCount());
                sum += d;
                sq += d * d;
            }
            const double mean = sum / maps;
            return sq / maps - mean * mean;
        };
        QVERIFY(variance(true) > 10 * variance(false));
    }

    void dieKillsItsRectangle()
    {
        const SpareLayout layout = layout200();
        const auto map = DefectMap::die(layout, 1, 1);
        QVERIFY(map.hasValue());
        const ws::PhysicalRect r = layout.dieRect(1, 1);
        QCOMPARE(map->deadCount(), int64_t(r.width) * r.height);
        QVERIFY(map->isDead(r.x, r.y));
        QVERIFY(map->isDead(r.x + r.width - 1, r.y + r.height - 1));
        QVERIFY(!map->isDead(r.x - 1, r.y));
        QVERIFY(!DefectMap::die(layout, 4, 0).hasValue());
        QVERIFY(!DefectMap::die(layout, 0, -1).hasValue());
    }

    void coreListAndBadInput()
    {
        const SpareLayout layout = layout200();
        const auto map = DefectMap::fromCores(layout, {{0, 0}, {5, 7}, {5, 7}});
        QVERIFY(map.hasValue());
        QCOMPARE(map->deadCount(), int64_t(2));
        QVERIFY(map->isDead(5, 7));
        const auto outside = DefectMap::fromCores(layout, {{layout.physicalCols(), 0}});
        QVERIFY(!outside.hasValue());
        QCOMPARE(outside.error().code, ws::ErrorCode::OutOfRange);
        QVERIFY(!DefectMap::random(layout, -0.1, 1).hasValue());
        QVERIFY(!DefectMap::random(layout, 1.5, 1).hasValue());
        QVERIFY(!DefectMap::random(layout, std::nan(""), 1).hasValue());
        QVERIFY(!DefectMap::poisson(layout, -1, 1).hasValue());
        QVERIFY(!DefectMap::clustered(layout, 0.01, 0.0, ws::ClusterScope::Wafer, 1).hasValue());
        const SpareLayout noArea = *SpareLayout::rowShift(10, 10, 5, 1, 0.0);
        QVERIFY(!DefectMap::poisson(noArea, 0.01, 1).hasValue());
    }
};

QTEST_GUILESS_MAIN(TestDefectMap)
#include "tst_defectmap.moc"
