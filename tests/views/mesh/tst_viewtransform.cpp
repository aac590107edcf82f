// ViewTransform: widget <-> core mapping, zoom around a point, fit, clamping.
// Expected values are worked out by hand from the definition
// widget = offset + core * scale.
#include "views/mesh/meshbands.h"
#include "views/mesh/meshraster.h"
#include "views/mesh/viewtransform.h"

#include <QPainter>
#include <QRandomGenerator>
#include <QtTest>

#include <cmath>

using ws::views::ViewTransform;

namespace {

ViewTransform make(QSizeF view, QSizeF mesh, double scale, QPointF offset, double margin = 0)
{
    ViewTransform t;
    t.viewPx = view;
    t.meshCores = mesh;
    t.scale = scale;
    t.offsetPx = offset;
    t.marginPx = margin;
    return t;
}

} // namespace

class TestViewTransform : public QObject
{
    Q_OBJECT

private slots:
    void coreToWidget_data();
    void coreToWidget();
    void coreAt_data();
    void coreAt();
    void zoomAroundKeepsPointFixed_data();
    void zoomAroundKeepsPointFixed();
    void fit_data();
    void fit();
    void clampPan_data();
    void clampPan();
    void clampScale_data();
    void clampScale();
    void resizeKeepsCentre();
    void visibleCores();
    void invalidInputIsHarmless();
    void turnedMapsByHand();
    void turnedKeepsPointsAndCentres();
    void turnedFitLeavesTheLegendBand();
    void turnedRasterIsTheTurnedImage();
    void turnMeshIsAQuarterTurn();
    void rasterIsTheCoreUnderEachPixel();
    void dieLinesAreDashedOverTheMeshOnly();
    void bandsDrawOneStrokesPixels_data();
    void bandsDrawOneStrokesPixels();
    void filledOutlineIsTheStrokedRect();
};

void TestViewTransform::coreToWidget_data()
{
    QTest::addColumn<double>("scale");
    QTest::addColumn<QPointF>("offset");
    QTest::addColumn<QPointF>("core");
    QTest::addColumn<QPointF>("widget");
    QTest::newRow("identity origin") << 1.0 << QPointF(0, 0) << QPointF(0, 0) << QPointF(0, 0);
    QTest::newRow("scale 2 offset 10,20") << 2.0 << QPointF(10, 20) << QPointF(3, 4) << QPointF(16, 28);
    QTest::newRow("sub-pixel cores") << 0.5 << QPointF(100, 50) << QPointF(762, 1176) << QPointF(481, 638);
    QTest::newRow("negative offset (zoomed in)")
        << 40.0 << QPointF(-4000, -800) << QPointF(101.5, 20.25) << QPointF(60, 10);
}

void TestViewTransform::coreToWidget()
{
    QFETCH(double, scale);
    QFETCH(QPointF, offset);
    QFETCH(QPointF, core);
    QFETCH(QPointF, widget);
    const ViewTransform t = make(QSizeF(800, 600), QSizeF(762, 1176), scale, offset);
    QCOMPARE(t.coreToWidget(core), widget);
    QCOMPARE(t.widgetToCore(widget), core);
}

void TestViewTransform::coreAt_data()
{
    QTest::addColumn<QPointF>("pixel");
    QTest::addColumn<bool>("onMesh");
    QTest::addColumn<QPoint>("core");
    // Mesh 10 x 5 cores, 8 px per core, top-left at (20, 30): covers x 20..100, y 30..70.
    QTest::newRow("first core, top-left pixel") << QPointF(20, 30) << true << QPoint(0, 0);
    QTest::newRow("first core, inner pixel") << QPointF(27.9, 37.9) << true << QPoint(0, 0);
    QTest::newRow("second column starts at 28") << QPointF(28, 30) << true << QPoint(1, 0);
    QTest::newRow("last core") << QPointF(99.9, 69.9) << true << QPoint(9, 4);
    QTest::newRow("right edge is off the mesh") << QPointF(100, 40) << false << QPoint();
    QTest::newRow("bottom edge is off the mesh") << QPointF(40, 70) << false << QPoint();
    QTest::newRow("left of the mesh") << QPointF(19.9, 40) << false << QPoint();
    QTest::newRow("above the mesh") << QPointF(40, 29.9) << false << QPoint();
    QTest::newRow("middle") << QPointF(61, 51) << true << QPoint(5, 2);
}

void TestViewTransform::coreAt()
{
    QFETCH(QPointF, pixel);
    QFETCH(bool, onMesh);
    QFETCH(QPoint, core);
    const ViewTransform t = make(QSizeF(200, 100), QSizeF(10, 5), 8, QPointF(20, 30));
    const auto got = t.coreAt(pixel);
    QCOMPARE(got.has_value(), onMesh);
    if (onMesh)
        QCOMPARE(*got, core);
}

void TestViewTransform::zoomAroundKeepsPointFixed_data()
{
    QTest::addColumn<double>("startScale");
    QTest::addColumn<QPointF>("startOffset");
    QTest::addColumn<QPointF>("pixel");
    QTest::addColumn<double>("factor");
    QTest::addColumn<double>("expectedScale");
    // View 800 x 600, mesh 762 x 1176, margin 0: fit scale is 600/1176 = 0.5102.
    QTest::newRow("zoom in at centre") << 4.0 << QPointF(-1000, -2000) << QPointF(400, 300) << 2.0 << 8.0;
    QTest::newRow("zoom in at top-left pixel") << 4.0 << QPointF(-1000, -2000) << QPointF(0, 0) << 1.25 << 5.0;
    QTest::newRow("zoom in off-centre") << 10.0 << QPointF(-3000, -5000) << QPointF(613, 97) << 1.5 << 15.0;
    QTest::newRow("zoom out") << 20.0 << QPointF(-7000, -11000) << QPointF(250, 450) << 0.5 << 10.0;
    QTest::newRow("several notches") << 2.0 << QPointF(-300, -700) << QPointF(700, 100) << 1.25 * 1.25 * 1.25
                                     << 3.90625;
}

void TestViewTransform::zoomAroundKeepsPointFixed()
{
    QFETCH(double, startScale);
    QFETCH(QPointF, startOffset);
    QFETCH(QPointF, pixel);
    QFETCH(double, factor);
    QFETCH(double, expectedScale);
    ViewTransform t = make(QSizeF(800, 600), QSizeF(762, 1176), startScale, startOffset);
    const QPointF before = t.widgetToCore(pixel);
    t.zoomAround(pixel, factor);
    QCOMPARE(t.scale, expectedScale);
    const QPointF after = t.widgetToCore(pixel);
    QVERIFY2(qAbs(after.x() - before.x()) < 1e-9 && qAbs(after.y() - before.y()) < 1e-9,
             qPrintable(QStringLiteral("core under cursor moved from (%1, %2) to (%3, %4)")
                            .arg(before.x())
                            .arg(before.y())
                            .arg(after.x())
                            .arg(after.y())));
}

void TestViewTransform::fit_data()
{
    QTest::addColumn<QSizeF>("view");
    QTest::addColumn<QSizeF>("mesh");
    QTest::addColumn<double>("margin");
    QTest::addColumn<double>("scale");
    QTest::addColumn<QPointF>("offset");
    // Tall mesh in a wide view: height limits. (1000 - 2*16) / 1176 = 0.823129...; width 762 * s = 627.2,
    // centred: (1600 - 627.2) / 2.
    const double s1 = 968.0 / 1176.0;
    QTest::newRow("WSE-3 in 1600x1000, margin 16")
        << QSizeF(1600, 1000) << QSizeF(762, 1176) << 16.0 << s1 << QPointF((1600 - 762 * s1) / 2, 16);
    QTest::newRow("square mesh, square view") << QSizeF(100, 100) << QSizeF(50, 50) << 0.0 << 2.0 << QPointF(0, 0);
    QTest::newRow("wide mesh in tall view: width limits")
        << QSizeF(300, 900) << QSizeF(100, 20) << 10.0 << 2.8 << QPointF(10, 422);
}

void TestViewTransform::fit()
{
    QFETCH(QSizeF, view);
    QFETCH(QSizeF, mesh);
    QFETCH(double, margin);
    QFETCH(double, scale);
    QFETCH(QPointF, offset);
    ViewTransform t = make(view, mesh, 17.0, QPointF(-123, 456), margin);
    t.fit();
    QCOMPARE(t.scale, scale);
    QCOMPARE(t.offsetPx, offset);
    QVERIFY(t.isFitted());
}

void TestViewTransform::clampPan_data()
{
    QTest::addColumn<QPointF>("pan");
    QTest::addColumn<QPointF>("offset");
    // View 200 x 100, mesh 100 x 100 cores at 4 px: 400 x 400 px, margin 0. Start at offset (-100, -100).
    // Allowed offsets: x in [200 - 400, 0] = [-200, 0], y in [100 - 400, 0] = [-300, 0].
    QTest::newRow("inside limits") << QPointF(50, -20) << QPointF(-50, -120);
    QTest::newRow("past the left edge") << QPointF(500, 0) << QPointF(0, -100);
    QTest::newRow("past the right edge") << QPointF(-500, 0) << QPointF(-200, -100);
    QTest::newRow("past the bottom edge") << QPointF(0, -1000) << QPointF(-100, -300);
    QTest::newRow("past top and left") << QPointF(1000, 1000) << QPointF(0, 0);
}

void TestViewTransform::clampPan()
{
    QFETCH(QPointF, pan);
    QFETCH(QPointF, offset);
    ViewTransform t = make(QSizeF(200, 100), QSizeF(100, 100), 4, QPointF(-100, -100));
    t.panBy(pan);
    QCOMPARE(t.offsetPx, offset);
}

void TestViewTransform::clampScale_data()
{
    QTest::addColumn<double>("factor");
    QTest::addColumn<double>("scale");
    QTest::addColumn<QPointF>("offset");
    // View 200 x 100, mesh 100 x 50, margin 0: fit scale 2, min scale 1, max 96.
    QTest::newRow("far past the maximum") << 1000.0 << ViewTransform::maxScale << QPointF(-4700, -2350);
    QTest::newRow("far below the minimum: centred") << 0.001 << 1.0 << QPointF(50, 25);
    QTest::newRow("zero factor is ignored") << 0.0 << 2.0 << QPointF(0, 0);
    QTest::newRow("NaN factor is ignored") << qQNaN() << 2.0 << QPointF(0, 0);
}

void TestViewTransform::clampScale()
{
    QFETCH(double, factor);
    QFETCH(double, scale);
    QFETCH(QPointF, offset);
    ViewTransform t = make(QSizeF(200, 100), QSizeF(100, 50), 1, QPointF());
    t.fit();
    QCOMPARE(t.scale, 2.0);
    // Zoom around the view centre (100, 50), which shows core (50, 25).
    t.zoomAround(QPointF(100, 50), factor);
    QCOMPARE(t.scale, scale);
    QCOMPARE(t.offsetPx, offset);
}

void TestViewTransform::resizeKeepsCentre()
{
    ViewTransform t = make(QSizeF(400, 400), QSizeF(1000, 1000), 10, QPointF(-3000, -4000));
    // Centre (200, 200) shows core (320, 420).
    t.resize(QSizeF(600, 300));
    QCOMPARE(t.widgetToCore(QPointF(300, 150)), QPointF(320, 420));

    ViewTransform fitted = make(QSizeF(400, 400), QSizeF(100, 50), 1, QPointF());
    fitted.fit();
    fitted.resize(QSizeF(800, 800));
    QVERIFY(fitted.isFitted());
    QCOMPARE(fitted.scale, 8.0);
}

void TestViewTransform::visibleCores()
{
    const ViewTransform t = make(QSizeF(200, 100), QSizeF(100, 100), 4, QPointF(-100, -40));
    QCOMPARE(t.visibleCores(), QRectF(25, 10, 50, 25));
    const ViewTransform small = make(QSizeF(200, 100), QSizeF(10, 10), 2, QPointF(90, 40));
    QCOMPARE(small.visibleCores(), QRectF(0, 0, 10, 10));
}

void TestViewTransform::invalidInputIsHarmless()
{
    ViewTransform empty;
    QVERIFY(!empty.coreAt(QPointF(0, 0)));
    empty.fit();
    empty.zoomAround(QPointF(1, 1), 2);
    empty.panBy(QPointF(5, 5));
    QVERIFY(empty.visibleCores().isEmpty());

    ViewTransform nanScale = make(QSizeF(200, 100), QSizeF(100, 50), qQNaN(), QPointF());
    nanScale.clamp();
    QCOMPARE(nanScale.scale, 2.0);
}

// A 4 x 6 mesh (portrait) turned a quarter clockwise shows as 6 x 4: core (x, y) at shown column 6 - 1 - y, row x.
// Worked by hand at 10 px per core, offset 0.
void TestViewTransform::turnedMapsByHand()
{
    ViewTransform t = make(QSizeF(120, 40), QSizeF(4, 6), 10, QPointF(0, 0));
    t.turned = true;
    QCOMPARE(t.shownCores(), QSizeF(6, 4));
    QCOMPARE(t.coreToWidget(QPointF(0, 0)), QPointF(60, 0)); // the mesh's top left at the shown top right
    QCOMPARE(t.coreToWidget(QPointF(4, 6)), QPointF(0, 40)); // its bottom right at the shown bottom left
    QCOMPARE(t.coreAt(QPointF(55, 5)), std::optional<QPoint>(QPoint(0, 0)));
    QCOMPARE(t.coreAt(QPointF(5, 35)), std::optional<QPoint>(QPoint(3, 5)));
    QCOMPARE(t.coreAt(QPointF(15, 5)), std::optional<QPoint>(QPoint(0, 4)));
    QCOMPARE(t.coreAt(QPointF(61, 5)), std::nullopt);
    // Cores x 1..3, y 2..5 cover shown columns 1..4 and rows 1..3.
    QCOMPARE(t.widgetRect(QRectF(1, 2, 2, 3)), QRectF(10, 10, 30, 20));
    // 120 x 40 px: the turned mesh fits at 10 px per core, the upright one at 40 / 6.
    QCOMPARE(t.fitScale(), 10.0);
    ViewTransform upright = t;
    upright.turned = false;
    QCOMPARE(upright.fitScale(), 40.0 / 6);
    QCOMPARE(t.scaleToShow(QSizeF(2, 3)), 20.0); // shown 3 x 2: min(120 / 3, 40 / 2)
    // The view's top left 30 x 20 px: shown columns 0..3 and rows 0..2, i.e. cores x 0..2, y 3..6.
    t.viewPx = QSizeF(30, 20);
    QCOMPARE(t.visibleCores(), QRectF(0, 3, 2, 3));
}

// A turned mesh fills the width of a landscape view, so it is fitted to leave the legend's band rather than have the
// legend over it: the narrowest band when one is given, else the full one. Upright, the band only moves the centre.
void TestViewTransform::turnedFitLeavesTheLegendBand()
{
    ViewTransform t = make(QSizeF(1000, 700), QSizeF(400, 600), 1, QPointF()); // shown 600 x 400 turned
    t.sideBandPx = 200;
    t.narrowBandPx = 120;
    t.turned = true;
    t.fit();
    QCOMPARE(t.scale, std::min((1000.0 - 120) / 600, 700.0 / 400)); // 880 / 600: the width binds
    QCOMPARE(t.offsetPx.x(), 0.0);                                  // centred in the 880 px left of the band
    QCOMPARE(t.widgetRect(QRectF(0, 0, 400, 600)).right(), 880.0);
    t.narrowBandPx = 0;
    t.fit();
    QCOMPARE(t.scale, 800.0 / 600);
    // Where the height binds the band costs nothing: the same scale as without it.
    t.viewPx = QSizeF(1600, 700);
    t.fit();
    QCOMPARE(t.scale, 700.0 / 400);
    t.turned = false; // upright: fitted to the whole view, as before
    t.fit();
    QCOMPARE(t.scale, std::min(1600.0 / 400, 700.0 / 600));
}

void TestViewTransform::turnedKeepsPointsAndCentres()
{
    ViewTransform t = make(QSizeF(1600, 900), QSizeF(762, 1176), 1, QPointF());
    t.turned = true;
    t.fit();
    QCOMPARE(t.scale, std::min(1600.0 / 1176, 900.0 / 762));
    const QPointF core(100.25, 900.5);
    QVERIFY(qFuzzyCompare(t.widgetToCore(t.coreToWidget(core)).x(), core.x()));
    QVERIFY(qFuzzyCompare(t.widgetToCore(t.coreToWidget(core)).y(), core.y()));
    // Zooming keeps the core under the cursor there.
    const QPointF px(700, 300);
    const QPointF before = t.widgetToCore(px);
    t.zoomAround(px, 4);
    QVERIFY(QLineF(t.widgetToCore(px), before).length() < 1e-9);
    // centreOn puts a core at the view's centre.
    t.centreOn(core);
    QVERIFY(QLineF(t.widgetToCore(QPointF(800, 450)), core).length() < 1e-9);
    // Every pixel's core lies in the mesh, and the pixel at a core's centre names that core.
    const QPoint c(17, 1000);
    QCOMPARE(t.coreAt(t.coreToWidget(QPointF(c) + QPointF(0.5, 0.5))), std::optional<QPoint>(c));
}

// The turned raster equals the upright raster of the image Qt turns a quarter clockwise, grid included.
void TestViewTransform::turnedRasterIsTheTurnedImage()
{
    QImage cores(5, 7, QImage::Format_RGB32);
    QRandomGenerator random(7);
    for (int y = 0; y < cores.height(); ++y)
        for (int x = 0; x < cores.width(); ++x)
            cores.setPixel(x, y, 0xff000000u | random.bounded(0x1000000u));
    ViewTransform turned = make(QSizeF(40, 30), QSizeF(5, 7), 3, QPointF(2.5, 1));
    turned.turned = true;
    ViewTransform upright = make(QSizeF(40, 30), QSizeF(7, 5), 3, QPointF(2.5, 1));
    const QImage turnedImage = cores.transformed(QTransform().rotate(90));
    QCOMPARE(turnedImage.size(), QSize(7, 5));
    QCOMPARE(turnedImage.pixel(6, 0), cores.pixel(0, 0));
    for (const int grid : {0, 40}) {
        QImage a, b;
        ws::views::rasterizeMesh(cores, turned, 0xff101010u, grid, a);
        ws::views::rasterizeMesh(turnedImage, upright, 0xff101010u, grid, b);
        QCOMPARE(a, b);
        QCOMPARE(a.pixel(22, 2), cores.pixel(0, 0)); // core (0, 0) at the shown top right, off its grid line
        // Read from turnMesh's copy (the view's and a prepared frame's): the same pixels; a copy of another size
        // is not used.
        QImage c, copy;
        ws::views::turnMesh(cores, copy);
        ws::views::rasterizeMesh(cores, turned, 0xff101010u, grid, c, {}, copy);
        QCOMPARE(c, a);
        ws::views::rasterizeMesh(cores, turned, 0xff101010u, grid, c, {}, QImage(3, 3, QImage::Format_RGB32));
        QCOMPARE(c, a);
    }
}

// turnMesh is Qt's quarter turn clockwise, across its tiles of 32 and at their edges, written in place into a
// target nobody else holds (and not into one someone does).
void TestViewTransform::turnMeshIsAQuarterTurn()
{
    for (const QSize size : {QSize(1, 1), QSize(5, 7), QSize(70, 45), QSize(64, 33), QSize(8, 8), QSize(17, 8),
                             QSize(8, 17), QSize(762, 1176)}) {
        QImage cores(size, QImage::Format_RGB32);
        QRandomGenerator random(uint(size.width() * 100 + size.height()));
        for (int y = 0; y < cores.height(); ++y)
            for (int x = 0; x < cores.width(); ++x)
                cores.setPixel(x, y, 0xff000000u | random.bounded(0x1000000u));
        QImage target;
        ws::views::turnMesh(cores, target);
        QCOMPARE(target, cores.transformed(QTransform().rotate(90)));
        const uchar* bits = target.constBits();
        target.fill(Qt::red);
        ws::views::turnMesh(cores, target);
        QCOMPARE(target.constBits(), bits);
        QCOMPARE(target, cores.transformed(QTransform().rotate(90)));
        const QImage held = target;
        QImage black(size, QImage::Format_RGB32);
        black.fill(Qt::black);
        ws::views::turnMesh(black, target);
        QVERIFY(target.constBits() != held.constBits());
        QCOMPARE(held, cores.transformed(QTransform().rotate(90)));
    }
}

// The die lines folded into the raster: white at alpha 70 over the core's colour, 4 pixels on and 2 off from the
// mesh's edge, over the mesh's pixels only; every other pixel as without them.
void TestViewTransform::dieLinesAreDashedOverTheMeshOnly()
{
    QImage cores(20, 10, QImage::Format_RGB32);
    cores.fill(qRgb(100, 20, 200));
    const QRgb background = 0xff101010u;
    const ViewTransform t = make(QSizeF(60, 40), QSizeF(20, 10), 2, QPointF(5, 6)); // mesh: x 5..45, y 6..26
    QImage plain, lined;
    ws::views::rasterizeMesh(cores, t, background, 0, plain);
    ws::views::RasterDies dies;
    dies.columns = {25, 58}; // the second is off the mesh
    dies.rows = {16};
    ws::views::rasterizeMesh(cores, t, background, 0, lined, dies);
    const QRgb over = qRgb(100 + (155 * 70 + 127) / 255, 20 + (235 * 70 + 127) / 255, 200 + (55 * 70 + 127) / 255);
    for (int y = 0; y < 40; ++y)
        for (int x = 0; x < 60; ++x) {
            const bool onMesh = x >= 5 && x < 45 && y >= 6 && y < 26;
            const bool column = x == 25 && onMesh && (y - 6) % 6 < 4;
            const bool row = y == 16 && onMesh && (x - 5) % 6 < 4;
            QCOMPARE(lined.pixel(x, y), column || row ? (column && row ? lined.pixel(x, y) : over) : plain.pixel(x, y));
        }
    QCOMPARE(lined.pixel(25, 6), over);
    QCOMPARE(lined.pixel(25, 10), plain.pixel(25, 10)); // a gap in the dashes
    QCOMPARE(lined.pixel(58, 20), background);
}

// Each pixel of the raster is the core under its centre (the background off the mesh), darkened where it is the
// first pixel of its core along either axis (the grid); at every zoom, so rows copied from the row above (the same
// mesh row, not a grid line) are checked against the core they show.
void TestViewTransform::rasterIsTheCoreUnderEachPixel()
{
    QImage cores(23, 31, QImage::Format_RGB32);
    QRandomGenerator random(11);
    for (int y = 0; y < cores.height(); ++y)
        for (int x = 0; x < cores.width(); ++x)
            cores.setPixel(x, y, 0xff000000u | random.bounded(0x1000000u));
    const QRgb background = 0xff101010u;
    const auto coreOf = [](int px, double offset, double scale, int count) {
        const double c = std::floor((px + 0.5 - offset) / scale);
        return c >= 0 && c < count ? int(c) : -1;
    };
    for (const double scale : {0.37, 1.0, 1.24, 3.0, 4.17, 5.0}) {
        for (const int grid : {0, 40}) {
            const ViewTransform t = make(QSizeF(120, 90), QSizeF(23, 31), scale, QPointF(3.3, -2.6));
            QImage raster;
            ws::views::rasterizeMesh(cores, t, background, grid, raster);
            const int keep = 256 - grid;
            int copiedRows = 0;
            for (int y = 0; y < raster.height(); ++y) {
                const int cy = coreOf(y, t.offsetPx.y(), scale, cores.height());
                const bool edgeY = cy >= 0 && (y == 0 || coreOf(y - 1, t.offsetPx.y(), scale, cores.height()) != cy);
                copiedRows += cy >= 0 && !edgeY ? 1 : 0;
                for (int x = 0; x < raster.width(); ++x) {
                    const int cx = coreOf(x, t.offsetPx.x(), scale, cores.width());
                    QRgb expected = background;
                    if (cx >= 0 && cy >= 0) {
                        const bool edgeX = x == 0 || coreOf(x - 1, t.offsetPx.x(), scale, cores.width()) != cx;
                        const QRgb c = cores.pixel(cx, cy);
                        expected = grid > 0 && (edgeX || edgeY)
                                       ? qRgb(qRed(c) * keep >> 8, qGreen(c) * keep >> 8, qBlue(c) * keep >> 8)
                                       : c;
                    }
                    if (raster.pixel(x, y) != expected)
                        QFAIL(qPrintable(
                            QStringLiteral("scale %1, grid %2, pixel (%3, %4)").arg(scale).arg(grid).arg(x).arg(y)));
                }
            }
            if (scale > 2)
                QVERIFY(copiedRows > raster.height() / 2); // rows the raster copies from the one above
        }
    }
}

void TestViewTransform::bandsDrawOneStrokesPixels_data()
{
    QTest::addColumn<double>("top");
    QTest::addColumn<double>("bottom");
    QTest::newRow("whole rows, many bands") << 10.0 << 975.0;
    QTest::newRow("fractions, many bands") << 10.4 << 975.3;
    QTest::newRow("a band and a bit") << 11.7 << 80.2;
    QTest::newRow("two bands exactly") << 0.0 << 120.0;
    QTest::newRow("within one band") << 3.0 << 50.0;
}

void TestViewTransform::bandsDrawOneStrokesPixels()
{
    // The overlay's die boundaries and region outlines are drawn in bands of rows (Qt hands taller strokes to
    // its thread pool): the bands make the pixels one dashed line or one fill makes, no pixel twice (the strokes
    // are translucent) and the dashes unbroken where the bands meet.
    QFETCH(double, top);
    QFETCH(double, bottom);
    QImage one(40, 1000, QImage::Format_ARGB32_Premultiplied);
    one.fill(Qt::black);
    QImage banded = one;
    const QImage blank = one;
    const QPen dashed(QColor(255, 255, 255, 70), 1, Qt::DashLine);
    const QRect fill(5, static_cast<int>(top), 1, static_cast<int>(bottom - top));
    const QColor fillColour(255, 255, 255, 110);
    {
        QPainter p(&one);
        p.setPen(dashed);
        p.drawLine(QPointF(20, top), QPointF(20, bottom));
        p.fillRect(fill, fillColour);
    }
    {
        QPainter p(&banded);
        p.setPen(dashed);
        ws::views::drawUprightLineInBands(p, 20, top, bottom);
        ws::views::fillRectInBands(p, fill, fillColour);
    }
    QVERIFY(one != blank);
    QCOMPARE(banded, one);
}

void TestViewTransform::filledOutlineIsTheStrokedRect()
{
    // The mesh's outline (a translucent aliased 1 px pen's drawRect on fractional coordinates, as the view drew it)
    // filled instead: the same pixels, corners blended once, for every offset and size a quarter pixel apart.
    const QColor colour(255, 255, 255, 50);
    QImage blank(120, 110, QImage::Format_ARGB32_Premultiplied);
    blank.fill(Qt::black);
    const QRect view = blank.rect();
    int compared = 0;
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) {
            const QRectF rect(10 + i * 0.25, 12 + 0.125 * j, 100 + j * 0.25, 90 + i * 0.3);
            QImage stroked = blank;
            QImage filled = blank;
            {
                QPainter p(&stroked);
                p.setPen(colour);
                p.drawRect(rect);
            }
            {
                QPainter p(&filled);
                ws::views::outlineRectInBands(p, ws::views::strokedRectPixels(rect), colour);
            }
            QVERIFY(filled != blank);
            QCOMPARE(filled, stroked);
            // Panned partly out of the view: cut to the view (and two pixels), the part shown is the same. (Qt's
            // own stroke is not compared there: where its line is clipped, it draws the far corner twice or not.)
            const QRectF panned = rect.translated(-40, -50);
            QImage whole(view.size() + QSize(100, 100), QImage::Format_ARGB32_Premultiplied);
            whole.fill(Qt::black);
            {
                QPainter p(&whole);
                p.translate(100, 100);
                ws::views::outlineRectInBands(p, ws::views::strokedRectPixels(panned), colour);
            }
            QImage cut = blank;
            {
                QPainter p(&cut);
                ws::views::outlineRectInBands(
                    p, ws::views::strokedRectPixels(panned).intersected(view.adjusted(-2, -2, 2, 2)), colour);
            }
            QVERIFY(cut != blank);
            QCOMPARE(cut, whole.copy(view.translated(100, 100)));
            ++compared;
        }
    QCOMPARE(compared, 64);
}

QTEST_GUILESS_MAIN(TestViewTransform)
#include "tst_viewtransform.moc"
