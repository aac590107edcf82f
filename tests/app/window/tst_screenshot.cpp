// Screenshots: taken only once the pending work is done (each piece in turn,
// even one started by the piece before), at the widget's size; a wait that
// times out is an error naming the work, and no file is written.
#include "app/export/screenshot.h"

#include <QFile>
#include <QImage>
#include <QPainter>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QWidget>

namespace {

// Red until its work is done, then green.
class WorkWidget : public QWidget
{
public:
    bool done = false;
    void paintEvent(QPaintEvent*) override { QPainter(this).fillRect(rect(), done ? Qt::green : Qt::red); }
};

} // namespace

class TestScreenshot : public QObject
{
    Q_OBJECT

private slots:
    void waitsForPendingWorkInTurn()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("shot.png"));
        WorkWidget widget;
        widget.resize(120, 80);
        bool placing = true, remapping = false;
        // The placement ends after 50 ms and starts a remap that ends 50 ms later, as in the main window.
        QTimer::singleShot(50, [&] {
            placing = false;
            remapping = true;
            QTimer::singleShot(50, [&] {
                remapping = false;
                widget.done = true;
                widget.update();
            });
        });
        QString error;
        QVERIFY2(ws::saveScreenshot(&widget, path,
                                    {{[&] { return placing; }, QStringLiteral("the placement")},
                                     {[&] { return remapping; }, QStringLiteral("the remap")}},
                                    1.0, &error, 5000),
                 qPrintable(error));
        QVERIFY(widget.done);
        const QImage image(path);
        QCOMPARE(image.size(), QSize(120, 80));
        QCOMPARE(image.pixelColor(60, 40), QColor(Qt::green));
    }

    void scaleAppliesToThePixels()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("shot2x.png"));
        WorkWidget widget;
        widget.done = true;
        widget.resize(50, 30);
        QString error;
        QVERIFY2(ws::saveScreenshot(&widget, path, {}, 2.0, &error), qPrintable(error));
        QCOMPARE(QImage(path).size(), QSize(100, 60));
    }

    void timeoutIsAnErrorNamingTheWork()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("never.png"));
        WorkWidget widget;
        widget.resize(40, 40);
        QString error;
        QVERIFY(!ws::saveScreenshot(&widget, path, {{[] { return true; }, QStringLiteral("the placement")}}, 1.0,
                                    &error, 100));
        QVERIFY2(error.startsWith(QLatin1String("the placement did not finish within")), qPrintable(error));
        QVERIFY(!QFile::exists(path));
    }
};

QTEST_MAIN(TestScreenshot)
#include "tst_screenshot.moc"
