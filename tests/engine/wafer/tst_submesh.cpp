// The sub-mesh placement (PlacementOptions::fitSubMesh): a model far smaller
// than a wafer sits on the smallest rectangle that holds it at the weight
// fill, the rest of the wafer idle; a model that needs whole wafers still
// gets them.
#include "engine/model/ggufmodelimporter.h"
#include "engine/wafer/placement/placer.h"

#include "tests/common/presetfixture.h"

#include <QTest>

#include <algorithm>

namespace {

// The bounding box of every region of `device`.
ws::CoreRect boundingBox(const ws::Placement& p, int device)
{
    int x0 = p.usableCols, y0 = p.usableRows, x1 = 0, y1 = 0;
    for (const ws::PlacedRegion& r : p.regions) {
        if (r.device != device)
            continue;
        x0 = std::min(x0, r.rect.x);
        y0 = std::min(y0, r.rect.y);
        x1 = std::max(x1, r.rect.x + r.rect.width);
        y1 = std::max(y1, r.rect.y + r.rect.height);
    }
    return {x0, y0, x1 - x0, y1 - y0};
}

} // namespace

class TestSubMesh : public QObject
{
    Q_OBJECT
private slots:
    void storiesGetsASmallRectangle()
    {
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.gguf");
        const auto model = ws::importGgufModel(path);
        QVERIFY2(model, model ? "" : model.error().message().c_str());
        const ws::WaferSpec wafer = wstest::hardwarePreset(QStringLiteral("wse3")).wafer;
        ws::PlacementOptions options;
        options.fitSubMesh = true;
        const auto placed = ws::placeModel(*model, wafer, options);
        QVERIFY2(placed, placed ? "" : placed.error().message().c_str());
        QCOMPARE(placed->deviceCount, 1);
        // The heatmap still draws the whole wafer; the layers sit in a corner rectangle of it.
        QCOMPARE(placed->usableCols, wafer.usableCols());
        QCOMPARE(placed->usableRows, wafer.usableRows());
        const ws::CoreRect box = boundingBox(*placed, 0);
        QCOMPARE(box.x, 0);
        QCOMPARE(box.y, 0);
        QVERIFY2(box.cores() * 100 < int64_t(wafer.usableCols()) * wafer.usableRows(),
                 qPrintable(QStringLiteral("%1 x %2").arg(box.width).arg(box.height)));
        QVERIFY(box.width > 0 && box.height > 0);
        // Every core of it within the SRAM and the weight fill.
        QVERIFY(placed->maxCoreBytes() <= wafer.sramBytesPerCore);
        QVERIFY(std::any_of(placed->notes.begin(), placed->notes.end(),
                            [](const std::string& n) { return n.find("sub-mesh") != std::string::npos; }));

        // The smallest: one row fewer (same aspect) does not hold the model on one wafer.
        const int rows = box.height - 1;
        ws::PlacementOptions smaller;
        smaller.maxDevices = 1;
        smaller.usableRows = rows;
        smaller.usableCols = int(std::ceil(double(rows) * wafer.usableCols() / wafer.usableRows()));
        if (rows > 0) {
            const auto tooSmall = ws::placeModel(*model, wafer, smaller);
            QVERIFY(!tooSmall || tooSmall->deviceCount > 1);
        }

        // Without the option the same model is spread over the whole wafer.
        const auto spread = ws::placeModel(*model, wafer, ws::PlacementOptions{});
        QVERIFY(spread);
        const ws::CoreRect all = boundingBox(*spread, 0);
        QCOMPARE(all.width, wafer.usableCols());
        QCOMPARE(all.height, wafer.usableRows());
    }

    void bigModelKeepsWholeWafers()
    {
        const ws::WaferSpec wafer = wstest::hardwarePreset(QStringLiteral("wse3")).wafer;
        ws::PlacementOptions options;
        options.fitSubMesh = true;
        const auto placed = ws::placeModel(wstest::modelPreset(QStringLiteral("qwen3-32b")), wafer, options);
        QVERIFY2(placed, placed ? "" : placed.error().message().c_str());
        QCOMPARE(placed->deviceCount, 2);
        for (int device = 0; device < placed->deviceCount; ++device) {
            const ws::CoreRect box = boundingBox(*placed, device);
            QCOMPARE(box.width, wafer.usableCols());
            QCOMPARE(box.height, wafer.usableRows());
        }
    }
};

QTEST_MAIN(TestSubMesh)
#include "tst_submesh.moc"
