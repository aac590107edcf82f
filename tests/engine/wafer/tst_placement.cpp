#include "engine/model/modelshape.h"
#include "engine/wafer/placement/meshsnapshotbuilder.h"
#include "engine/wafer/placement/placer.h"

#include "tests/common/presetfixture.h"
#include "tests/engine/wafer/tinyfixtures.h"

#include <QTest>

#include <map>

namespace {
ws::Placement place(const QString& model, const QString& hardware, ws::PlacementOptions o = {})
{
    auto p = ws::placeModel(wstest::modelPreset(model), wstest::hardwarePreset(hardware).wafer, o);
    if (!p)
        qFatal("%s", p.error().message().c_str());
    return *p;
}

} // namespace

class TestPlacement : public QObject
{
    Q_OBJECT
private slots:
    // facts wafer-mapping §6.7 item 6 (70B bf16 needs 4 WSE-3 at phi_w 0.8);
    // an 8B model fits one wafer; the default scenario (Qwen3-32B bf16) needs two.
    void deviceCounts_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("precision");
        QTest::addColumn<int>("devices");
        QTest::newRow("llama-3.1-70b bf16") << "llama-3.1-70b"
                                            << "bf16" << 4;
        QTest::newRow("llama-3.1-8b bf16") << "llama-3.1-8b"
                                           << "bf16" << 1;
        QTest::newRow("qwen3-32b bf16") << "qwen3-32b"
                                        << "bf16" << 2;
        QTest::newRow("qwen3-32b int4 fits one") << "qwen3-32b"
                                                 << "int4" << 1;
    }
    void deviceCounts()
    {
        QFETCH(QString, model);
        QFETCH(QString, precision);
        QFETCH(int, devices);
        ws::PlacementOptions o;
        o.precision = *ws::parsePrecision(precision.toStdString());
        const ws::Placement p = place(model, QStringLiteral("wse3"), o);
        QCOMPARE(p.deviceCount, devices);
        int layers = 0;
        for (int n : p.layersPerDevice)
            layers += n;
        QCOMPARE(layers, wstest::modelPreset(model).layers);
        QVERIFY(p.maxCoreBytes() <= p.sramBytesPerCore);
    }

    void weightFillChangesDeviceCount()
    {
        ws::PlacementOptions o;
        o.weightFill = 0.4; // half the room per core: about twice the wafers
        QVERIFY(place(QStringLiteral("llama-3.1-70b"), QStringLiteral("wse3"), o).deviceCount >= 7);
    }

    void shrunkUsableMeshNeedsMoreDevices()
    {
        ws::PlacementOptions o;
        o.usableCols = 600;
        o.usableRows = 1000;
        const ws::Placement p = place(QStringLiteral("llama-3.1-70b"), QStringLiteral("wse3"), o);
        QVERIFY(p.deviceCount > 4);
        for (const auto& r : p.regions)
            QVERIFY(r.rect.x + r.rect.width <= 600 && r.rect.y + r.rect.height <= 1000);
    }

    // Every byte of the model lies on exactly one core: the per-core sum over
    // all cores of all wafers equals the model's bytes, kind by kind, and the
    // KV cache equals the model's KV for the context.
    void conservation_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("precision");
        QTest::addColumn<bool>("tensorParallel");
        QTest::newRow("qwen3-32b bf16 pipelined") << "qwen3-32b"
                                                  << "bf16" << false;
        QTest::newRow("qwen3-30b-a3b int4 pipelined") << "qwen3-30b-a3b"
                                                      << "int4" << false;
        QTest::newRow("llama-3.1-8b bf16 tensor-parallel") << "llama-3.1-8b"
                                                           << "bf16" << true;
    }
    void conservation()
    {
        QFETCH(QString, model);
        QFETCH(QString, precision);
        QFETCH(bool, tensorParallel);
        ws::PlacementOptions o;
        o.precision = *ws::parsePrecision(precision.toStdString());
        o.contextTokens = 4096;
        if (tensorParallel)
            o.strategy = ws::PlacementStrategy::TensorParallel;
        const ws::Placement p = place(model, QStringLiteral("wse3"), o);
        const ws::ModelShape shape(wstest::modelPreset(model));
        ws::CoreBytes sum;
        for (int d = 0; d < p.deviceCount; ++d)
            for (int y = 0; y < p.usableRows; ++y)
                for (int x = 0; x < p.usableCols; ++x)
                    sum += p.coreBytes(d, x, y);
        QCOMPARE(sum.weightBytes(), shape.totalBytes(o.precision));
        for (int k = 0; k < ws::kTensorKindCount; ++k)
            QCOMPARE(sum.weights[size_t(k)], shape.bytesByKind(ws::TensorKind(k), o.precision));
        QCOMPARE(sum.kv, shape.kvBytes(4096, 2));
        // The closed-form totals agree with the per-core sum.
        const ws::CoreBytes closed = p.totalBytes();
        QCOMPARE(closed.weightBytes(), sum.weightBytes());
        QCOMPARE(closed.activations, sum.activations);
        QCOMPARE(closed.program, sum.program);
        QCOMPARE(p.sramUsedBytes(), sum.used());
    }

    // Each element of every tensor is held by exactly one core (no overlap, no gap).
    void everyElementPlacedOnce_data()
    {
        QTest::addColumn<bool>("moe");
        QTest::addColumn<QString>("precision");
        QTest::addColumn<bool>("tensorParallel");
        QTest::addColumn<int>("sramBytes");
        QTest::newRow("dense bf16 pipelined") << false << "bf16" << false << 4096;
        QTest::newRow("dense int4 pipelined (32-value blocks)") << false << "int4" << false << 4096;
        QTest::newRow("moe int8 pipelined") << true << "int8" << false << 8192;
        QTest::newRow("moe fp8 tensor-parallel") << true << "fp8" << true << 65536;
    }
    void everyElementPlacedOnce()
    {
        QFETCH(bool, moe);
        QFETCH(QString, precision);
        QFETCH(bool, tensorParallel);
        QFETCH(int, sramBytes);
        const ws::ModelConfig model = wstest::tinyModel(moe);
        ws::ModelConfig checked = model;
        QVERIFY(ws::validateModelConfig(checked).hasValue());
        ws::PlacementOptions o;
        o.precision = *ws::parsePrecision(precision.toStdString());
        o.contextTokens = 32;
        o.weightFill = tensorParallel ? 0.95 : 0.8;
        if (tensorParallel) {
            o.strategy = ws::PlacementStrategy::TensorParallel;
            o.contextTokens = 8;
        }
        ws::WaferSpec wafer = wstest::tinyWafer();
        wafer.sramBytesPerCore = sramBytes;
        auto placed = ws::placeModel(model, wafer, o);
        QVERIFY2(placed.hasValue(), placed.hasValue() ? "" : placed.error().message().c_str());
        const ws::Placement& p = *placed;
        if (!tensorParallel)
            QVERIFY2(p.deviceCount >= 2, "the tiny case should span several devices");
        int folded = 0;
        for (const auto& r : p.regions)
            for (const auto& t : r.tensors)
                folded += t.fold > 1 || t.inGroups > 0;
        if (precision == QLatin1String("int4"))
            QVERIFY2(folded > 0, "3 int4 blocks per row over 9 lines of cores should use a folded grid");

        const QString twice = wstest::elementsNotPlacedOnce(p, model);
        QVERIFY2(twice.isEmpty(), qPrintable(twice));
    }

    void consecutiveLayersAreNeighbours()
    {
        const ws::Placement p = place(QStringLiteral("qwen3-32b"), QStringLiteral("wse3"));
        for (size_t i = 0; i + 1 < p.regions.size(); ++i) {
            const ws::PlacedRegion& a = p.regions[i];
            const ws::PlacedRegion& b = p.regions[i + 1];
            if (a.device != b.device)
                continue;
            QCOMPARE(b.layer, a.layer + 1);
            const bool sideBySide = (a.rect.x + a.rect.width == b.rect.x || b.rect.x + b.rect.width == a.rect.x) &&
                                    a.rect.y < b.rect.y + b.rect.height && b.rect.y < a.rect.y + a.rect.height;
            const bool stacked = (a.rect.y + a.rect.height == b.rect.y) && a.rect.x < b.rect.x + b.rect.width &&
                                 b.rect.x < a.rect.x + a.rect.width;
            QVERIFY2(sideBySide || stacked,
                     qPrintable(QStringLiteral("layers %1 and %2 do not touch").arg(a.layer).arg(b.layer)));
        }
    }

    void tensorParallelRefusesWhatDoesNotFit()
    {
        ws::PlacementOptions o;
        o.strategy = ws::PlacementStrategy::TensorParallel;
        auto p = ws::placeModel(wstest::modelPreset(QStringLiteral("qwen3-32b")),
                                wstest::hardwarePreset(QStringLiteral("wse3")).wafer, o);
        QVERIFY(!p.hasValue());
        QVERIFY(QString::fromStdString(p.error().message()).contains(QLatin1String("pipelined")));
    }

    void badOptionsAreErrors_data()
    {
        QTest::addColumn<double>("fill");
        QTest::addColumn<qlonglong>("context");
        QTest::addColumn<int>("cols");
        QTest::newRow("zero fill") << 0.0 << 1024LL << 0;
        QTest::newRow("fill above one") << 1.5 << 1024LL << 0;
        QTest::newRow("negative context") << 0.8 << -5LL << 0;
        QTest::newRow("negative mesh") << 0.8 << 1024LL << -3;
    }
    void badOptionsAreErrors()
    {
        QFETCH(double, fill);
        QFETCH(qlonglong, context);
        QFETCH(int, cols);
        ws::PlacementOptions o;
        o.weightFill = fill;
        o.contextTokens = context;
        o.usableCols = cols;
        o.usableRows = cols;
        QVERIFY(!ws::placeModel(wstest::modelPreset(QStringLiteral("llama-3.1-8b")),
                                wstest::hardwarePreset(QStringLiteral("wse3")).wafer, o)
                     .hasValue());
    }

    void coreDetailAndSnapshot()
    {
        const ws::Placement p = place(QStringLiteral("llama-3.1-8b"), QStringLiteral("wse3"));
        // Border core: reserved, nothing placed.
        const auto border = p.coreDetail(0, 0, 0);
        QVERIFY(border.has_value());
        QCOMPARE(border->usableX, -1);
        QVERIFY(border->tiles.empty());
        QVERIFY(!p.coreDetail(1, 10, 10).has_value());
        // A core inside layer 0's region holds a tile of each of its matrices.
        const ws::CoreRect r0 = p.regions.front().rect;
        const auto d = p.coreDetail(0, p.originX + r0.x + 3, p.originY + r0.y + 2);
        QVERIFY(d.has_value());
        QCOMPARE(d->layer, 0);
        QVERIFY(d->bytes.weights[size_t(ws::TensorKind::AttnQ)] > 0);
        QVERIFY(d->bytes.kv > 0);
        QCOMPARE(d->bytes.used(), p.coreBytes(0, r0.x + 3, r0.y + 2).used());
        QVERIFY(d->bytes.used() <= p.sramBytesPerCore);

        const ws::MeshSnapshot s = ws::buildMeshSnapshot(p);
        QCOMPARE(s.meshCols, 762);
        QCOMPARE(s.meshRows, 1176);
        QCOMPARE(s.deviceCount, 1);
        QCOMPARE(int(s.regions.size()), 32);
        QCOMPARE(s.coreState[0][0], ws::CoreState::Reserved);
        double usedFromSnapshot = 0;
        for (float f : s.sramFraction[0])
            usedFromSnapshot += double(f) * double(s.sramBytesPerCore);
        QVERIFY(std::abs(usedFromSnapshot - double(p.sramUsedBytes())) / double(p.sramUsedBytes()) < 1e-4);
        const size_t idx = size_t(d->fabricY) * size_t(s.meshCols) + size_t(d->fabricX);
        QCOMPARE(s.owners[s.owner[0][idx]].layerIndex, 0);
        QVERIFY(std::abs(double(s.sramFraction[0][idx]) - double(d->bytes.used()) / double(s.sramBytesPerCore)) < 1e-6);
        QVERIFY(s.kvFraction[0][idx] > 0.0f);
    }

    void snapshotOfADeviceRange()
    {
        const ws::Placement p = place(QStringLiteral("llama-3.1-70b"), QStringLiteral("wse3"));
        const ws::MeshSnapshot s = ws::buildMeshSnapshot(p, 3, 1);
        QCOMPARE(s.deviceCount, 1);
        QCOMPARE(int(s.sramFraction.size()), 1);
        for (const auto& r : s.regions)
            QVERIFY(r.layerIndex >= 60);
    }
};

QTEST_GUILESS_MAIN(TestPlacement)
#include "tst_placement.moc"
