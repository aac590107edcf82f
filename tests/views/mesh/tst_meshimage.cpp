// buildMeshImage: one pixel per core, coloured by the layer's scale; bad input
// gives "no data" pixels, never a crash.
#include "views/mesh/meshimage.h"

#include "tests/views/syntheticsnapshot.h"
#include "views/mesh/colorscale.h"
#include "views/mesh/meshraster.h"
#include "views/mesh/viewtransform.h"

#include <QtTest>

#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <random>
#include <utility>

using namespace ws;
using namespace ws::views;

class TestMeshImage : public QObject
{
    Q_OBJECT

private slots:
    void pixelsFollowTheCores_data();
    void pixelsFollowTheCores();
    void placementColoursByOwner();
    void frameOverlaysActivity();
    void runsOfOneValue_data();
    void runsOfOneValue();
    void kvRange_data();
    void kvRange();
    void badInput_data();
    void badInput();
    void formatBytes_data();
    void formatBytes();
    void preparedFrameReusesImagesNobodyHolds();
    void reducedCopyAveragesEveryCore_data();
    void reducedCopyAveragesEveryCore();
    void reducedCopyWrittenInPlace();
};

void TestMeshImage::pixelsFollowTheCores_data()
{
    QTest::addColumn<int>("device");
    QTest::addColumn<QPoint>("core");
    QTest::newRow("device 0 origin") << 0 << QPoint(0, 0);
    QTest::newRow("device 0 far corner") << 0 << QPoint(39, 29);
    QTest::newRow("device 0 middle") << 0 << QPoint(17, 11);
    QTest::newRow("device 1 origin") << 1 << QPoint(0, 0);
    QTest::newRow("device 1 odd core") << 1 << QPoint(3, 26);
}

void TestMeshImage::pixelsFollowTheCores()
{
    QFETCH(int, device);
    QFETCH(QPoint, core);
    const auto s = testing::makeSyntheticSnapshot(40, 30, 2);
    const QImage sram = buildMeshImage(*s, device, MeshLayer::SramOccupancy);
    QCOMPARE(sram.size(), QSize(40, 30));
    const float f = testing::syntheticSram(device, core.x(), core.y(), 40, 30);
    QCOMPARE(sram.pixel(core), ColorScale::sramOccupancy().map(f));

    const QImage kv = buildMeshImage(*s, device, MeshLayer::KvCache);
    QCOMPARE(kv.pixel(core), ColorScale::kvCache().map(core.x() / 39.0f));
}

void TestMeshImage::frameOverlaysActivity()
{
    // A frame: the shared base plus the activity of one moment, here on device 1 only.
    const std::shared_ptr<const MeshSnapshot> base = testing::makeSyntheticSnapshot(40, 30, 2);
    MeshFrame frame{base, {}, {}};
    frame.activity.resize(2);
    frame.activity[1].assign(40 * 30, 0.0f);
    frame.activity[1][size_t(5) * 40 + 7] = 1.0f;  // computing
    frame.activity[1][size_t(6) * 40 + 8] = 0.5f;  // forwarding
    frame.activity[1][size_t(7) * 40 + 9] = 0.31f; // forwarding, an earlier sample of the trail
    const QImage dataflow = buildMeshImage(frame, 1, MeshLayer::Dataflow);
    QCOMPARE(dataflow.pixel(7, 5), ColorScale::activity().map(1.0f));
    QCOMPARE(dataflow.pixel(8, 6), ColorScale::activity().map(0.5f));
    QCOMPARE(dataflow.pixel(9, 7), ColorScale::activity().map(0.31f));
    QCOMPARE(dataflow.pixel(0, 0), ColorScale::activity().map(0.0f));
    // A device without activity draws "no data", as does the base alone.
    const QRgb noData = ColorScale::activity().noDataColor().rgb();
    QCOMPARE(buildMeshImage(frame, 0, MeshLayer::Dataflow).pixel(7, 5), noData);
    QCOMPARE(buildMeshImage(*base, 1, MeshLayer::Dataflow).pixel(7, 5), noData);
    // Every other layer is the base's.
    for (MeshLayer layer :
         {MeshLayer::SramOccupancy, MeshLayer::WeightPlacement, MeshLayer::KvCache, MeshLayer::Defects})
        QCOMPARE(buildMeshImage(frame, 1, layer), buildMeshImage(*base, 1, layer));
}

void TestMeshImage::runsOfOneValue_data()
{
    QTest::addColumn<double>("range");
    QTest::newRow("range 1") << 1.0;
    QTest::newRow("range 2.5") << 2.5;
    QTest::newRow("range so small its inverse is infinite") << 1e-300;
}

// Runs of equal values take their colour once (meshimage.cpp): every pixel is still its own value's colour, for
// runs of zero, negative zero, NaN, values past either end of the scale, and lone values between runs.
void TestMeshImage::runsOfOneValue()
{
    QFETCH(double, range);
    // Rows 0-19 and 30-39 change value at every core, so fillScale stops looking for runs there (a row in 16
    // looking again); rows 20-29 have runs: both of its loops fill rows, and it switches between them.
    const int cols = 97, rows = 40;
    MeshFrame frame{testing::makeSyntheticSnapshot(cols, rows, 1), {}, {}};
    const float kinds[] = {0.0f, -0.0f, std::numeric_limits<float>::quiet_NaN(), 1.5f, -0.25f, 0.49f, 0.75f, 1e-40f};
    std::vector<float>& values = frame.activity.emplace_back(size_t(cols) * rows);
    uint32_t state = 12345;
    for (size_t i = 0; i < values.size();) {
        state = state * 1664525u + 1013904223u;
        const float v = kinds[(state >> 8) % std::size(kinds)];
        const size_t row = i / cols;
        const bool lone = row < 20 || row >= 30;
        for (size_t run = lone ? 1 : 1 + (state >> 20) % 9; run > 0 && i < values.size(); --run)
            values[i++] = v;
    }
    const QImage image = buildMeshImage(frame, 0, MeshLayer::Dataflow, range);
    const ColorScale scale = ColorScale::activity();
    const float inverse = float(1.0 / range);
    for (int y = 0; y < rows; ++y)
        for (int x = 0; x < cols; ++x)
            QCOMPARE(image.pixel(x, y), scale.map(values[size_t(y) * cols + size_t(x)] * inverse));
}

void TestMeshImage::placementColoursByOwner()
{
    const auto s = testing::makeSyntheticSnapshot(40, 30, 2, 10);
    const QImage image = buildMeshImage(*s, 1, MeshLayer::WeightPlacement);
    // Device 1, row 25 is band 2 -> layer 3 + 2 = 5; column 35 is the fourth quarter -> "kv".
    QCOMPARE(image.pixel(35, 25), PlacementPalette::color(5, MatrixKind::KvCache));
    // Column 0 of row 0 on device 1: layer 3, attn_q.
    QCOMPARE(image.pixel(0, 0), PlacementPalette::color(3, MatrixKind::Attention));
}

void TestMeshImage::kvRange_data()
{
    QTest::addColumn<float>("largest");
    QTest::addColumn<double>("range");
    QTest::newRow("2.4% rounds up to 2.5%") << 0.024f << 0.025;
    QTest::newRow("exactly 2% stays") << 0.02f << 0.02;
    QTest::newRow("30% rounds up to 50%") << 0.3f << 0.5;
    QTest::newRow("7% rounds up to 10%") << 0.07f << 0.1;
    QTest::newRow("0.13% rounds up to 0.2%") << 0.0013f << 0.002;
    QTest::newRow("full cores: 100%") << 1.0f << 1.0;
    QTest::newRow("no KV at all: 100%") << 0.0f << 1.0;
}

void TestMeshImage::kvRange()
{
    QFETCH(float, largest);
    QFETCH(double, range);
    auto s = testing::makeSyntheticSnapshot(20, 10, 2);
    for (auto& device : s->kvFraction)
        std::fill(device.begin(), device.end(), 0.0f);
    s->kvFraction[1][57] = largest;
    QCOMPARE(meshLayerRange(*s, MeshLayer::KvCache), range);
    QCOMPARE(meshLayerRange(*s, MeshLayer::SramOccupancy), 1.0);
    // The image puts the largest value at the top of the scale.
    const QImage image = buildMeshImage(*s, 1, MeshLayer::KvCache, range);
    QCOMPARE(image.pixel(57 % 20, 57 / 20), ColorScale::kvCache().map(float(largest / range)));
}

void TestMeshImage::badInput_data()
{
    QTest::addColumn<int>("damage");
    QTest::newRow("SRAM array too short") << 0;
    QTest::newRow("no SRAM arrays at all") << 1;
    QTest::newRow("owner index past the owner table") << 2;
    QTest::newRow("device out of range") << 3;
    QTest::newRow("zero-sized mesh") << 4;
}

void TestMeshImage::badInput()
{
    QFETCH(int, damage);
    auto s = testing::makeSyntheticSnapshot(20, 10, 1);
    const QRgb noData = ColorScale::sramOccupancy().noDataColor().rgb();
    switch (damage) {
    case 0:
        s->sramFraction[0].resize(5);
        QCOMPARE(buildMeshImage(*s, 0, MeshLayer::SramOccupancy).pixel(3, 3), noData);
        QVERIFY(!hasCoreData(*s, 0));
        break;
    case 1:
        s->sramFraction.clear();
        QCOMPARE(buildMeshImage(*s, 0, MeshLayer::SramOccupancy).pixel(0, 0), noData);
        break;
    case 2:
        s->owner[0][0] = 60000;
        QCOMPARE(buildMeshImage(*s, 0, MeshLayer::WeightPlacement).pixel(0, 0), PlacementPalette::emptyColor());
        break;
    case 3:
        QVERIFY(buildMeshImage(*s, 1, MeshLayer::SramOccupancy).isNull());
        QVERIFY(buildMeshImage(*s, -1, MeshLayer::SramOccupancy).isNull());
        break;
    case 4:
        s->meshCols = 0;
        QVERIFY(buildMeshImage(*s, 0, MeshLayer::SramOccupancy).isNull());
        break;
    }
}

void TestMeshImage::formatBytes_data()
{
    QTest::addColumn<double>("bytes");
    QTest::addColumn<QString>("text");
    QTest::newRow("bytes") << 512.0 << "512 B";
    QTest::newRow("48 KiB per core") << 49152.0 << "48.0 KiB";
    QTest::newRow("megabytes") << 2.5e6 << "2.5 MB";
    QTest::newRow("WSE-3 total, 44 GB") << 900000.0 * 49152 << "44.2 GB";
    QTest::newRow("negative is n/a") << -1.0 << "n/a";
}

void TestMeshImage::formatBytes()
{
    QFETCH(double, bytes);
    QFETCH(QString, text);
    QLocale::setDefault(QLocale::c());
    QCOMPARE(ws::views::formatBytes(bytes), text);
}

namespace {

// A synthetic mesh's frame and a 200 x 160 view fitted to it.
std::pair<std::shared_ptr<const MeshFrame>, ViewTransform> fittedFrame(int cols, int rows)
{
    const auto snapshot = testing::makeSyntheticSnapshot(cols, rows, 1);
    ViewTransform t;
    t.viewPx = QSizeF(200, 160);
    t.meshCores = QSizeF(cols, rows);
    t.fit();
    return {std::make_shared<const MeshFrame>(MeshFrame{snapshot, {}, {}}), t};
}

} // namespace

// prepareMeshFrame writes a recycled frame's image and raster again when only the recycled frame holds them (the
// same pixels as made afresh), and leaves images someone else still shows alone.
void TestMeshImage::preparedFrameReusesImagesNobodyHolds()
{
    const auto [frame, t] = fittedFrame(40, 30);
    QVERIFY(t.scale >= 1);
    const PreparedMeshFrame fresh = prepareMeshFrame(frame, 0, MeshLayer::KvCache, t);

    PreparedMeshFrame old = prepareMeshFrame(frame, 0, MeshLayer::SramOccupancy, t);
    const uchar* imageBits = old.image.constBits();
    const uchar* rasterBits = old.raster.constBits();
    const PreparedMeshFrame again = prepareMeshFrame(frame, 0, MeshLayer::KvCache, t, std::move(old));
    QCOMPARE(again.image.constBits(), imageBits);
    QCOMPARE(again.raster.constBits(), rasterBits);
    QCOMPARE(again.image, fresh.image);
    QCOMPARE(again.raster, fresh.raster);

    // Still shown elsewhere: new images, and the shown ones keep their pixels.
    const PreparedMeshFrame shown = prepareMeshFrame(frame, 0, MeshLayer::SramOccupancy, t);
    const QImage shownImage = shown.image;
    const QImage before = shownImage.copy();
    const PreparedMeshFrame other = prepareMeshFrame(frame, 0, MeshLayer::KvCache, t, shown);
    QVERIFY(other.image.constBits() != shownImage.constBits());
    QCOMPARE(shownImage, before);
    QCOMPARE(other.image, fresh.image);
    QCOMPARE(other.raster, fresh.raster);
}

namespace {

// The test's own area average: output pixel (x, y) of an m x n reduction of a w x h image covers the source
// rectangle [x w/m, (x+1) w/m) x [y h/n, (y+1) h/n); each source pixel counts by the area of it inside.
QImage areaAverage(const QImage& src, QSize size)
{
    QImage out(size, QImage::Format_RGB32);
    const double fx = double(src.width()) / size.width(), fy = double(src.height()) / size.height();
    for (int y = 0; y < size.height(); ++y)
        for (int x = 0; x < size.width(); ++x) {
            double r = 0, g = 0, b = 0;
            for (int sy = int(std::floor(y * fy)); sy < src.height() && sy < (y + 1) * fy; ++sy)
                for (int sx = int(std::floor(x * fx)); sx < src.width() && sx < (x + 1) * fx; ++sx) {
                    const double cover = (std::min(sx + 1.0, (x + 1) * fx) - std::max(double(sx), x * fx)) *
                                         (std::min(sy + 1.0, (y + 1) * fy) - std::max(double(sy), y * fy));
                    const QRgb c = src.pixel(sx, sy);
                    r += cover * qRed(c);
                    g += cover * qGreen(c);
                    b += cover * qBlue(c);
                }
            const double area = fx * fy;
            out.setPixel(x, y,
                         qRgb(int(std::lround(r / area)), int(std::lround(g / area)), int(std::lround(b / area))));
        }
    return out;
}

QImage noise(int w, int h, unsigned seed)
{
    QImage image(w, h, QImage::Format_RGB32);
    std::mt19937 rng(seed);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            image.setPixel(x, y, qRgb(int(rng() % 256), int(rng() % 256), int(rng() % 256)));
    return image;
}

int largestDifference(const QImage& a, const QImage& b)
{
    int worst = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
            worst = std::max({worst, std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)),
                              std::abs(qBlue(p) - qBlue(q)), std::abs(qAlpha(p) - qAlpha(q))});
        }
    return worst;
}

} // namespace

void TestMeshImage::reducedCopyAveragesEveryCore_data()
{
    QTest::addColumn<QSize>("from");
    QTest::addColumn<double>("scale");
    QTest::newRow("halves") << QSize(64, 48) << 0.5;
    QTest::newRow("thirds") << QSize(90, 60) << 1.0 / 3;
    QTest::newRow("fractional") << QSize(101, 77) << 0.73;
    QTest::newRow("a tenth") << QSize(170, 90) << 0.1;
    QTest::newRow("WSE-3 at 0.82") << QSize(762, 1176) << 0.82;
}

// Below a pixel per core the view draws reduceMesh's copy: every output pixel the area-weighted mean of the cores it
// covers (the test's own sums in doubles; float sums may round a level the other way), within 3 levels of Qt's
// smooth scaling (fixed point, which the view used before), so one bright core on black is never dropped, and a
// uniform mesh keeps its colour.
void TestMeshImage::reducedCopyAveragesEveryCore()
{
    QFETCH(QSize, from);
    QFETCH(double, scale);
    const QImage src = noise(from.width(), from.height(), 7);
    const QSize to = reducedMeshSize(from, scale);
    QImage reduced;
    reduceMesh(src, to, reduced);
    QCOMPARE(reduced.size(), to);
    QCOMPARE(reduced.format(), QImage::Format_RGB32);
    QVERIFY(largestDifference(reduced, areaAverage(src, to)) <= 1);
    QVERIFY(largestDifference(reduced, src.scaled(to, Qt::IgnoreAspectRatio, Qt::SmoothTransformation)) <= 3);

    QImage dark(from, QImage::Format_RGB32);
    dark.fill(qRgb(0, 0, 0));
    dark.setPixel(from.width() / 2, from.height() / 2, qRgb(255, 255, 255));
    reduceMesh(dark, to, reduced);
    int light = 0;
    for (int y = 0; y < to.height(); ++y)
        for (int x = 0; x < to.width(); ++x)
            light = std::max(light, qRed(reduced.pixel(x, y)));
    QVERIFY2(light > 0, "the core was dropped");

    QImage flat(from, QImage::Format_RGB32);
    flat.fill(qRgb(12, 200, 99));
    reduceMesh(flat, to, reduced);
    for (int y = 0; y < to.height(); ++y)
        for (int x = 0; x < to.width(); ++x)
            QCOMPARE(reduced.pixel(x, y), qRgb(12, 200, 99));
}

// A target of that size held by nobody else is written in place (no new pages); one still held elsewhere is left
// to its holder; a size that is not a reduction is scaled by Qt, never a crash.
void TestMeshImage::reducedCopyWrittenInPlace()
{
    const QImage src = noise(120, 80, 3);
    QImage target;
    reduceMesh(src, QSize(50, 30), target);
    const QImage expected = target.copy();
    const uchar* bits = target.constBits();
    target.fill(Qt::red);
    reduceMesh(src, QSize(50, 30), target);
    QCOMPARE(target.constBits(), bits);
    QCOMPARE(target, expected);

    const QImage held = target;
    const QImage heldBefore = held.copy();
    reduceMesh(noise(120, 80, 4), QSize(50, 30), target);
    QVERIFY(target.constBits() != held.constBits());
    QCOMPARE(held, heldBefore);

    reduceMesh(src, QSize(200, 10), target); // wider than the source
    QCOMPARE(target.size(), QSize(200, 10));
    reduceMesh(QImage(), QSize(5, 5), target);
    QCOMPARE(target.size(), QSize(5, 5));
    reduceMesh(src, QSize(0, 4), target);
    QVERIFY(target.size().isEmpty());

    // prepareMeshFrame below a pixel per core: the recycled frame's reduced copy is made again in place.
    const auto [frame, t] = fittedFrame(400, 300);
    QVERIFY(t.scale < 1);
    const PreparedMeshFrame fresh = prepareMeshFrame(frame, 0, MeshLayer::KvCache, t);
    PreparedMeshFrame old = prepareMeshFrame(frame, 0, MeshLayer::SramOccupancy, t);
    const uchar* reducedBits = old.reduced.constBits();
    const PreparedMeshFrame again = prepareMeshFrame(frame, 0, MeshLayer::KvCache, t, std::move(old));
    QCOMPARE(again.reduced.constBits(), reducedBits);
    QCOMPARE(again.reduced, fresh.reduced);
    QCOMPARE(again.reducedScale, t.scale);
}

QTEST_MAIN(TestMeshImage)
#include "tst_meshimage.moc"
