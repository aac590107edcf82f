// The stage: the one writer of the main heatmap. What it is told to show lands in its view, and each change
// reaches the subscribers by one signal.
#include "tests/app/stage/stagefixture.h"

#include "app/export/exporter.h"

#include <QSignalSpy>
#include <QTest>

using namespace ws;
using wstest::resultWith;

class TestStage : public QObject
{
    Q_OBJECT

private slots:
    void aResultIsShownAndAnnounced()
    {
        QWidget parent;
        Stage stage(&parent);
        QSignalSpy changed(&stage, &Stage::resultChanged);
        const auto result = resultWith(2);
        stage.showResult(result, 1);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).value<std::shared_ptr<const PlacementResult>>(), result);
        QCOMPARE(stage.result(), result);
        QCOMPARE(stage.view()->snapshot(), result->snapshot);
        QCOMPARE(stage.device(), 1); // shown with the wafer it was asked for
        QCOMPARE(stage.widget(), static_cast<const QWidget*>(stage.view()));
    }

    void anErrorClearsTheScene()
    {
        QWidget parent;
        Stage stage(&parent);
        stage.showResult(resultWith(1));
        stage.showFrame(Stage::FrameSource::Dataflow,
                        std::make_shared<const MeshFrame>(MeshFrame{stage.view()->snapshot(), {}, {}}));
        QSignalSpy changed(&stage, &Stage::resultChanged);
        QSignalSpy source(&stage, &Stage::frameSourceChanged);
        stage.showError(QStringLiteral("no wafer holds it"));
        QCOMPARE(changed.count(), 1);
        QVERIFY(!changed.at(0).at(0).value<std::shared_ptr<const PlacementResult>>());
        QVERIFY(!stage.result());
        QVERIFY(!stage.view()->snapshot());
        QCOMPARE(stage.error(), QStringLiteral("no wafer holds it"));
        QCOMPARE(stage.frameSource(), Stage::FrameSource::None);
        QCOMPARE(source.count(), 1);
        stage.showResult(resultWith(1));
        QVERIFY(stage.error().isEmpty());
    }

    void framesNameTheirSource()
    {
        QWidget parent;
        Stage stage(&parent);
        stage.showResult(resultWith(1));
        QSignalSpy source(&stage, &Stage::frameSourceChanged);
        const auto frame = std::make_shared<const MeshFrame>(MeshFrame{stage.view()->snapshot(), {}, {}});
        stage.showFrame(Stage::FrameSource::Chat, frame);
        stage.showFrame(Stage::FrameSource::Chat, frame); // the same source: no second announcement
        QCOMPARE(source.count(), 1);
        QCOMPARE(stage.frameSource(), Stage::FrameSource::Chat);
        QCOMPARE(stage.view()->frame(), frame);
        stage.showFrame(Stage::FrameSource::Dataflow, frame);
        QCOMPARE(source.count(), 2);
        QCOMPARE(stage.frameSource(), Stage::FrameSource::Dataflow);
    }

    void layerAndWaferChangesAreAnnounced()
    {
        QWidget parent;
        Stage stage(&parent);
        stage.showResult(resultWith(3));
        QSignalSpy layer(&stage, &Stage::layerChanged);
        QSignalSpy device(&stage, &Stage::deviceChanged);
        stage.setLayer(MeshLayer::KvCache);
        QCOMPARE(stage.layer(), MeshLayer::KvCache);
        QCOMPARE(layer.count(), 1);
        stage.setDevice(2);
        QCOMPARE(stage.device(), 2);
        QCOMPARE(device.count(), 1);
        QCOMPARE(device.at(0).at(0).toInt(), 2);
        stage.setDevice(3); // there is no fourth wafer
        stage.setDevice(-1);
        QCOMPARE(stage.device(), 2);
        QCOMPARE(device.count(), 1);
    }

    // A layer or wafer change keeps the picture on show while the stage makes the new image off the GUI thread,
    // then shows it; an export of the heatmap meanwhile makes it at once.
    void theNewLayersImageIsMadeOffTheGuiThread()
    {
        QWidget parent;
        Stage stage(&parent);
        QWidget* heatmap = stage.widget();
        heatmap->resize(640, 480);
        stage.showResult(resultWith(2));
        // The colour at a core (the legend beside the mesh follows the layer at once).
        const auto colour = [&](const QImage& image) {
            return image.pixel(stage.view()->coreCentre(QPoint(30, 10)).toPoint());
        };
        (void)heatmap->grab(); // a new scene: blank until the stage has made its image
        QVERIFY(stage.view()->imagePending());
        QTRY_VERIFY(!stage.view()->imagePending());
        const QRgb sram = colour(heatmap->grab().toImage());
        stage.setLayer(MeshLayer::KvCache);
        QVERIFY(stage.view()->imagePending());
        QCOMPARE(colour(heatmap->grab().toImage()), sram); // the picture before, meanwhile
        QTRY_VERIFY(!stage.view()->imagePending());
        const QRgb kv = colour(heatmap->grab().toImage());
        QVERIFY(kv != sram);

        stage.setLayer(MeshLayer::SramOccupancy);
        stage.setDevice(1);
        QVERIFY(stage.view()->imagePending());
        QCOMPARE(colour(heatmap->grab().toImage()), kv);
        const QImage exported = Exporter::renderWidget(heatmap, 1.0); // what the view says: wafer 2's SRAM
        QVERIFY(!stage.view()->imagePending());
        QVERIFY(colour(exported) != kv && colour(exported) != sram);
        QCOMPARE(colour(exported), colour(heatmap->grab().toImage()));
    }
};

QTEST_MAIN(TestStage)
#include "tst_stage.moc"
