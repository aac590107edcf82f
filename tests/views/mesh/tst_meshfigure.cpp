// MeshFigure and its layout: the figure holds every wafer (or the chosen one), the legend, title, source line and
// captions never overlap a wafer, the PNG shows each wafer's cores in their own colours at the requested DPI, and
// the SVG draws cores as vector rectangles (an image of one pixel per core only where a core is smaller than a
// device pixel). mergeCoreRects covers every core exactly once with its own colour.
#include "tests/common/svgcount.h"
#include "tests/views/syntheticsnapshot.h"
#include "views/mesh/colorscale.h"
#include "views/mesh/meshfigure.h"
#include "views/mesh/meshrects.h"

#include <QPainter>
#include <QRandomGenerator>
#include <QSvgRenderer>
#include <QTest>

#include <cmath>

using namespace ws;
using namespace ws::views;

namespace {

constexpr int kBandRows = 32;
const char* const kKinds[] = {"attn_q", "ffn_up", "ffn_down", "kv"};

// What the synthetic snapshot holds on core (x, y) of `device` on the placement layer (syntheticsnapshot.h).
QRgb placementColor(int device, int x, int y, int cols, int rows)
{
    const int bands = (rows + kBandRows - 1) / kBandRows;
    return PlacementPalette::color(MeshOwner{device * bands + y / kBandRows, kKinds[x * 4 / cols], false});
}

std::shared_ptr<const MeshFrame> frameOf(int cols, int rows, int devices)
{
    return std::make_shared<const MeshFrame>(
        MeshFrame{testing::makeSyntheticSnapshot(cols, rows, devices, kBandRows), {}, {}});
}

MeshFigureOptions options(QSizeF mm, double dpi, int device, MeshLayer layer)
{
    MeshFigureOptions o;
    o.sizeMm = mm;
    o.dpi = dpi;
    o.device = device;
    o.layer = layer;
    o.title = QStringLiteral("Qwen3-32B (BF16) on 2 × Cerebras WSE-3 (CS-3): weight placement");
    o.source = QStringLiteral("WaferScope test · placed by its engine · 762 × 1,176 cores per wafer");
    return o;
}

} // namespace

class TestMeshFigure : public QObject
{
    Q_OBJECT

private slots:
    void layoutKeepsEverythingApart_data()
    {
        QTest::addColumn<QSizeF>("mm");
        QTest::addColumn<QSize>("mesh");
        QTest::addColumn<int>("devices");
        QTest::addColumn<int>("device");
        QTest::addColumn<int>("drawn");
        QTest::addColumn<int>("layer");
        QTest::newRow("slide, two WSE-3 wafers")
            << QSizeF(338.7, 190.5) << QSize(762, 1176) << 2 << -1 << 2 << int(MeshLayer::WeightPlacement);
        QTest::newRow("slide, wafer 2 alone")
            << QSizeF(338.7, 190.5) << QSize(762, 1176) << 2 << 1 << 1 << int(MeshLayer::SramOccupancy);
        QTest::newRow("paper column, two wafers")
            << QSizeF(88, 80) << QSize(762, 1176) << 2 << -1 << 2 << int(MeshLayer::Defects);
        QTest::newRow("portrait page, four wafers")
            << QSizeF(120, 200) << QSize(762, 1176) << 4 << -1 << 4 << int(MeshLayer::KvCache);
        QTest::newRow("wide mesh, three wafers")
            << QSizeF(254, 190.5) << QSize(400, 100) << 3 << -1 << 3 << int(MeshLayer::WeightPlacement);
    }
    void layoutKeepsEverythingApart()
    {
        QFETCH(QSizeF, mm);
        QFETCH(QSize, mesh);
        QFETCH(int, devices);
        QFETCH(int, device);
        QFETCH(int, drawn);
        QFETCH(int, layer);
        const MeshFigure figure(frameOf(mesh.width(), mesh.height(), devices),
                                options(mm, 300, device, MeshLayer(layer)));
        const MeshFigureLayout& l = figure.layout();
        const QRectF page(QPointF(0, 0), l.page);
        QCOMPARE(int(l.devices.size()), drawn);
        QCOMPARE(int(l.wafers.size()), drawn);
        if (device >= 0)
            QCOMPARE(l.devices.front(), device);
        QVERIFY(l.unitsPerCore > 0);
        QVERIFY(!l.legend.isEmpty());
        QVERIFY2(page.contains(l.legend), qPrintable(QStringLiteral("legend %1,%2 %3x%4")
                                                         .arg(l.legend.x())
                                                         .arg(l.legend.y())
                                                         .arg(l.legend.width())
                                                         .arg(l.legend.height())));
        for (size_t i = 0; i < l.wafers.size(); ++i) {
            const QRectF& w = l.wafers[i];
            QVERIFY(page.contains(w));
            QCOMPARE(w.width(), mesh.width() * l.unitsPerCore);
            QCOMPARE(w.height(), mesh.height() * l.unitsPerCore);
            QVERIFY2(!w.intersects(l.legend), qPrintable(QStringLiteral("wafer %1 under the legend").arg(i)));
            QVERIFY(!w.intersects(l.title));
            QVERIFY(!w.intersects(l.source));
            QVERIFY(!l.captions[i].intersects(l.legend));
            for (size_t j = 0; j < l.wafers.size(); ++j)
                if (j != i)
                    QVERIFY(!w.intersects(l.wafers[j]) && !w.intersects(l.captions[j]));
        }
        QVERIFY(!l.legend.intersects(l.title) && !l.legend.intersects(l.source));
    }

    // The PNG of a two-wafer placement at 300 DPI: the page's pixels, and each wafer's cores where the layout puts
    // them, in the colours the snapshot gives those cores.
    void imageShowsEveryWafer()
    {
        const int cols = 762;
        const int rows = 1176;
        const MeshFigure figure(frameOf(cols, rows, 2),
                                options(QSizeF(338.7, 190.5), 300, -1, MeshLayer::WeightPlacement));
        const QImage image = figure.toImage();
        QCOMPARE(image.size(), QSize(4000, 2250));
        QCOMPARE(image.dotsPerMeterX(), 11811); // 300 per inch
        const double perUnit = 300.0 / 96.0;
        QVERIFY(figure.pixelsPerCore() >= 1);
        for (int i = 0; i < 2; ++i) {
            const QRectF w = figure.layout().wafers[size_t(i)];
            QCOMPARE(figure.layout().devices[size_t(i)], i);
            int checked = 0;
            // Cores in the middle of a band, right of where region labels go.
            for (int y = kBandRows / 2; y < rows; y += 5 * kBandRows)
                for (int x : {cols * 5 / 8 + 3, cols - 40}) {
                    const QPointF centre =
                        (w.topLeft() + QPointF(x + 0.5, y + 0.5) * figure.layout().unitsPerCore) * perUnit;
                    const QRgb got = image.pixel(centre.toPoint());
                    QCOMPARE(QColor(got), QColor(placementColor(i, x, y, cols, rows)));
                    ++checked;
                }
            QVERIFY(checked > 10);
        }
        // The legend is drawn where the layout puts it: not the page's background colour at its centre.
        const QPoint legendCentre = (figure.layout().legend.center() * perUnit).toPoint();
        QVERIFY(image.pixel(legendCentre) != image.pixel(2, 2));
    }

    // The SVG of the same figure at the default 300 DPI: cores as rectangles, no image at all.
    void svgDrawsCoresAsRectangles()
    {
        const int cols = 762;
        const int rows = 1176;
        const MeshFigure figure(frameOf(cols, rows, 2),
                                options(QSizeF(338.7, 190.5), 300, -1, MeshLayer::WeightPlacement));
        MeshFigureSvgStats stats;
        const QByteArray svg = figure.toSvg(&stats);
        QCOMPARE(stats.vectorWafers, 2);
        QCOMPARE(stats.rasterWafers, 0);
        QVERIFY(stats.largestImage.isEmpty());
        const wstest::SvgCount counted = wstest::countSvg(svg);
        QCOMPARE(counted.images, 0);
        QCOMPARE(counted.coreRects, stats.rects);
        // 37 bands of 4 owners each per wafer: 148 rectangles per wafer, not 896,112 cores.
        QCOMPARE(stats.rects, qint64(2 * 37 * 4));
        QSvgRenderer renderer(svg);
        QVERIFY(renderer.isValid());
        // The view box is the page (written to 6 significant digits).
        QVERIFY(std::abs(renderer.viewBoxF().width() - figure.layout().page.width()) < 0.01);
        QVERIFY(std::abs(renderer.viewBoxF().height() - figure.layout().page.height()) < 0.01);
        // The page's physical size: width="338.6…mm".
        QVERIFY(svg.contains("width=\"338."));
        // A core drawn by Qt's SVG renderer at twice the page size has the snapshot's colour.
        QImage back(figure.layout().page.toSize() * 2, QImage::Format_RGB32);
        back.fill(Qt::black);
        QPainter p(&back);
        renderer.render(&p);
        p.end();
        const QRectF w = figure.layout().wafers[1];
        const QPointF core(cols * 5 / 8, kBandRows * 10 + kBandRows / 2); // inside a tile, away from its edges
        const QPoint at = ((w.topLeft() + (core + QPointF(0.5, 0.5)) * figure.layout().unitsPerCore) * 2).toPoint();
        QCOMPARE(QColor(back.pixel(at)), QColor(placementColor(1, int(core.x()), int(core.y()), cols, rows)));
    }

    // Below a device pixel per core, each wafer is one image at full resolution: one pixel per core.
    void svgImageWhenCoresAreSmallerThanAPixel()
    {
        const MeshFigure figure(frameOf(762, 1176, 2), options(QSizeF(88, 80), 72, -1, MeshLayer::SramOccupancy));
        QVERIFY(figure.pixelsPerCore() < 1);
        MeshFigureSvgStats stats;
        const QByteArray svg = figure.toSvg(&stats);
        QCOMPARE(stats.rasterWafers, 2);
        QCOMPARE(stats.largestImage, QSize(762, 1176));
        QCOMPARE(wstest::countSvg(svg).images, 2);
    }

    void mergedRectsCoverEveryCoreOnce()
    {
        // Blocks of a few colours with noise: runs that repeat and runs that do not.
        QImage image(97, 61, QImage::Format_RGB32);
        QRandomGenerator rng(7);
        const QRgb palette[] = {qRgb(10, 20, 30), qRgb(200, 10, 10), qRgb(10, 200, 10), qRgb(240, 240, 0)};
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                image.setPixel(x, y, rng.bounded(10) == 0 ? palette[rng.bounded(4)] : palette[(x / 13 + y / 9) % 4]);
        const std::vector<ColorRect> rects = mergeCoreRects(image);
        QImage covered(image.size(), QImage::Format_RGB32);
        covered.fill(0);
        std::vector<int> count(size_t(image.width() * image.height()), 0);
        for (size_t i = 0; i < rects.size(); ++i) {
            if (i > 0) // grouped: a colour never comes back after another
                for (size_t j = 0; j + 1 < i; ++j)
                    if (rects[j].color == rects[i].color)
                        QCOMPARE(rects[i - 1].color, rects[i].color);
            const QRect r = rects[i].cores;
            for (int y = r.top(); y <= r.bottom(); ++y)
                for (int x = r.left(); x <= r.right(); ++x) {
                    ++count[size_t(y * image.width() + x)];
                    covered.setPixel(x, y, rects[i].color);
                }
        }
        for (int c : count)
            QCOMPARE(c, 1);
        QCOMPARE(covered, image);
        QVERIFY(rects.size() < size_t(image.width() * image.height()) / 4);
    }
};

QTEST_MAIN(TestMeshFigure)
#include "tst_meshfigure.moc"
