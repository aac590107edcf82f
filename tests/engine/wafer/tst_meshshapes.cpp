// A placement timed by the mesh engine one region shape at a time (engine/wafer/mesh/meshshapes.h): the
// shortcut's premise is that layers of one shape run the same events. Checked on Qwen3-0.6B on WSE-3 (28 layers
// in regions of a few sizes): the last layer of every shape of several layers, executed on its own, runs the
// cycles of the shape's first (a hop into a region of another size or place was found to differ by 1 to 5 %,
// hence the shape's key). Cancelling stops the run.

#include "engine/wafer/mesh/meshengine.h"
#include "engine/wafer/mesh/meshshapes.h"

#include "tests/common/presetfixture.h"

#include <QTest>

#include <cmath>

using namespace ws;

class TstMeshShapes : public QObject
{
    Q_OBJECT

private slots:
    void shapesStandForEveryLayer()
    {
        const wstest::PlacedPreset p = wstest::placePreset(QStringLiteral("qwen3-0.6b"), QStringLiteral("wse3"));
        const MeshParams params = MeshParams::fromHardware(p.hardware.wafer);
        int calls = 0;
        auto timed = timeLayersByShape(p.placement, p.model, params, 4096, [&](int done, int total) {
            ++calls;
            return done <= total;
        });
        QVERIFY2(timed.hasValue(), timed ? "" : timed.error().message().c_str());
        for (const MeshShapeTiming& s : timed->shapes)
            qInfo("shape %d x %d%s: %d layers, %.0f cycles", s.width, s.height,
                  s.crossesWafer ? " (to the next wafer)" : "", int(s.layers.size()), s.engineCycles);
        QVERIFY(timed->shapes.size() >= 1 && timed->shapes.size() < size_t(p.model.layers) / 2);
        QCOMPARE(calls, int(timed->shapes.size()));
        int layers = 0, checked = 0;
        double sum = 0;
        for (const MeshShapeTiming& shape : timed->shapes) {
            layers += int(shape.layers.size());
            sum += shape.engineCycles * double(shape.layers.size());
            if (shape.layers.size() < 2)
                continue;
            // The shape's last layer, executed on its own, runs the cycles of its first: same shape, same events.
            MeshOptions o;
            o.context = 4096;
            o.layer = shape.layers.back();
            auto run = executeMeshToken(p.placement, p.model, params, o);
            QVERIFY(run.hasValue());
            QVERIFY2(std::abs(run->totalCycles - shape.engineCycles) <= 1e-4 * shape.engineCycles,
                     qPrintable(QStringLiteral("layer %1: %2 cycles, its shape %3")
                                    .arg(o.layer)
                                    .arg(run->totalCycles)
                                    .arg(shape.engineCycles)));
            ++checked;
        }
        QCOMPARE(layers, p.model.layers); // every layer in one shape
        QVERIFY(checked >= 3);
        QCOMPARE(timed->engineCycles, sum);
        QVERIFY(timed->clockHz > 0);
    }

    void cancelStops()
    {
        const wstest::PlacedPreset p = wstest::placePreset(QStringLiteral("qwen3-0.6b"), QStringLiteral("wse3"));
        auto timed = timeLayersByShape(p.placement, p.model, MeshParams::fromHardware(p.hardware.wafer), 4096,
                                       [](int, int) { return false; });
        QVERIFY(!timed.hasValue());
        QCOMPARE(timed.error().code, ErrorCode::Cancelled);
    }
};

QTEST_GUILESS_MAIN(TstMeshShapes)
#include "tst_meshshapes.moc"
