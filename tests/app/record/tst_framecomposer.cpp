// FrameComposer: a recording's frame turns a portrait wafer to fill a landscape video (as Present mode turns it
// on a landscape screen) and keeps it upright in a portrait one.
#include "app/record/framecomposer.h"

#include "tests/views/syntheticsnapshot.h"

#include <QtTest>

using namespace ws;

class TestFrameComposer : public QObject
{
    Q_OBJECT

private slots:
    void turnsAPortraitWaferInALandscapeVideo_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("chat");
        QTest::addColumn<bool>("turned");
        QTest::newRow("1280 x 720") << QSize(1280, 720) << false << true;
        QTest::newRow("1920 x 1080 with the chat") << QSize(1920, 1080) << true << true;
        QTest::newRow("720 x 1280 (portrait)") << QSize(720, 1280) << false << false;
    }

    void turnsAPortraitWaferInALandscapeVideo()
    {
        QFETCH(QSize, size);
        QFETCH(bool, chat);
        QFETCH(bool, turned);
        FrameComposer composer(size, chat);
        const auto snapshot = testing::makeSyntheticSnapshot(762 / 6, 1176 / 6, 1); // WSE-3's shape
        const QImage frame = composer.compose(std::make_shared<const MeshFrame>(MeshFrame{snapshot, {}, {}}),
                                              MeshLayer::SramOccupancy, 0, QStringLiteral("caption"));
        QCOMPARE(frame.size(), size);
        QCOMPARE(composer.meshTurned(), turned);
        // The drawn mesh: the bounding box of the cores' colours (every SRAM colour has green; the panels do not).
        const QRect area = composer.meshRect();
        int left = area.right(), right = area.left(), top = area.bottom(), bottom = area.top();
        for (int y = area.top(); y <= area.bottom(); y += 2)
            for (int x = area.left(); x <= area.right(); x += 2)
                if (qGreen(frame.pixel(x, y)) > 90 && qGreen(frame.pixel(x, y)) > qRed(frame.pixel(x, y)) + 20) {
                    left = std::min(left, x);
                    right = std::max(right, x);
                    top = std::min(top, y);
                    bottom = std::max(bottom, y);
                }
        QVERIFY(right > left && bottom > top);
        QCOMPARE(right - left > bottom - top, turned);
    }
};

QTEST_MAIN(TestFrameComposer)
#include "tst_framecomposer.moc"
