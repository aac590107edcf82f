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

QTEST_MAIN(TestDeviceStrip)
#include "tst_devicestrip.moc"
