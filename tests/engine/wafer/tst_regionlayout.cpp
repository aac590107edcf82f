#include "engine/wafer/placement/regioncut.h"

#include <QTest>

#include <vector>

Q_DECLARE_METATYPE(std::vector<double>)

class TestRegionLayout : public QObject
{
    Q_OBJECT
private slots:
    void tilesTheMeshInSnakeOrder_data()
    {
        QTest::addColumn<int>("cols");
        QTest::addColumn<int>("rows");
        QTest::addColumn<std::vector<double>>("sizes");
        QTest::addColumn<int>("bands");
        QTest::newRow("20 equal layers, 5 bands (70B on WSE-3)") << 755 << 1174 << std::vector<double>(20, 1.0) << 5;
        QTest::newRow("odd count, uneven bands") << 100 << 90 << std::vector<double>(7, 1.0) << 3;
        QTest::newRow("one band") << 50 << 10 << std::vector<double>(4, 1.0) << 1;
        QTest::newRow("interleaved dense and MoE sizes") << 300 << 200 << std::vector<double>{1, 20, 1, 20, 1, 20} << 2;
        QTest::newRow("as many bands as items") << 40 << 40 << std::vector<double>(5, 2.0) << 5;
    }
    void tilesTheMeshInSnakeOrder()
    {
        QFETCH(int, cols);
        QFETCH(int, rows);
        QFETCH(std::vector<double>, sizes);
        QFETCH(int, bands);
        const auto rects = ws::snakeRegions(cols, rows, sizes, bands);
        QCOMPARE(rects.size(), sizes.size());
        std::vector<int> cover(size_t(cols) * size_t(rows), 0);
        for (const auto& r : rects) {
            QVERIFY(r.width > 0 && r.height > 0);
            QVERIFY(r.x >= 0 && r.y >= 0 && r.x + r.width <= cols && r.y + r.height <= rows);
            for (int y = r.y; y < r.y + r.height; ++y)
                for (int x = r.x; x < r.x + r.width; ++x)
                    ++cover[size_t(y) * size_t(cols) + size_t(x)];
        }
        for (int c : cover)
            QCOMPARE(c, 1); // every core in exactly one rectangle
        for (size_t i = 0; i + 1 < rects.size(); ++i) {
            const auto& a = rects[i];
            const auto& b = rects[i + 1];
            const bool side = (a.x + a.width == b.x || b.x + b.width == a.x) && a.y == b.y;
            const bool below = a.y + a.height == b.y && a.x < b.x + b.width && b.x < a.x + a.width;
            QVERIFY2(side || below, qPrintable(QStringLiteral("items %1 and %2 are not neighbours").arg(i).arg(i + 1)));
        }
    }

    void areaFollowsSize()
    {
        const auto rects = ws::snakeRegions(300, 200, {1, 3}, 1);
        QCOMPARE(rects.size(), size_t(2));
        QCOMPARE(rects[1].cores(), 3 * rects[0].cores());
    }

    void tooSmallMeshGivesNothing()
    {
        QVERIFY(ws::snakeRegions(3, 10, std::vector<double>(4, 1.0), 1).empty());
        QVERIFY(ws::snakeRegions(10, 2, std::vector<double>(4, 1.0), 3).empty());
        QVERIFY(ws::snakeRegions(10, 10, {}, 1).empty());
    }
};

QTEST_GUILESS_MAIN(TestRegionLayout)
#include "tst_regionlayout.moc"
