// The application's style draws what Fusion draws: a main window's toolbars (whose background it keeps as a
// pixmap) compared pixel for pixel with Fusion's own, at several sizes, in each toolbar area and twice (the
// second from the cache), with the application's palette.
#include "app/window/theme.h"

#include <QApplication>
#include <QMainWindow>
#include <QPixmapCache>
#include <QStyleFactory>
#include <QToolBar>
#include <QtTest>

#include <memory>

class TestTheme : public QObject
{
    Q_OBJECT

private slots:
    void toolbarsLookAsFusionDraws_data();
    void toolbarsLookAsFusionDraws();
};

namespace {

// The window with a toolbar in each area, drawn in `style`: each toolbar's own pixels.
QList<QImage> toolbarsIn(QStyle* style, QSize size)
{
    QMainWindow window;
    window.setStyle(style);
    QList<QToolBar*> bars;
    for (const Qt::ToolBarArea area :
         {Qt::TopToolBarArea, Qt::TopToolBarArea, Qt::LeftToolBarArea, Qt::BottomToolBarArea}) {
        auto* bar = new QToolBar(&window);
        bar->setStyle(style);
        bar->addAction(QStringLiteral("Open"));
        bar->addAction(QStringLiteral("Place"));
        if (bars.size() == 1) // a tall one, as Present mode's caption bar: its background is drawn in bands of rows
            bar->setMinimumHeight(130);
        window.addToolBar(area, bar);
        bars.push_back(bar);
    }
    window.setCentralWidget(new QWidget);
    window.resize(size);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return {};
    QList<QImage> images;
    for (QToolBar* bar : bars)
        images.push_back(bar->grab().toImage());
    return images;
}

} // namespace

void TestTheme::toolbarsLookAsFusionDraws_data()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("1366 x 768") << QSize(1366, 768);
    QTest::newRow("1920 x 1080") << QSize(1920, 1080);
    QTest::newRow("800 x 600") << QSize(800, 600);
}

void TestTheme::toolbarsLookAsFusionDraws()
{
    QFETCH(QSize, size);
    ws::applyTheme(*qApp); // the application's palette (and its style, under its style sheet)
    ws::AppStyle style;
    const std::unique_ptr<QStyle> fusion(QStyleFactory::create(QStringLiteral("Fusion")));
    QVERIFY(fusion);
    const QList<QImage> expected = toolbarsIn(fusion.get(), size);
    QCOMPARE(expected.size(), 4);
    QVERIFY(expected[1].height() > 120); // more than one band
    QPixmapCache::clear();
    const auto compare = [&](const QList<QImage>& wanted) {
        const QList<QImage> drawn = toolbarsIn(&style, size);
        QCOMPARE(drawn.size(), wanted.size());
        for (qsizetype i = 0; i < drawn.size(); ++i) {
            QVERIFY(!drawn[i].isNull());
            QCOMPARE(drawn[i], wanted[i]);
        }
    };
    compare(expected); // made
    compare(expected); // found in the cache
    // Another window colour (what Fusion draws the background from): drawn again, not taken from the cache.
    const QPalette before = QApplication::palette();
    QPalette lighter = before;
    lighter.setColor(QPalette::Window, before.color(QPalette::Window).lighter(150));
    QApplication::setPalette(lighter);
    const QList<QImage> expectedLighter = toolbarsIn(fusion.get(), size);
    QVERIFY(expectedLighter != expected);
    compare(expectedLighter);
    QApplication::setPalette(before);
}

QTEST_MAIN(TestTheme)
#include "tst_theme.moc"
