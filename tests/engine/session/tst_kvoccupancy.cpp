// The conversation's KV layer: filled in token order, its bytes those of the
// tokens in the cache, the whole reserved cache once the context is full.
#include "engine/session/kvoccupancy.h"
#include "engine/wafer/placement/meshsnapshotbuilder.h"
#include "engine/wafer/placement/placer.h"

#include "tests/common/presetfixture.h"

#include <QTest>

#include <cmath>

namespace {

double kvBytes(const ws::MeshSnapshot& s)
{
    double bytes = 0;
    for (const auto& device : s.kvFraction)
        for (float f : device)
            bytes += double(f) * double(s.sramBytesPerCore);
    return bytes;
}

int filledCores(const ws::MeshSnapshot& s)
{
    int n = 0;
    for (const auto& device : s.kvFraction)
        for (float f : device)
            n += f > 0 ? 1 : 0;
    return n;
}

} // namespace

class TestKvOccupancy : public QObject
{
    Q_OBJECT
private slots:
    void fillsTokenByToken()
    {
        ws::PlacementOptions options;
        options.contextTokens = 8192;
        const auto placed = ws::placeModel(wstest::modelPreset(QStringLiteral("llama-3.1-8b")),
                                           wstest::hardwarePreset(QStringLiteral("wse3")).wafer, options);
        QVERIFY(placed);
        auto base = std::make_shared<const ws::MeshSnapshot>(ws::buildMeshSnapshot(*placed));
        const double reserved = kvBytes(*base);
        QVERIFY(reserved > 0);

        const auto empty = ws::withKvOccupancy(base, *placed, 0);
        QCOMPARE(kvBytes(*empty), 0.0);
        QCOMPARE(empty->owner, base->owner); // the other layers stay as they are
        QCOMPARE(empty->sramFraction, base->sramFraction);

        int previousCores = 0;
        const int firstTokenCores = filledCores(*ws::withKvOccupancy(base, *placed, 1));
        QVERIFY(firstTokenCores > 0);
        for (int64_t tokens : {1, 37, 300, 2000}) {
            const auto s = ws::withKvOccupancy(base, *placed, tokens);
            // 32 layers x 8 KV heads x 128 x (K and V) x 2 bytes per token.
            const double expected = double(tokens) * 32 * 8 * 128 * 2 * 2;
            QCOMPARE(double(ws::kvBytesHeld(*placed, tokens)), expected);
            QVERIFY2(std::abs(kvBytes(*s) - expected) <= 1e-3 * expected,
                     qPrintable(QStringLiteral("%1 tokens: %2 vs %3").arg(tokens).arg(kvBytes(*s)).arg(expected)));
            QVERIFY(filledCores(*s) >= previousCores); // a KV row of a region fills before the next starts
            previousCores = filledCores(*s);
        }
        QVERIFY(previousCores > firstTokenCores); // 2,000 tokens reach rows the first token does not

        // A full context is the whole reserved cache.
        const auto full = ws::withKvOccupancy(base, *placed, 8192);
        QVERIFY(std::abs(kvBytes(*full) - reserved) <= 1e-4 * reserved);
        QVERIFY(ws::kvOccupancyStep(*placed) >= 1);
    }
};

QTEST_GUILESS_MAIN(TestKvOccupancy)
#include "tst_kvoccupancy.moc"
