// KV cache placement: WaferLLM Table 5 measured 382 tokens with concat and
// 137,548 with shift for LLaMA3-8B on 360 x 360 cores; shift spreads the
// sequence over every row, so the ratio must come out at the row count.
#include "engine/wafer/dataflow/kvcapacity.h"

#include <QTest>

#include <cmath>

using namespace ws;

class TestKvCache : public QObject
{
    Q_OBJECT
private slots:
    void shiftOverConcatIsRowCount_data();
    void shiftOverConcatIsRowCount();
    void concatCapacityIsOneRow();
    void fullestCoreHoldsWholeSequenceWithConcat();
    void shiftCostIsOneHopPlusSlice();
};

void TestKvCache::shiftOverConcatIsRowCount_data()
{
    QTest::addColumn<int>("rows");
    QTest::addColumn<double>("published");
    QTest::newRow("llama3-8b-360") << 360 << 137548.0 / 382.0;
    QTest::newRow("llama2-13b-375") << 375 << 6168.0 / 16.0;
}

void TestKvCache::shiftOverConcatIsRowCount()
{
    QFETCH(int, rows);
    QFETCH(double, published);
    LayerDims d;
    d.hidden = 4096;
    d.qDim = d.kvDim = 4096;
    d.headDim = 4096;
    const KvCapacity c = kvCapacity(d, rows, rows, 20000, TimingParams{});
    QVERIFY(c.concatTokens > 0);
    const double ratio = double(c.shiftTokens) / double(c.concatTokens);
    QCOMPARE(ratio, double(rows));
    QVERIFY2(std::abs(ratio - published) / published < 0.03, qPrintable(QString::number(published)));
}

void TestKvCache::concatCapacityIsOneRow()
{
    // 8 KV heads x 128 = 1024 wide over 64 columns: 16 values of K and 16 of V per token per core, 2 bytes each.
    LayerDims d;
    d.kvDim = 1024;
    const KvCapacity c = kvCapacity(d, 64, 100, 64 * 1000, TimingParams{});
    QCOMPARE(c.bytesPerTokenPerCore, 64.0);
    QCOMPARE(c.concatTokens, int64_t(1000));
    QCOMPARE(c.shiftTokens, int64_t(100000));
    QCOMPARE(c.tokens(KvPlacement::Shift), int64_t(100000));
}

void TestKvCache::fullestCoreHoldsWholeSequenceWithConcat()
{
    LayerDims d;
    d.kvDim = 1024;
    const TimingParams p;
    QCOMPARE(kvBytesOnFullestCore(d, 64, 100, 1000, KvPlacement::Concat, p), 64.0 * 1000);
    QCOMPARE(kvBytesOnFullestCore(d, 64, 100, 1000, KvPlacement::Shift, p), 64.0 * 10);
}

void TestKvCache::shiftCostIsOneHopPlusSlice()
{
    LayerDims d;
    d.kvDim = 1024;
    const KvCapacity c = kvCapacity(d, 64, 100, 1000, TimingParams{});
    QCOMPARE(c.shiftCyclesPerToken, 1.0 + 64.0 / 4.0);
}

QTEST_GUILESS_MAIN(TestKvCache)
#include "tst_kvcache.moc"
