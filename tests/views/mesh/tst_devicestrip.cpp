// DeviceStrip: one thumbnail per device, click selects a device.
#include "views/mesh/devicestrip.h"

#include "tests/views/syntheticsnapshot.h"

#include <QSignalSpy>
#include <QtTest>

using namespace ws;
using namespace ws::views;

class TestDeviceStrip : public QObject
{
    Q_OBJECT

private slots:
    void clickSelectsDevice_data();
    void clickSelectsDevice();
    void growsWithDeviceCount();
    void dataflowThumbnailsAreNotBlank();
    void linkLabelsSitBetweenWafers();
    void turnedThumbnailsFollowTheView();
    void newThumbnailsFollowThePaint();
    void makeThumbnailsIsWhatTheStripMakes();
    void aMakerIsAskedAndItsLatestAnswerShown();
};

void TestDeviceStrip::clickSelectsDevice_data()
{
    QTest::addColumn<int>("devices");
    QTest::addColumn<int>("target");
    QTest::newRow("second of two") << 2 << 1;
    QTest::newRow("first of two") << 2 << 0;
    QTest::newRow("fourth of five") << 5 << 3;
}

void TestDeviceStrip::clickSelectsDevice()
{
    QFETCH(int, devices);
    QFETCH(int, target);
    DeviceStrip strip;
    strip.setSnapshot(testing::makeSyntheticSnapshot(40, 60, devices));
    strip.setCurrentDevice(target == 0 ? 1 : 0);
    strip.resize(strip.sizeHint());
    QSignalSpy selected(&strip, &DeviceStrip::deviceSelected);
    // Find a point in the target item by scanning down the middle column.
    QPoint pos;
    for (int y = 0; y < strip.height(); ++y)
        if (strip.deviceAt(QPoint(strip.width() / 2, y)) == target) {
            pos = QPoint(strip.width() / 2, y + 10);
            break;
        }
    QVERIFY(!pos.isNull());
    QTest::mouseClick(&strip, Qt::LeftButton, {}, pos);
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected.at(0).at(0).toInt(), target);
    QCOMPARE(strip.currentDevice(), target);
}

void TestDeviceStrip::growsWithDeviceCount()
{
    DeviceStrip one;
    one.setSnapshot(testing::makeSyntheticSnapshot(40, 60, 1));
    DeviceStrip four;
    four.setSnapshot(testing::makeSyntheticSnapshot(40, 60, 4));
    QVERIFY(four.sizeHint().height() > 3 * one.sizeHint().height());
    (void)four.grab();
}

// Seen at 1366 x 768 on the Dataflow layer: both wafers' thumbnails were one flat grey. They show the weight
// placement instead: more than one colour, and the same picture as that layer's.
void TestDeviceStrip::dataflowThumbnailsAreNotBlank()
{
    DeviceStrip strip;
    strip.setSnapshot(testing::makeSyntheticSnapshot(40, 60, 2));
    strip.setLayer(MeshLayer::Dataflow);
    const QImage dataflow = strip.thumbnail(1);
    QVERIFY(!dataflow.isNull());
    QSet<QRgb> colours;
    for (int y = 0; y < dataflow.height(); ++y)
        for (int x = 0; x < dataflow.width(); ++x)
            colours.insert(dataflow.pixel(x, y));
    QVERIFY2(colours.size() > 2, qPrintable(QString::number(colours.size())));
    strip.setLayer(MeshLayer::WeightPlacement);
    QCOMPARE(strip.thumbnail(1), dataflow);
}

// Turned as the main view turns a portrait wafer: each thumbnail is the upright one a quarter turn clockwise, so
// a 40 x 60 mesh gives landscape thumbnails; upright again, the same thumbnails as before.
void TestDeviceStrip::turnedThumbnailsFollowTheView()
{
    DeviceStrip strip;
    strip.setSnapshot(testing::makeSyntheticSnapshot(40, 60, 2));
    const QImage upright = strip.thumbnail(1);
    QVERIFY(upright.height() > upright.width());
    const int uprightHeight = strip.sizeHint().height();
    strip.setTurned(true);
    const QImage turned = strip.thumbnail(1);
    QVERIFY2(turned.width() > turned.height(),
             qPrintable(QStringLiteral("%1 x %2").arg(turned.width()).arg(turned.height())));
    QCOMPARE(turned.width(), upright.width());
    QVERIFY(strip.sizeHint().height() < uprightHeight);
    // The mesh's top left (the first band's colour) is at the thumbnail's top right.
    QCOMPARE(QColor(turned.pixel(turned.width() - 1, 0)).name(), QColor(upright.pixel(0, 0)).name());
    strip.setTurned(false);
    QCOMPARE(strip.thumbnail(1), upright);
}

// A link label between two thumbnails: room is made for it and its text is drawn there (the picture differs from
// the same room left blank); no texts, no room.
void TestDeviceStrip::linkLabelsSitBetweenWafers()
{
    DeviceStrip plain, linked;
    for (DeviceStrip* s : {&plain, &linked}) {
        s->setSnapshot(testing::makeSyntheticSnapshot(40, 60, 2));
        s->resize(s->sizeHint());
    }
    linked.setLinks({QStringLiteral("↓ 10.0 KiB per token\n0.1% of its time")}, {QStringLiteral("why")});
    QCOMPARE(linked.linkText(0), QStringLiteral("↓ 10.0 KiB per token\n0.1% of its time"));
    QVERIFY(linked.sizeHint().height() > plain.sizeHint().height());
    linked.resize(linked.sizeHint());
    const QImage withText = linked.grab().toImage();
    linked.setLinks({QStringLiteral(" ")}, {QStringLiteral("why")}); // the same room, nothing to read
    QCOMPARE(linked.sizeHint().height(), linked.height());
    QVERIFY(linked.grab().toImage() != withText);
    linked.setLinks({QString()}, {QString()});
    QCOMPARE(linked.sizeHint().height(), plain.sizeHint().height());
}

// A new layer (or placement) with as many wafers: the paint that follows still draws the last thumbnails and the
// new ones are made right after it (a zero timer), so the dispatch that changed the layer stays short; then the
// strip shows what a strip made for that layer shows. thumbnail() gives the new one at once.
void TestDeviceStrip::newThumbnailsFollowThePaint()
{
    DeviceStrip strip, fresh;
    for (DeviceStrip* s : {&strip, &fresh}) {
        s->setSnapshot(testing::makeSyntheticSnapshot(40, 60, 2));
        s->resize(s->sizeHint());
    }
    fresh.setLayer(MeshLayer::WeightPlacement);
    const QImage before = strip.grab().toImage();
    const QImage placement = fresh.grab().toImage();
    QVERIFY(before != placement);
    strip.setLayer(MeshLayer::WeightPlacement);
    QCOMPARE(strip.grab().toImage(), before); // the last thumbnails, once more
    QTRY_COMPARE(strip.grab().toImage(), placement);
    QCOMPARE(strip.thumbnail(1), fresh.thumbnail(1));
}

// The pure maker (any thread) gives every wafer's thumbnail and SRAM use as the strip makes them itself, upright
// and turned, on any layer (the Dataflow layer's are the weight placement's).
void TestDeviceStrip::makeThumbnailsIsWhatTheStripMakes()
{
    const auto snapshot = testing::makeSyntheticSnapshot(40, 60, 3);
    for (const bool turned : {false, true})
        for (const MeshLayer layer : {MeshLayer::SramOccupancy, MeshLayer::Dataflow}) {
            DeviceStrip strip;
            strip.setSnapshot(snapshot);
            strip.setTurned(turned);
            strip.setLayer(layer);
            const QSize size = strip.thumbnail(0).size();
            const DeviceThumbnails made = DeviceStrip::makeThumbnails(*snapshot, layer, size, turned);
            QCOMPARE(made.images.size(), size_t(3));
            QCOMPARE(made.usedFraction.size(), size_t(3));
            for (int d = 0; d < 3; ++d) {
                QCOMPARE(made.images[size_t(d)], strip.thumbnail(d));
                QVERIFY(made.usedFraction[size_t(d)] >= 0 && made.usedFraction[size_t(d)] <= 1);
            }
        }
}

// With a maker, a stale strip asks it once, at its paint, for its latest request, and makes nothing itself; it
// shows the answer to that request and drops an answer to an older one.
void TestDeviceStrip::aMakerIsAskedAndItsLatestAnswerShown()
{
    DeviceStrip strip;
    std::vector<ThumbnailRequest> asked;
    strip.setThumbnailMaker([&](ThumbnailRequest r) { asked.push_back(std::move(r)); });
    const auto snapshot = testing::makeSyntheticSnapshot(40, 60, 2);
    strip.setSnapshot(snapshot);
    strip.resize(strip.sizeHint());
    QVERIFY(asked.empty()); // nothing until it paints
    const QImage waiting = strip.grab().toImage();
    strip.grab();
    QCOMPARE(asked.size(), size_t(1));
    QCOMPARE(asked[0].snapshot, snapshot);
    QCOMPARE(asked[0].turned, false);
    // An answer made for that request, painted solid: shown.
    const auto solid = [&](QColor c) {
        DeviceThumbnails t;
        for (int d = 0; d < 2; ++d) {
            QImage image(asked[0].size, QImage::Format_RGB32);
            image.fill(c);
            t.images.push_back(image);
            t.usedFraction.push_back(0.5);
        }
        return t;
    };
    // A newer request (another layer kind) before the answer: the old answer is dropped, a new request made.
    strip.setLayer(MeshLayer::WeightPlacement);
    strip.offerThumbnails(asked[0].stamp, solid(Qt::red));
    QCOMPARE(strip.grab().toImage(), waiting);
    QCOMPARE(asked.size(), size_t(2));
    QVERIFY(asked[1].stamp != asked[0].stamp);
    QCOMPARE(asked[1].layer, MeshLayer::WeightPlacement);
    strip.offerThumbnails(asked[1].stamp, solid(Qt::red));
    const QImage shown = strip.grab().toImage();
    QVERIFY(shown != waiting);
    bool red = false;
    for (int y = 0; y < shown.height() && !red; ++y)
        red = shown.pixelColor(shown.width() / 2, y) == QColor(Qt::red);
    QVERIFY(red);
    QCOMPARE(asked.size(), size_t(2)); // complete: nothing more asked
}

QTEST_MAIN(TestDeviceStrip)
#include "tst_devicestrip.moc"
