// ColorScale and PlacementPalette: interpolation, clamping, lookup table,
// distinct colours per layer and matrix kind.
#include "views/mesh/colorscale.h"

#include <QtTest>

using namespace ws::views;

class TestColorScale : public QObject
{
    Q_OBJECT

private slots:
    void interpolation_data();
    void interpolation();
    void tableMatchesExact();
    void sequentialScalesGetBrighter_data();
    void sequentialScalesGetBrighter();
    void matrixKind_data();
    void matrixKind();
    void placementColoursDiffer();
};

void TestColorScale::interpolation_data()
{
    QTest::addColumn<double>("fraction");
    QTest::addColumn<QColor>("expected");
    // Two stops: black at 0, (200, 100, 50) at 1.
    QTest::newRow("start") << 0.0 << QColor(0, 0, 0);
    QTest::newRow("end") << 1.0 << QColor(200, 100, 50);
    QTest::newRow("half way") << 0.5 << QColor(100, 50, 25);
    QTest::newRow("a quarter") << 0.25 << QColor(50, 25, 13); // 12.5 rounds away from zero
    QTest::newRow("below 0 clamps") << -3.0 << QColor(0, 0, 0);
    QTest::newRow("above 1 clamps") << 7.5 << QColor(200, 100, 50);
    QTest::newRow("NaN is no data") << qQNaN() << QColor(1, 2, 3);
}

void TestColorScale::interpolation()
{
    QFETCH(double, fraction);
    QFETCH(QColor, expected);
    const ColorScale scale({{0.0, QColor(0, 0, 0)}, {1.0, QColor(200, 100, 50)}}, QColor(1, 2, 3));
    QCOMPARE(scale.colorAt(fraction), expected);
    QCOMPARE(QColor(scale.map(static_cast<float>(fraction))), expected);
}

void TestColorScale::tableMatchesExact()
{
    const ColorScale scale = ColorScale::sramOccupancy();
    for (int i = 0; i <= 1000; ++i) {
        const double f = i / 1000.0;
        const QColor a = scale.colorAt(f);
        const QColor b(scale.map(static_cast<float>(f)));
        // The table has 1,024 entries: at most half a table step per channel, plus rounding (the steepest part,
        // SRAM over 90-100 %, moves about 1.3 a channel a step).
        const int tolerance = 2;
        QVERIFY2(qAbs(a.red() - b.red()) <= tolerance && qAbs(a.green() - b.green()) <= tolerance &&
                     qAbs(a.blue() - b.blue()) <= tolerance,
                 qPrintable(QStringLiteral("at %1: %2 vs %3").arg(f).arg(a.name(), b.name())));
    }
}

void TestColorScale::sequentialScalesGetBrighter_data()
{
    QTest::addColumn<int>("which");
    QTest::newRow("SRAM occupancy") << 0;
    QTest::newRow("KV cache") << 1;
    QTest::newRow("activity") << 2;
}

void TestColorScale::sequentialScalesGetBrighter()
{
    QFETCH(int, which);
    const ColorScale scale = which == 0   ? ColorScale::sramOccupancy()
                             : which == 1 ? ColorScale::kvCache()
                                          : ColorScale::activity();
    // Relative luminance (Rec. 709 weights) must rise with the value, so "more" always reads as "brighter".
    auto luminance = [](const QColor& c) { return 0.2126 * c.red() + 0.7152 * c.green() + 0.0722 * c.blue(); };
    double previous = -1;
    for (int i = 0; i <= 20; ++i) {
        const double l = luminance(scale.colorAt(i / 20.0));
        QVERIFY2(l > previous, qPrintable(QStringLiteral("luminance falls at %1").arg(i / 20.0)));
        previous = l;
    }
}

void TestColorScale::matrixKind_data()
{
    QTest::addColumn<QString>("tensorKind");
    QTest::addColumn<int>("kind");
    QTest::newRow("attn_q") << "attn_q" << int(MatrixKind::Attention);
    QTest::newRow("attn_v") << "attn_v" << int(MatrixKind::Attention);
    QTest::newRow("attn_output") << "attn_output" << int(MatrixKind::AttentionOutput);
    QTest::newRow("attn_o") << "attn_o" << int(MatrixKind::AttentionOutput);
    QTest::newRow("attn_q_norm") << "attn_q_norm" << int(MatrixKind::Norm);
    QTest::newRow("ffn_gate") << "ffn_gate" << int(MatrixKind::FfnUp);
    QTest::newRow("ffn_up") << "ffn_up" << int(MatrixKind::FfnUp);
    QTest::newRow("ffn_down") << "ffn_down" << int(MatrixKind::FfnDown);
    QTest::newRow("token_embd") << "token_embd" << int(MatrixKind::Embedding);
    QTest::newRow("output") << "output" << int(MatrixKind::LmHead);
    QTest::newRow("kv") << "kv" << int(MatrixKind::KvCache);
    QTest::newRow("unknown") << "mystery" << int(MatrixKind::Other);
}

void TestColorScale::matrixKind()
{
    QFETCH(QString, tensorKind);
    QFETCH(int, kind);
    QCOMPARE(int(matrixKindOf(tensorKind.toStdString())), kind);
}

void TestColorScale::placementColoursDiffer()
{
    // Neighbouring layers, same kind: different colours.
    for (int layer = 0; layer < 64; ++layer)
        QVERIFY(PlacementPalette::color(layer, MatrixKind::FfnUp) !=
                PlacementPalette::color(layer + 1, MatrixKind::FfnUp));
    // Same layer, different kinds: different colours, and none equals the empty colour.
    const MatrixKind kinds[] = {MatrixKind::Attention, MatrixKind::AttentionOutput, MatrixKind::FfnUp,
                                MatrixKind::FfnDown,   MatrixKind::KvCache,         MatrixKind::Embedding,
                                MatrixKind::LmHead};
    QSet<QRgb> seen;
    for (MatrixKind k : kinds) {
        const QRgb c = PlacementPalette::color(7, k);
        QVERIFY(c != PlacementPalette::emptyColor());
        QVERIFY2(!seen.contains(c), qPrintable(QStringLiteral("kind %1 repeats a colour").arg(int(k))));
        seen.insert(c);
    }
    // The owner overload agrees with the (layer, kind) one.
    QCOMPARE(PlacementPalette::color(ws::MeshOwner{3, "ffn_down"}), PlacementPalette::color(3, MatrixKind::FfnDown));
}

QTEST_GUILESS_MAIN(TestColorScale)
#include "tst_colorscale.moc"
