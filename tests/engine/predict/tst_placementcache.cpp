// PlacementCache: an equal request hits the entry, any field that differs
// (including ones a hand-written key once left out: the KV precision, the
// device limit, a model field such as the shared-expert width, the sub-mesh
// fit) misses, the cached placement equals a fresh one, the least recently
// used entry goes when full, and predictions through a cache equal
// predictions without one.
#include "engine/predict/placementcache.h"
#include "engine/predict/predictor.h"
#include "engine/predict/waferpredictor.h"
#include "tests/common/presetfixture.h"

#include <QTest>

#include <thread>
#include <vector>

using namespace ws;

namespace {
WaferPlacementRequest request(const char* model = "llama-3.1-8b")
{
    PlacementOptions o;
    o.contextTokens = 4096;
    return {wstest::modelPreset(model), wstest::hardwarePreset("wse3").wafer, o};
}
} // namespace

class TestPlacementCache : public QObject
{
    Q_OBJECT
private slots:
    void requestRoundTripsTheOptions()
    {
        PlacementOptions o;
        o.strategy = PlacementStrategy::Pipelined;
        o.precision = Precision::Fp8;
        o.kvPrecision = Precision::Fp32;
        o.contextTokens = 1234;
        o.weightFill = 0.7;
        o.usableCols = 700;
        o.usableRows = 650;
        o.maxDevices = 9;
        o.fitSubMesh = true;
        o.bandsPerDevice = 2;
        const WaferPlacementRequest r{wstest::modelPreset("llama-3.1-8b"), wstest::hardwarePreset("wse3").wafer, o};
        const PlacementOptions back = r.options;
        QCOMPARE(int(back.strategy), int(o.strategy));
        QCOMPARE(int(back.precision), int(o.precision));
        QVERIFY(back.kvPrecision == o.kvPrecision);
        QCOMPARE(back.contextTokens, o.contextTokens);
        QCOMPARE(back.weightFill, o.weightFill);
        QCOMPARE(back.usableCols, o.usableCols);
        QCOMPARE(back.usableRows, o.usableRows);
        QCOMPARE(back.maxDevices, o.maxDevices);
        QVERIFY(back == o); // every option, the sub-mesh fit and the bands included
        QVERIFY((WaferPlacementRequest{r.model, r.wafer, back}) == r);
    }

    void equalRequestsHitDifferentOnesMiss()
    {
        PlacementCache cache;
        const WaferPlacementRequest a = request();
        const SharedPlacement first = cache.place(a);
        QVERIFY(first && first->hasValue());
        QCOMPARE(cache.misses(), size_t(1));
        QCOMPARE(cache.hits(), size_t(0));
        const WaferPlacementRequest same = request(); // built afresh, equal field by field
        QCOMPARE(cache.place(same).get(), first.get());
        QCOMPARE(cache.hits(), size_t(1));

        std::vector<WaferPlacementRequest> different(8, a);
        different[0].options.kvPrecision = Precision::Fp32;
        different[1].options.maxDevices = 3;
        different[2].model.sharedExpertFfnSize = 4096;
        different[3].wafer.sramBytesPerCore /= 2;
        different[4].options.contextTokens = 8192;
        different[5].model.name = "renamed";
        different[6].options.fitSubMesh = true; // left out of the key before the key became the options themselves
        different[7].options.bandsPerDevice = 3;
        for (const WaferPlacementRequest& d : different) {
            QVERIFY(!(d == a));
            QVERIFY(cache.place(d).get() != first.get());
        }
        QCOMPARE(cache.misses(), size_t(1 + different.size()));
        QCOMPARE(cache.size(), size_t(1 + different.size()));
    }

    void cachedEqualsFresh()
    {
        PlacementCache cache;
        const WaferPlacementRequest r = request("llama-3.1-70b");
        const SharedPlacement cached = cache.place(r);
        const Expected<Placement> fresh = placeModel(r.model, r.wafer, r.options);
        QVERIFY(cached->hasValue() && fresh.hasValue());
        QCOMPARE((*cached)->deviceCount, fresh->deviceCount);
        QCOMPARE((*cached)->regions.size(), fresh->regions.size());
        // Through placeThrough: the same entry with a cache, a new placement without.
        PlacementOptions o = r.options;
        QCOMPARE(placeThrough(&cache, r.model, r.wafer, o).get(), cached.get());
        QVERIFY(placeThrough(nullptr, r.model, r.wafer, o).get() != cached.get());
    }

    void leastRecentlyUsedGoesWhenFull()
    {
        PlacementCache cache(2);
        WaferPlacementRequest a = request(), b = request(), c = request();
        b.options.contextTokens = 2048;
        c.options.contextTokens = 1024;
        const SharedPlacement pa = cache.place(a);
        const SharedPlacement pb = cache.place(b);
        QCOMPARE(cache.place(a).get(), pa.get()); // a is now the most recent
        cache.place(c);                           // b goes
        QCOMPARE(cache.size(), size_t(2));
        QCOMPARE(cache.place(a).get(), pa.get());
        QVERIFY(cache.place(b).get() != pb.get());
        cache.clear();
        QCOMPARE(cache.size(), size_t(0));
    }

    void threadsShareOneCache()
    {
        PlacementCache cache;
        const WaferPlacementRequest r = request();
        std::vector<SharedPlacement> seen(4);
        std::vector<std::thread> threads;
        for (size_t i = 0; i < seen.size(); ++i)
            threads.emplace_back([&, i] { seen[i] = cache.place(r); });
        for (std::thread& t : threads)
            t.join();
        QCOMPARE(cache.size(), size_t(1));
        for (const SharedPlacement& p : seen)
            QCOMPARE((*p)->deviceCount, (*seen[0])->deviceCount);
        QCOMPARE(cache.place(r).get(), cache.place(r).get());
    }

    void predictionsThroughACacheAreTheSame()
    {
        const ModelConfig m = wstest::modelPreset("llama-3.1-70b");
        const HardwareSpec hw = wstest::hardwarePreset("wse3");
        PlacementCache cache;
        PredictOptions cached;
        cached.wafer.placements = &cache;
        for (int concurrency : {1, 8, 64}) {
            Workload w;
            w.concurrency = concurrency;
            auto plain = predict(m, hw, w);
            auto through = predict(m, hw, w, cached);
            QVERIFY(plain && through);
            QCOMPARE(through->secondsPerToken, plain->secondsPerToken);
            QCOMPARE(through->ttftSeconds, plain->ttftSeconds);
            QCOMPARE(through->devices, plain->devices);
            QCOMPARE(through->tokensPerSecondPerUserRange.low, plain->tokensPerSecondPerUserRange.low);
            QCOMPARE(through->tokensPerSecondPerUserRange.high, plain->tokensPerSecondPerUserRange.high);
        }
        // One placement per weight fill for the whole sweep: the point's and the placement-policy
        // range driver's two alternatives (engine/predict/waferbounds.h). Each prediction looks the three up
        // for its point and range; the ends of the serving stack's kernel-factor driver (engine/predict/
        // stackkernel.h) are timed on the point's placement (predictWaferAt) and look up none: 3 lookups a
        // prediction, 9 in all, of which only the first 3 place.
        QCOMPARE(cache.misses(), size_t(3));
        QCOMPARE(cache.hits(), size_t(6));
    }
};

QTEST_GUILESS_MAIN(TestPlacementCache)
#include "tst_placementcache.moc"
