// The stage: the one writer of the main heatmap. What it is told to show lands in its view, and each change
// reaches the subscribers by one signal.
#include "tests/app/stage/stagefixture.h"

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
};

QTEST_MAIN(TestStage)
#include "tst_stage.moc"
