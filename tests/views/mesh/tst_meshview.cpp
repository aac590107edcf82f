// MeshView on the offscreen platform: it renders a snapshot (pixel colours
// match the cores' values), maps clicks to the right core, pans on drag
// without clicking, zooms around the cursor and survives bad input.
#include "views/mesh/meshlegend.h"
#include "views/mesh/meshview.h"

#include "tests/views/syntheticsnapshot.h"
#include "views/mesh/colorscale.h"
#include "views/mesh/mesheditor.h"
#include "views/mesh/meshimage.h"
#include "views/mesh/meshraster.h"

#include <QSignalSpy>
#include <QtTest>

#include <set>

using namespace ws;
using namespace ws::views;

class TestMeshView : public QObject
{
    Q_OBJECT

private slots:
    void rendersSnapshot_data();
    void rendersSnapshot();
    void clickMapsToCore_data();
    void clickMapsToCore();
    void clickOffMeshEmitsNothing();
    void dragPansWithoutClicking();
    void wheelZoomKeepsCoreUnderCursor();
    void levelOfDetailShowsGrid();
    void viewStateRoundTrip_data();
    void viewStateRoundTrip();
    void badSnapshots();
    void framesShareTheBase();
    void headsUpKeepsClearOfTheLegend_data();
    void headsUpKeepsClearOfTheLegend();
    void legendBesideTheMesh();
    void turnsToFitALandscapeView();
    void editorMovesTheEdgeDraggedOnATurnedMesh();
    void turnedMeshStaysBesideEachLayersLegend();
    void shownImageStandsInUntilItsReducedCopy();
    void everyPixelIsPaintedBelowAPixelPerCore();
    void legendFadesNearThePointer();
    void legendWrapsIntoTheMarginBesideTheMesh();
    void preparedRasterIsPaintedAtItsZoom();
    void deferredImageKeepsThePictureUntilItIsOffered();
    void dieLinesComeWithTheRaster();
};

namespace {

// Colour of the widget pixel at the centre of `core` when rendered.
QRgb renderedColour(MeshView& view, QPoint core)
{
    const QImage image = view.grab().toImage();
    const QPointF c = view.coreCentre(core) * image.devicePixelRatio();
    return image.pixel(c.toPoint());
}

} // namespace

void TestMeshView::rendersSnapshot_data()
{
    QTest::addColumn<int>("layer");
    QTest::addColumn<int>("device");
    QTest::addColumn<QPoint>("core");
    QTest::addColumn<double>("zoom");
    QTest::newRow("SRAM, fitted, middle core") << int(MeshLayer::SramOccupancy) << 0 << QPoint(30, 20) << 1.0;
    QTest::newRow("SRAM, fitted, device 1") << int(MeshLayer::SramOccupancy) << 1 << QPoint(30, 20) << 1.0;
    QTest::newRow("SRAM, zoomed in") << int(MeshLayer::SramOccupancy) << 0 << QPoint(32, 21) << 3.0;
    QTest::newRow("KV, fitted") << int(MeshLayer::KvCache) << 0 << QPoint(50, 25) << 1.0;
    QTest::newRow("placement, fitted") << int(MeshLayer::WeightPlacement) << 0 << QPoint(10, 20) << 1.0;
}

void TestMeshView::rendersSnapshot()
{
    QFETCH(int, layer);
    QFETCH(int, device);
    QFETCH(QPoint, core);
    QFETCH(double, zoom);
    const auto snapshot = testing::makeSyntheticSnapshot(64, 48, 2, 12);
    MeshView view;
    view.setLegendVisible(false);
    view.resize(640, 480);
    view.setSnapshot(snapshot);
    view.setLayer(MeshLayer(layer));
    view.setDevice(device);
    if (zoom != 1.0) {
        for (double z = 1; z < zoom; z *= ViewTransform::zoomStep)
            view.zoomIn();
    }
    QVERIFY(view.transform().scale > 4); // so the pixel is well inside the core
    QRgb expected = 0;
    const size_t i = static_cast<size_t>(core.y()) * 64 + core.x();
    switch (MeshLayer(layer)) {
    case MeshLayer::SramOccupancy:
        expected = ColorScale::sramOccupancy().map(snapshot->sramFraction[device][i]);
        break;
    case MeshLayer::KvCache:
        expected = ColorScale::kvCache().map(snapshot->kvFraction[device][i]);
        break;
    default:
        expected = PlacementPalette::color(snapshot->owners[snapshot->owner[device][i]]);
        break;
    }
    QCOMPARE(QColor(renderedColour(view, core)).name(), QColor(expected).name());
}

void TestMeshView::clickMapsToCore_data()
{
    QTest::addColumn<int>("device");
    QTest::addColumn<QPoint>("core");
    QTest::addColumn<int>("zoomSteps");
    QTest::newRow("top-left core") << 0 << QPoint(0, 0) << 0;
    QTest::newRow("bottom-right core") << 0 << QPoint(63, 47) << 0;
    QTest::newRow("top-right core") << 0 << QPoint(63, 0) << 0;
    QTest::newRow("interior core on device 1") << 1 << QPoint(17, 33) << 0;
    QTest::newRow("zoomed in three steps") << 0 << QPoint(35, 20) << 3;
}

void TestMeshView::clickMapsToCore()
{
    QFETCH(int, device);
    QFETCH(QPoint, core);
    QFETCH(int, zoomSteps);
    MeshView view;
    view.resize(640, 480);
    view.setSnapshot(testing::makeSyntheticSnapshot(64, 48, 2));
    view.setDevice(device);
    for (int i = 0; i < zoomSteps; ++i)
        view.zoomIn();
    QSignalSpy clicked(&view, &MeshView::coreClicked);
    const QPoint pos = view.coreCentre(core).toPoint();
    QVERIFY(view.rect().contains(pos));
    QTest::mouseClick(&view, Qt::LeftButton, {}, pos);
    QCOMPARE(clicked.count(), 1);
    QCOMPARE(clicked.at(0).at(0).toInt(), device);
    QCOMPARE(clicked.at(0).at(1).toInt(), core.x());
    QCOMPARE(clicked.at(0).at(2).toInt(), core.y());
    QCOMPARE(view.selectedCore(), std::optional<QPoint>(core));
}

void TestMeshView::clickOffMeshEmitsNothing()
{
    MeshView view;
    view.resize(640, 480);
    view.setSnapshot(testing::makeSyntheticSnapshot(64, 48, 1));
    QSignalSpy clicked(&view, &MeshView::coreClicked);
    // Fitted, the mesh is centred with a margin: the top-left widget pixel is off the mesh.
    QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(1, 1));
    QCOMPARE(clicked.count(), 0);
}

void TestMeshView::dragPansWithoutClicking()
{
    MeshView view;
    view.resize(640, 480);
    view.setSnapshot(testing::makeSyntheticSnapshot(64, 48, 1));
    for (int i = 0; i < 6; ++i)
        view.zoomIn();
    QSignalSpy clicked(&view, &MeshView::coreClicked);
    const QPointF before = view.transform().offsetPx;
    QTest::mousePress(&view, Qt::LeftButton, {}, QPoint(300, 200));
    QTest::mouseMove(&view, QPoint(320, 210));
    QTest::mouseMove(&view, QPoint(340, 230));
    QTest::mouseRelease(&view, Qt::LeftButton, {}, QPoint(340, 230));
    QCOMPARE(clicked.count(), 0);
    QCOMPARE(view.transform().offsetPx, before + QPointF(40, 30));
}

void TestMeshView::wheelZoomKeepsCoreUnderCursor()
{
    MeshView view;
    view.resize(640, 480);
    view.setSnapshot(testing::makeSyntheticSnapshot(64, 48, 1));
    view.zoomIn();
    view.zoomIn();
    const QPointF cursor(200, 150);
    const QPointF before = view.transform().widgetToCore(cursor);
    const double scaleBefore = view.transform().scale;
    QWheelEvent wheel(cursor, view.mapToGlobal(cursor), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(&view, &wheel);
    QCOMPARE(view.transform().scale, scaleBefore * ViewTransform::zoomStep);
    const QPointF after = view.transform().widgetToCore(cursor);
    QVERIFY(qAbs(after.x() - before.x()) < 1e-9 && qAbs(after.y() - before.y()) < 1e-9);
}

void TestMeshView::levelOfDetailShowsGrid()
{
    // A uniform snapshot: grid lines are the only thing that can change a pixel between two cores.
    auto snapshot = testing::makeSyntheticSnapshot(64, 48, 1);
    std::fill(snapshot->sramFraction[0].begin(), snapshot->sramFraction[0].end(), 0.5f);
    snapshot->regions.clear();
    MeshView view;
    view.setLegendVisible(false);
    view.resize(640, 480);
    view.setSnapshot(snapshot);
    const QRgb fill = ColorScale::sramOccupancy().map(0.5f);
    // Pixel on the boundary between cores (31, 24) and (32, 24), half way down: at the view centre.
    auto boundaryPixel = [](MeshView& v) {
        const QImage image = v.grab().toImage();
        const QPoint p = v.transform().coreToWidget(QPointF(32, 24.5)).toPoint();
        return image.valid(p) ? image.pixel(p) : QRgb(0);
    };
    QVERIFY(view.transform().scale < 20); // fitted: 640 x 480 for 64 x 48 cores, margin 16 -> 9.3 px
    for (int i = 0; i < 12; ++i)
        view.zoomIn();
    QVERIFY(view.transform().scale >= 6);
    const QRgb atLargeZoom = boundaryPixel(view);
    QVERIFY(atLargeZoom != 0); // on screen
    QVERIFY2(atLargeZoom != fill, "no grid line at a large zoom");

    MeshView small;
    small.setLegendVisible(false);
    small.resize(200, 160);
    small.setSnapshot(snapshot);
    QVERIFY(small.transform().scale < 6); // 64 cores in 168 px
    QCOMPARE(boundaryPixel(small), fill);
}

void TestMeshView::viewStateRoundTrip_data()
{
    QTest::addColumn<double>("zoom");
    QTest::addColumn<QPointF>("centre");
    QTest::addColumn<double>("expectedZoom");
    QTest::addColumn<QPointF>("expectedCentre");
    // 64 x 48 cores in 640 x 480 with a 16 px margin: fit is 9.33 px per core.
    QTest::newRow("fitted, centred") << 1.0 << QPointF(32, 24) << 1.0 << QPointF(32, 24);
    QTest::newRow("zoom 3 around (20, 12)") << 3.0 << QPointF(20, 12) << 3.0 << QPointF(20, 12);
    // Near a corner the mesh edge stops at the 16 px margin, so the centre moves inwards.
    QTest::newRow("zoom 5 near a corner is clamped")
        << 5.0 << QPointF(1, 1) << 5.0 << QPointF((320.0 - 16) / (5 * 448.0 / 48), (240.0 - 16) / (5 * 448.0 / 48));
    QTest::newRow("zoom below the minimum: half the fit, centred") << 0.1 << QPointF(3, 3) << 0.5 << QPointF(32, 24);
}

void TestMeshView::viewStateRoundTrip()
{
    QFETCH(double, zoom);
    QFETCH(QPointF, centre);
    QFETCH(double, expectedZoom);
    QFETCH(QPointF, expectedCentre);
    MeshView view;
    view.setLegendVisible(false); // a mesh that leaves room beside it keeps the legend's free: legendBesideTheMesh
    view.resize(640, 480);
    view.setSnapshot(testing::makeSyntheticSnapshot(64, 48, 1));
    view.setViewState(zoom, centre);
    QCOMPARE(view.zoomFactor(), expectedZoom);
    QVERIFY2(qAbs(view.centreCore().x() - expectedCentre.x()) < 1e-6 &&
                 qAbs(view.centreCore().y() - expectedCentre.y()) < 1e-6,
             qPrintable(QStringLiteral("centre (%1, %2)").arg(view.centreCore().x()).arg(view.centreCore().y())));
}

// A tall mesh in a wide view (a portrait wafer in a landscape window) leaves room beside it: the mesh moves left,
// centred in the rest, and the legend sits beside it instead of over its cores. Where the mesh leaves no such room
// it stays centred in the whole view.
void TestMeshView::legendBesideTheMesh()
{
    MeshView view;
    view.resize(800, 400); // centred in the whole view, the mesh would reach under the bottom-right legend
    view.setSnapshot(testing::makeSyntheticSnapshot(48, 64, 1)); // 5.75 px per core: 276 x 368 px
    const auto mesh = [&view] {
        return view.transform().widgetRect(
            QRectF(0, 0, view.transform().meshCores.width(), view.transform().meshCores.height()));
    };
    const auto legend = view.headsUp().legendRect;
    QVERIFY(legend);
    QVERIFY2(!legend->intersects(mesh()),
             qPrintable(QStringLiteral("legend at x %1, mesh to x %2").arg(legend->left()).arg(mesh().right())));
    const double band = view.transform().sideBandPx;
    QVERIFY(band >= legend->width() + 24);
    QVERIFY(qAbs(mesh().center().x() - (800 - band) / 2) < 1e-6); // centred in the room left of the band
    QVERIFY(view.transform().isFitted());

    view.setLegendVisible(false); // no legend, no band: centred in the whole view
    QCOMPARE(view.transform().sideBandPx, 0.0);
    QVERIFY(qAbs(mesh().center().x() - 400) < 1e-6);

    MeshView narrow; // no room beside the mesh: centred as before, the legend where headsUp puts it
    narrow.resize(300, 400);
    narrow.setSnapshot(testing::makeSyntheticSnapshot(48, 64, 1));
    const ViewTransform& t = narrow.transform();
    QVERIFY(t.sideBandPx > 0);
    QVERIFY(qAbs(t.widgetRect(QRectF(QPointF(0, 0), t.meshCores)).center().x() - 150) < 1e-6);
}

// Turn to fit (the presentation): a portrait mesh in a landscape view is drawn a quarter turn clockwise, larger,
// and still paints, clicks and hovers in cores; a portrait view or turning off draws it upright again.
void TestMeshView::turnsToFitALandscapeView()
{
    const auto snapshot = testing::makeSyntheticSnapshot(48, 64, 1, 12);
    MeshView view;
    view.setLegendVisible(false);
    view.resize(800, 400);
    view.setSnapshot(snapshot);
    QVERIFY(!view.transform().turned);
    QCOMPARE(view.transform().scale, view.transform().fitScale());
    const double upright = view.transform().scale;
    view.setTurnToFit(true);
    QVERIFY(view.transform().turned);
    QVERIFY(view.transform().isFitted());
    QVERIFY2(view.transform().scale > 1.3 * upright, qPrintable(QString::number(view.transform().scale)));
    // Corners of the mesh clear of the region labels (top left of each turned band) and the heads-up line.
    for (const QPoint core : {QPoint(0, 0), QPoint(47, 0), QPoint(5, 60), QPoint(30, 20)}) {
        const size_t i = size_t(core.y()) * 48 + size_t(core.x());
        QCOMPARE(QColor(renderedColour(view, core)).name(),
                 QColor(ColorScale::sramOccupancy().map(snapshot->sramFraction[0][i])).name());
        QSignalSpy clicked(&view, &MeshView::coreClicked);
        QTest::mouseClick(&view, Qt::LeftButton, {}, view.coreCentre(core).toPoint());
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(QPoint(clicked.at(0).at(1).toInt(), clicked.at(0).at(2).toInt()), core);
    }
    // Core (0, 0) is at the top right of the turned mesh.
    const QPointF topLeftCore = view.coreCentre(QPoint(0, 0));
    QVERIFY(topLeftCore.x() > view.coreCentre(QPoint(0, 63)).x());
    QVERIFY(topLeftCore.y() < view.coreCentre(QPoint(47, 0)).y());
    // Zoomed in, the turned view keeps its state through a round trip.
    view.setViewState(3, QPointF(20.5, 40.5));
    QVERIFY(QLineF(view.centreCore(), QPointF(20.5, 40.5)).length() < 1e-6);
    QCOMPARE(view.zoomFactor(), 3.0);
    view.show(); // resized while shown, it is told at once
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.resize(400, 800); // a portrait view: upright again, fitted afresh
    QTRY_VERIFY(!view.transform().turned);
    QVERIFY(view.transform().isFitted());
    view.resize(800, 400);
    QTRY_VERIFY(view.transform().turned);
    view.setTurnToFit(false);
    QVERIFY(!view.transform().turned);
    QCOMPARE(view.transform().scale, upright);
}

// The layout editor on a turned mesh (Wafer mode): the region's side under the pointer on screen is the edge that
// moves, and it follows the pointer. Turned a quarter clockwise, a region's left side on screen is its bottom edge
// and its top side its left edge.
void TestMeshView::editorMovesTheEdgeDraggedOnATurnedMesh()
{
    const auto snapshot = testing::makeSyntheticSnapshot(48, 64, 1, 12); // bands of 12 rows, all 48 columns wide
    MeshView view;
    view.setLegendVisible(false);
    view.resize(800, 400);
    view.setSnapshot(snapshot);
    view.setTurnToFit(true);
    QVERIFY(view.transform().turned);
    MeshEditor editor(&view);
    editor.setEnabled(true);
    QSignalSpy resized(&editor, &MeshEditor::resizeRequested);
    const double px = view.transform().scale;
    const QRectF box = view.transform().widgetRect(QRectF(0, 24, 48, 12)); // layer 2's band: upright on screen
    QVERIFY(box.height() > box.width());

    // Its left side dragged 3 cores further left: the bottom edge 3 rows down.
    const QPointF left(box.left() + 1, box.center().y());
    QTest::mousePress(&view, Qt::LeftButton, {}, left.toPoint());
    QTest::mouseRelease(&view, Qt::LeftButton, {}, (left - QPointF(3 * px, 0)).toPoint());
    QCOMPARE(resized.count(), 1);
    QCOMPARE(resized.at(0).at(0).toInt(), 2);
    QCOMPARE(resized.at(0).at(1).toInt(), int(MeshEditor::Bottom));
    QCOMPARE(resized.at(0).at(2).toInt(), 3);

    // Its top side dragged 2 cores down: the left edge 2 columns in.
    const QPointF top(box.center().x(), box.top() + 1);
    QTest::mousePress(&view, Qt::LeftButton, {}, top.toPoint());
    QTest::mouseRelease(&view, Qt::LeftButton, {}, (top + QPointF(0, 2 * px)).toPoint());
    QCOMPARE(resized.count(), 2);
    QCOMPARE(resized.at(1).at(0).toInt(), 2);
    QCOMPARE(resized.at(1).at(1).toInt(), int(MeshEditor::Left));
    QCOMPARE(resized.at(1).at(2).toInt(), 2);
}

// A turned mesh is fitted beside the legend's band (ViewTransform::fitScale); each layer's legend has its own width,
// so a layer change fits it again beside the new band, and nothing of the mesh lies under the legend.
void TestMeshView::turnedMeshStaysBesideEachLayersLegend()
{
    const auto snapshot = testing::makeSyntheticSnapshot(48, 64, 1, 12);
    MeshView view;
    view.resize(600, 400); // shown 64 x 48 cores: the width binds beside any legend band over 67 px
    view.setSnapshot(snapshot);
    view.setTurnToFit(true);
    QVERIFY(view.transform().turned);
    std::set<double> bands;
    for (MeshLayer layer : {MeshLayer::SramOccupancy, MeshLayer::WeightPlacement, MeshLayer::KvCache,
                            MeshLayer::Dataflow, MeshLayer::SramOccupancy}) {
        view.setLayer(layer);
        const ViewTransform& t = view.transform();
        QVERIFY(t.turned);
        QVERIFY2(t.isFitted(), meshLayerId(layer));
        const double band = t.narrowBandPx > 0 ? t.narrowBandPx : t.sideBandPx;
        QVERIFY(band > 0);
        bands.insert(band);
        const QRectF mesh = t.widgetRect(QRectF(QPointF(0, 0), t.meshCores));
        QVERIFY2(mesh.right() <= view.width() - band + 1e-6, meshLayerId(layer));
        const auto legend = view.headsUp().legendRect;
        QVERIFY(legend);
        QVERIFY2(!legend->intersects(mesh), meshLayerId(layer));
    }
    QVERIFY(bands.size() > 1); // the layers' legends differ in width, so the fit did change
}

// Leaving Present mode takes the view from a pixel per core or more (a raster, no reduced copy) to below it. The
// paint that follows does not wait for the area-averaged copy: the image that was on show stands in, drawn by its
// nearest pixels, and the copy is made once the events pending are done, then painted. The picture then is the
// one a view that never showed the image draws at once.
void TestMeshView::shownImageStandsInUntilItsReducedCopy()
{
    const auto snapshot = testing::makeSyntheticSnapshot(480, 640, 1, 64);
    MeshView view;
    view.setLegendVisible(false);
    view.resize(1000, 700);
    view.setSnapshot(snapshot);
    (void)view.grab();
    QVERIFY(view.transform().scale >= 1); // min(1000 / 480, 700 / 640): the raster, no reduced copy
    view.resize(600, 500);
    const QImage standIn = view.grab().toImage();
    QVERIFY(view.transform().scale < 1);
    QCoreApplication::processEvents(); // the zero timer: the reduced copy made
    const QImage reduced = view.grab().toImage();

    MeshView fresh; // the same image never shown: its reduced copy is made at its first paint
    fresh.setLegendVisible(false);
    fresh.resize(600, 500);
    fresh.setSnapshot(snapshot);
    QCOMPARE(reduced, fresh.grab().toImage());
    QVERIFY(standIn != reduced); // nearest pixels, not area averages
    QCOMPARE(standIn.size(), reduced.size());
}

void TestMeshView::everyPixelIsPaintedBelowAPixelPerCore()
{
    // The view is opaque (it paints every pixel itself) and fills only the background around the mesh's picture.
    // Rendered over a colour the view never uses, none of it may show: upright and turned, the reduced copy, the
    // copy stretched for another scale and the shown image standing in (after a resize), zoomed in and panned.
    const auto snapshot = testing::makeSyntheticSnapshot(480, 640, 1, 64);
    const QColor sentinel(255, 0, 255);
    int checked = 0;
    for (const bool turned : {false, true}) {
        MeshView view;
        view.setTurnToFit(turned);
        view.resize(1000, 700);
        view.setSnapshot(snapshot);
        const auto check = [&](const char* what) {
            QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
            image.fill(sentinel);
            view.render(&image, QPoint(), QRegion(), QWidget::RenderFlags());
            for (int y = 0; y < image.height(); ++y) {
                const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
                for (int x = 0; x < image.width(); ++x)
                    if (line[x] == sentinel.rgb())
                        QFAIL(qPrintable(QStringLiteral("%1, %2: pixel %3, %4 not painted (scale %5)")
                                             .arg(turned ? "turned" : "upright", what)
                                             .arg(x)
                                             .arg(y)
                                             .arg(view.transform().scale)));
            }
            ++checked;
        };
        check("a pixel per core or more");
        for (const QSize size : {QSize(600, 500), QSize(601, 433), QSize(317, 509)}) {
            view.resize(size);
            check("the shown image standing in, or a copy stretched"); // the resize is sent as it renders
            QVERIFY(view.transform().scale < 1);
            QCoreApplication::processEvents(); // the reduced copy for this scale
            check("the reduced copy");
        }
        view.setViewState(1.2, QPointF(60.5, 80.25)); // the mesh partly out of the view, its corner in it
        QCoreApplication::processEvents();
        check("zoomed and panned");
        QVERIFY(view.transform().scale < 1);
    }
    QCOMPARE(checked, 16);
}

void TestMeshView::badSnapshots()
{
    MeshView view;
    view.resize(320, 240);
    auto s = testing::makeSyntheticSnapshot(16, 8, 1);
    s->sramFraction[0].resize(3);
    s->owner.clear();
    view.setSnapshot(s);
    view.setLayer(MeshLayer::WeightPlacement);
    (void)view.grab();
    view.setDevice(5); // out of range: ignored
    QCOMPARE(view.device(), 0);
    QVERIFY(!view.toolTipForCore(QPoint(3, 3)).isEmpty());
    QVERIFY(view.toolTipForCore(QPoint(99, 3)).isEmpty());
    view.setSnapshot(nullptr);
    (void)view.grab();
    auto empty = std::make_shared<MeshSnapshot>();
    view.setSnapshot(empty);
    (void)view.grab();
    QSignalSpy clicked(&view, &MeshView::coreClicked);
    QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(160, 120));
    QCOMPARE(clicked.count(), 0);
}

void TestMeshView::framesShareTheBase()
{
    // Frames of one base (the Dataflow dock, the chat's wafer): the view keeps its zoom and selection, shows the
    // frame's activity on the Dataflow layer, and snapshot() is the shared base.
    const std::shared_ptr<const MeshSnapshot> base = testing::makeSyntheticSnapshot(64, 48, 1);
    MeshView view;
    view.setLegendVisible(false);
    view.resize(640, 480);
    view.setSnapshot(base);
    view.setLayer(MeshLayer::Dataflow);
    view.zoomIn();
    view.setSelectedCore(QPoint(3, 4));
    const double scale = view.transform().scale;
    auto frame = std::make_shared<MeshFrame>(MeshFrame{base, {}, {}});
    frame->activity.assign(1, std::vector<float>(64 * 48, 0.0f));
    frame->activity[0][size_t(24) * 64 + 32] = 1.0f; // computing
    view.setFrame(frame);
    QCOMPARE(view.frame(), std::shared_ptr<const MeshFrame>(frame));
    QCOMPARE(view.snapshot(), base);
    QCOMPARE(view.transform().scale, scale);
    QCOMPARE(view.selectedCore(), std::optional<QPoint>(QPoint(3, 4)));
    const QImage image = view.grab().toImage();
    const QPoint centre = view.coreCentre(QPoint(32, 24)).toPoint();
    QCOMPARE(image.pixel(centre), ColorScale::activity().map(1.0f));
    QVERIFY(image.pixel(view.coreCentre(QPoint(33, 24)).toPoint()) != ColorScale::activity().map(1.0f));
}

void TestMeshView::headsUpKeepsClearOfTheLegend_data()
{
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("full");
    QTest::newRow("main view at 1366 x 768") << QSize(900, 640) << true;
    QTest::newRow("Compare mode's thumbnail") << QSize(290, 420) << false;
    QTest::newRow("narrower than the legend") << QSize(200, 420) << false;
}

// Seen in Compare mode: the thumbnail's heads-up line ran under the legend and off the view ("0.344 px pe").
void TestMeshView::headsUpKeepsClearOfTheLegend()
{
    QFETCH(QSize, size);
    QFETCH(bool, full);
    MeshView view;
    view.resize(size);
    view.setSnapshot(testing::makeSyntheticSnapshot(64, 48, 2));
    view.setLayer(MeshLayer::SramOccupancy);
    const MeshView::HeadsUp heads = view.headsUp();
    QVERIFY(!heads.text.isEmpty());
    QVERIFY2(QRectF(view.rect()).contains(heads.textRect), qPrintable(heads.text));
    if (heads.legendRect)
        QVERIFY2(!heads.legendRect->intersects(heads.textRect), qPrintable(heads.text));
    QCOMPARE(heads.text.contains(QStringLiteral("cores")), full);
    QVERIFY(heads.text.startsWith(QStringLiteral("Wafer 1 of 2")));
    (void)view.grab();
}

// Seen in Present mode at 1366 x 768: the turned wafer left about 110 px each side, too little for the legend at
// its full width, so it covered layers L4 and L5. The mesh now moves left to leave the room the legend needs
// wrapped (narrowBandPx), and the legend wraps into that margin, clear of the cores.
void TestMeshView::legendWrapsIntoTheMarginBesideTheMesh()
{
    MeshView view;
    view.resize(800, 400);
    view.setSnapshot(testing::makeSyntheticSnapshot(54, 40, 1)); // about 9.5 px per core: 260 px to spare
    view.setLayer(MeshLayer::Dataflow);
    const ViewTransform& t = view.transform();
    const QRectF mesh = t.widgetRect(QRectF(QPointF(0, 0), t.meshCores));
    QVERIFY(t.narrowBandPx > 0 && t.narrowBandPx < t.sideBandPx);
    QVERIFY(800 - mesh.width() < t.sideBandPx); // too little room for the full legend beside it
    QVERIFY2(qAbs(mesh.center().x() - (800 - t.narrowBandPx) / 2) < 1e-6, qPrintable(QString::number(mesh.left())));
    const double margin = 800 - mesh.right();
    const MeshLegend legend(view.snapshot().get(), MeshLayer::Dataflow);
    const QSizeF full = legend.sizeHint(view.font());
    QVERIFY(full.width() + 24 > margin); // at its full width it would cover the mesh
    const auto box = view.headsUp().legendRect;
    QVERIFY(box);
    QVERIFY2(!box->intersects(mesh),
             qPrintable(
                 QStringLiteral("legend x %1..%2, mesh to x %3").arg(box->left()).arg(box->right()).arg(mesh.right())));
    QVERIFY(box->width() < full.width());
    QVERIFY(box->height() > full.height()); // the caption wrapped onto more lines
    QVERIFY(box->bottom() <= 400);

    // Drawn there: hiding the legend (which centres the mesh again) changes the pixels in its box, and none on
    // the mesh's right half, where the full-width legend would have been.
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const QImage shown = view.grab().toImage();
    view.setLegendVisible(false);
    const int dx = qRound(t.widgetRect(QRectF(QPointF(0, 0), t.meshCores)).left() - mesh.left());
    QVERIFY(dx > 0);
    const QImage hidden = view.grab().toImage();
    const qreal dpr = shown.devicePixelRatio();
    int inBox = 0, onMesh = 0;
    for (int y = 0; y < 400; ++y)
        for (int x = 0; x < 800; ++x) {
            const QPointF at(x + 0.5, y + 0.5);
            if (box->contains(at))
                inBox += shown.pixel(QPoint(x, y) * dpr) != hidden.pixel(QPoint(x, y) * dpr);
            else if (mesh.contains(at) && at.x() > mesh.center().x())
                onMesh += shown.pixel(QPoint(x, y) * dpr) != hidden.pixel(QPoint(x + dx, y) * dpr);
        }
    QVERIFY2(inBox > 500 && onMesh == 0,
             qPrintable(QStringLiteral("%1 in the box, %2 on the mesh").arg(inBox).arg(onMesh)));

    // A word wider than the room: no wrapped size, the full one.
    QCOMPARE(legend.sizeHint(view.font(), 20), full);
}

// Seen in Chat mode at 1366 x 768: the Dataflow legend covered layers L30 and L31. With the pointer over it, it fades
// and the cores under it show through; away from it, and after the pointer leaves the view, it is back.
void TestMeshView::legendFadesNearThePointer()
{
    const auto snapshot = testing::makeSyntheticSnapshot(64, 48, 2, 12);
    MeshView view;
    view.resize(640, 480);
    view.setSnapshot(snapshot);
    view.setLayer(MeshLayer::SramOccupancy);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const auto legend = view.headsUp().legendRect;
    QVERIFY(legend);
    const QPoint inside = legend->center().toPoint();
    const QImage before = view.grab().toImage();
    QTest::mouseMove(&view, inside);
    QTRY_VERIFY(view.legendFaded());
    const QImage faded = view.grab().toImage();
    const qreal dpr = faded.devicePixelRatio();
    QVERIFY(before.pixel((inside * dpr)) != faded.pixel((inside * dpr)));
    QTest::mouseMove(&view, QPoint(5, 5));
    QTRY_VERIFY(!view.legendFaded());
    QCOMPARE(view.grab().toImage().pixel(inside * dpr), before.pixel(inside * dpr));
}

// At a pixel per core or more a prepared frame carries the visible cores drawn at the view's zoom (made off the GUI
// thread, prepareMeshFrame): the view paints exactly what it would draw itself, and draws afresh once the zoom
// moves on.
void TestMeshView::preparedRasterIsPaintedAtItsZoom()
{
    auto a = testing::makeSyntheticSnapshot(64, 48, 1);
    auto b = std::make_shared<MeshSnapshot>(*a); // the same cores as another base, so the view adopts its image
    MeshView view;
    view.setLegendVisible(false);
    view.resize(640, 480);
    view.setSnapshot(a);
    QVERIFY(view.transform().scale >= 1);
    const QImage own = view.grab().toImage();
    PreparedMeshFrame prepared =
        prepareMeshFrame(std::make_shared<const MeshFrame>(MeshFrame{b, {}, {}}), 0, view.layer(), view.transform());
    QVERIFY(!prepared.raster.isNull());
    QVERIFY(sameRaster(prepared.rasterTransform, view.transform()));
    view.setPreparedFrame(prepared);
    QCOMPARE(view.grab().toImage(), own);

    // A marked raster shows that it is the one painted, and a new zoom that the view draws the cores again.
    const QRgb mark = qRgb(255, 0, 255);
    prepared.raster.fill(mark);
    prepared.frame = std::make_shared<const MeshFrame>(MeshFrame{a, {}, {}});
    view.setPreparedFrame(prepared);
    const QPoint centre = view.transform().coreToWidget(QPointF(32.5, 24.5)).toPoint();
    QCOMPARE(view.grab().toImage().pixel(centre), mark);
    view.zoomIn();
    QVERIFY(view.grab().toImage().pixel(centre) != mark);
    // Below a pixel per core there is none: the view draws the reduced copy.
    ViewTransform far = view.transform();
    far.scale = 0.5;
    const PreparedMeshFrame reduced = prepareMeshFrame(prepared.frame, 0, view.layer(), far);
    QVERIFY(reduced.raster.isNull());
    QCOMPARE(reduced.reducedScale, 0.5);
}

// With deferred images a layer change keeps the picture shown and asks for the new image once; only the image for
// the view's frame, device and layer is taken; an export's finishImage makes it at once; a new mesh is blank until
// its image comes.
void TestMeshView::deferredImageKeepsThePictureUntilItIsOffered()
{
    const auto snapshot = testing::makeSyntheticSnapshot(64, 48, 2, 12);
    const QPoint core(30, 20);
    const size_t i = static_cast<size_t>(core.y()) * 64 + core.x();
    const QRgb sram = ColorScale::sramOccupancy().map(snapshot->sramFraction[0][i]);
    const QRgb kv = ColorScale::kvCache().map(snapshot->kvFraction[0][i]);
    const QRgb sramDevice1 = ColorScale::sramOccupancy().map(snapshot->sramFraction[1][i]);
    QVERIFY(QColor(sram).name() != QColor(kv).name() && QColor(kv).name() != QColor(sramDevice1).name());

    MeshView view;
    view.setLegendVisible(false);
    view.resize(640, 480);
    view.setDeferredImages(true);
    QSignalSpy wanted(&view, &MeshView::imageWanted);
    view.setSnapshot(snapshot); // nothing of this mesh to show before: blank until its image comes
    QVERIFY(view.imagePending());
    QCOMPARE(QColor(renderedColour(view, core)).name(), QColor(meshBackground()).name());
    QTRY_COMPARE(wanted.count(), 1);
    QVERIFY(view.offerImage(prepareMeshFrame(view.frame(), 0, MeshLayer::SramOccupancy, view.transform())));
    QCOMPARE(QColor(renderedColour(view, core)).name(), QColor(sram).name());
    QVERIFY(!view.imagePending());
    wanted.clear();

    view.setLayer(MeshLayer::KvCache);
    QVERIFY(view.imagePending());
    QCOMPARE(QColor(renderedColour(view, core)).name(), QColor(sram).name()); // the picture before, meanwhile
    (void)view.grab();
    QTRY_COMPARE(wanted.count(), 1); // once, however often it is painted meanwhile
    QCoreApplication::processEvents();
    QCOMPARE(wanted.count(), 1);

    // Made for another layer, or for the wafer before: refused, and the view still waits.
    QVERIFY(!view.offerImage(prepareMeshFrame(view.frame(), 0, MeshLayer::SramOccupancy, view.transform())));
    QVERIFY(!view.offerImage(prepareMeshFrame(view.frame(), 1, MeshLayer::KvCache, view.transform())));
    QVERIFY(!view.offerImage(PreparedMeshFrame{}));
    QVERIFY(view.imagePending());
    QVERIFY(view.offerImage(prepareMeshFrame(view.frame(), 0, MeshLayer::KvCache, view.transform())));
    QVERIFY(!view.imagePending());
    QCOMPARE(QColor(renderedColour(view, core)).name(), QColor(kv).name());
    QVERIFY(!view.offerImage(prepareMeshFrame(view.frame(), 0, MeshLayer::KvCache, view.transform()))); // not waiting

    // An export makes the pending image on the spot.
    view.setLayer(MeshLayer::SramOccupancy);
    view.setDevice(1);
    QVERIFY(view.imagePending());
    view.finishImage();
    QVERIFY(!view.imagePending());
    QCOMPARE(QColor(renderedColour(view, core)).name(), QColor(sramDevice1).name());

    // Another mesh: its cores are not the picture before, so the view is blank until the image comes.
    const auto small = testing::makeSyntheticSnapshot(32, 24, 1, 12);
    view.setSnapshot(small);
    QVERIFY(view.imagePending());
    QCOMPARE(QColor(renderedColour(view, QPoint(10, 10))).name(), QColor(meshBackground()).name());
    QVERIFY(view.offerImage(prepareMeshFrame(view.frame(), 0, view.layer(), view.transform())));
    QCOMPARE(QColor(renderedColour(view, QPoint(10, 10))).name(),
             QColor(ColorScale::sramOccupancy().map(small->sramFraction[0][10 * 32 + 10])).name());
    // Nor is a view without deferred images made to wait.
    view.setDeferredImages(false);
    view.setLayer(MeshLayer::KvCache);
    QVERIFY(!view.imagePending());
}

// At a pixel per core or more the die lines are in the raster, prepared or made in the paint, at the pixels the
// overlay names; the view with them differs from the view of the same cores without dies there alone.
void TestMeshView::dieLinesComeWithTheRaster()
{
    const auto withDies = testing::makeSyntheticSnapshot(64, 48, 1, 12, 4, 3);
    const auto without = testing::makeSyntheticSnapshot(64, 48, 1, 12);
    const auto grabOf = [](std::shared_ptr<const MeshSnapshot> snapshot, bool prepared) {
        MeshView view;
        view.setLegendVisible(false);
        view.resize(640, 480);
        view.setSnapshot(snapshot);
        if (prepared)
            view.setPreparedFrame(prepareMeshFrame(view.frame(), 0, view.layer(), view.transform()));
        return std::pair(view.grab().toImage(), view.transform());
    };
    const auto [plain, transform] = grabOf(without, false);
    QVERIFY(transform.scale >= 1);
    const MeshFrame frame{withDies, {}, {}};
    const RasterDies lines = MeshOverlay{frame, transform, 0, MeshLayer::SramOccupancy}.dieLines();
    QCOMPARE(lines.columns.size(), size_t(3));
    QCOMPARE(lines.rows.size(), size_t(2));
    for (const bool prepared : {false, true}) {
        const QImage lined = grabOf(withDies, prepared).first;
        const int x = lines.columns[1];
        const int y = int(std::ceil(transform.widgetRect(QRectF(0, 0, 64, 48)).top())); // the mesh's first row
        QVERIFY(QColor(lined.pixel(x, y)).lightness() > QColor(plain.pixel(x, y)).lightness());
        int differing = 0;
        for (int py = 0; py < plain.height(); ++py)
            for (int px = 0; px < plain.width(); ++px)
                if (lined.pixel(px, py) != plain.pixel(px, py)) {
                    ++differing;
                    QVERIFY2(std::find(lines.columns.begin(), lines.columns.end(), px) != lines.columns.end() ||
                                 std::find(lines.rows.begin(), lines.rows.end(), py) != lines.rows.end(),
                             qPrintable(QStringLiteral("pixel %1, %2").arg(px).arg(py)));
                }
        QVERIFY(differing > 100);
    }
}

QTEST_MAIN(TestMeshView)
#include "tst_meshview.moc"
