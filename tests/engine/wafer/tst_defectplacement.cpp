#include "engine/wafer/redundancy/defectplacement.h"

#include "tests/common/presetfixture.h"

#include <QTest>

#include <cmath>

class TestDefectPlacement : public QObject
{
    Q_OBJECT
private slots:
    void noDefectsPlacesOnThePresetMesh()
    {
        const ws::HardwareSpec hw = wstest::hardwarePreset(QStringLiteral("wse3"));
        const ws::ModelConfig model = wstest::modelPreset(QStringLiteral("llama-3.1-8b"));
        const auto clean = ws::placeModel(model, hw.wafer, {});
        QVERIFY(clean.hasValue());
        const auto d = ws::placeWithDefects(model, hw.wafer, {}, 0.0, 1);
        QVERIFY2(d.hasValue(), d.hasValue() ? "" : d.error().message().c_str());
        QCOMPARE(d->usableMesh, (ws::MeshSize{hw.wafer.usableCols(), hw.wafer.usableRows()}));
        QCOMPARE(d->placement.deviceCount, clean->deviceCount);
        QCOMPARE(d->totals.deadCores, int64_t(0));
        QCOMPARE(d->totals.capacityLostCores, int64_t(0));
        QCOMPARE(d->totals.usableCores, int64_t(clean->deviceCount) * hw.wafer.usableCols() * hw.wafer.usableRows());
        QCOMPARE(d->hopStretch(), 1.0);
    }

    void eachWaferHasItsOwnDefects()
    {
        const ws::HardwareSpec hw = wstest::hardwarePreset(QStringLiteral("wse3"));
        const ws::ModelConfig model = wstest::modelPreset(QStringLiteral("llama-3.1-70b"));
        const double rate = 0.001;
        const auto d = ws::placeWithDefects(model, hw.wafer, {}, rate, 5);
        QVERIFY2(d.hasValue(), d.hasValue() ? "" : d.error().message().c_str());
        const int devices = d->placement.deviceCount;
        QVERIFY(devices >= 2);
        QCOMPARE(int(d->devices.size()), devices);
        const auto layout = ws::SpareLayout::fromSpec(hw.wafer);
        const int64_t perWafer = std::llround(rate * double(layout->physicalCoreCount()));
        QCOMPARE(d->totals.deadCores, devices * perWafer);
        QCOMPARE(d->totals.usableCores, devices * d->usableMesh.cores());
        QCOMPARE(d->placement.usableCols, d->usableMesh.cols);
        QCOMPARE(d->placement.usableRows, d->usableMesh.rows);
        // The common rectangle is the smallest wafer's.
        int minRows = 1 << 30;
        for (int i = 0; i < devices; ++i)
            minRows = std::min(minRows, int(d->devices[size_t(i)].usableCores / d->usableMesh.cols));
        QCOMPARE(d->usableMesh.rows, minRows);
        // Deterministic, and the seed matters.
        const auto again = ws::placeWithDefects(model, hw.wafer, {}, rate, 5);
        QCOMPARE(again->totals.sparesUsed, d->totals.sparesUsed);
        QCOMPARE(again->usableMesh, d->usableMesh);
        const auto r0 = ws::remapDevice(hw.wafer, rate, 5, 0);
        const auto r1 = ws::remapDevice(hw.wafer, rate, 5, 1);
        QVERIFY(r0->summary().shiftedCores != r1->summary().shiftedCores);
        // Dead cores under the placed regions stretch some line: a skipped core or a diagonal adds a hop.
        QVERIFY(d->hopStretchX > 1.0);
        QVERIFY(d->hopStretchY > 1.0);
        // Short lines crossing a diagonal or a dropped row stretch most: 1 + (1 or 2) / (P - 1).
        QVERIFY(d->hopStretch() < 3.0);
    }

    void tooManyDefectsIsAClearError()
    {
        const ws::HardwareSpec hw = wstest::hardwarePreset(QStringLiteral("wse3"));
        const ws::ModelConfig model = wstest::modelPreset(QStringLiteral("llama-3.1-8b"));
        const auto d = ws::placeWithDefects(model, hw.wafer, {}, 0.5, 1);
        QVERIFY(!d.hasValue());
        QCOMPARE(d.error().code, ws::ErrorCode::OutOfRange);
        QVERIFY(QString::fromStdString(d.error().message())
                    .contains(QStringLiteral(
                        "no usable cores on wafer 1 "))); // wafers count from 1, as the window shows them
        QVERIFY(!ws::placeWithDefects(model, hw.wafer, {}, -0.1, 1).hasValue());
    }
};

QTEST_GUILESS_MAIN(TestDefectPlacement)
#include "tst_defectplacement.moc"
