// Layouts as data: the placer's layout placed again gives the same cores, hand edits keep every weight element on
// exactly one core, refuse what leaves the mesh or overlaps and flag cores over their SRAM, undo gives back the
// exact previous layout, and the JSON form round-trips byte for byte.
#include "engine/wafer/placement/layoutedit.h"
#include "engine/wafer/placement/layoutjson.h"
#include "engine/wafer/placement/placer.h"

#include "tests/common/presetfixture.h"
#include "tests/engine/wafer/tinyfixtures.h"

#include <QTest>

namespace {
using wstest::tinyHardware;

ws::PlacementOptions tinyOptions()
{
    ws::PlacementOptions o;
    o.contextTokens = 32;
    return o;
}

ws::Placement placed(const ws::ModelConfig& m, const ws::HardwareSpec& h, ws::PlacementOptions o = tinyOptions())
{
    auto p = ws::placeModel(m, h.wafer, o);
    if (!p)
        qFatal("%s", p.error().message().c_str());
    return *p;
}

// Brute force over every core: every element on exactly one core, the weight bytes add up to the model's, and
// the over-capacity flags match the cores.
void verifyEveryCore(const ws::Placement& p, const ws::ModelConfig& m, bool flagged)
{
    const QString twice = wstest::elementsNotPlacedOnce(p, m);
    QVERIFY2(twice.isEmpty(), qPrintable(twice));
    int64_t weights = 0;
    bool over = false;
    for (int d = 0; d < p.deviceCount; ++d)
        for (int y = 0; y < p.usableRows; ++y)
            for (int x = 0; x < p.usableCols; ++x) {
                weights += p.coreBytes(d, x, y).weightBytes();
                over = over || ws::coreOverflowBytes(p, d, x, y) > 0;
            }
    QCOMPARE(weights, p.modelWeightBytes);
    QCOMPARE(over, flagged);
}

enum class Edit
{
    Resize,
    Move,
    Swap,
    Head,
    Embedding,
    Shrink
};
} // namespace

Q_DECLARE_METATYPE(Edit)

class TestLayout : public QObject
{
    Q_OBJECT

private slots:
    void placerLayoutPlacesTheSameCores_data()
    {
        QTest::addColumn<bool>("moe");
        QTest::addColumn<int>("order");
        QTest::newRow("dense snake") << false << int(ws::LayerOrder::Snake);
        QTest::newRow("moe snake") << true << int(ws::LayerOrder::Snake);
        QTest::newRow("dense row-major") << false << int(ws::LayerOrder::RowMajor);
        QTest::newRow("dense column-major") << false << int(ws::LayerOrder::ColumnMajor);
    }
    void placerLayoutPlacesTheSameCores()
    {
        QFETCH(bool, moe);
        QFETCH(int, order);
        const ws::ModelConfig m = wstest::tinyModel(moe);
        const ws::HardwareSpec h = tinyHardware();
        ws::PlacementOptions o = tinyOptions();
        o.order = ws::LayerOrder(order);
        const ws::Placement p = placed(m, h, o);
        const ws::Layout l = ws::layoutOf(p, m.id, h.id);
        QCOMPARE(l.order, ws::LayerOrder(order));
        auto again = ws::placeLayout(m, h, l);
        QVERIFY2(again, again ? "" : again.error().message().c_str());
        QCOMPARE(again->deviceCount, p.deviceCount);
        for (int d = 0; d < p.deviceCount; ++d)
            for (int y = 0; y < p.usableRows; ++y)
                for (int x = 0; x < p.usableCols; ++x)
                    QCOMPARE(again->coreBytes(d, x, y).used(), p.coreBytes(d, x, y).used());
        QVERIFY(ws::conservationError(*again, m).empty());
        verifyEveryCore(*again, m, false);
        QCOMPARE(ws::layoutOf(*again, m.id, h.id), l);
    }

    void orderChangesTheCut()
    {
        // Row-major runs every band left to right, column-major stacks the layers in columns.
        const std::vector<double> sizes(6, 1.0);
        const auto snake = ws::orderedRegions(ws::LayerOrder::Snake, 30, 20, sizes, 2);
        const auto rows = ws::orderedRegions(ws::LayerOrder::RowMajor, 30, 20, sizes, 2);
        const auto cols = ws::orderedRegions(ws::LayerOrder::ColumnMajor, 30, 20, sizes, 2);
        QCOMPARE(snake[3].x, 20);
        QCOMPARE(rows[3].x, 0);
        QCOMPARE(cols[1].x, 0);
        QVERIFY(cols[1].y > 0);
        QCOMPARE(cols[3].x, 15);
    }

    void conservationCatchesALostSlice()
    {
        const ws::ModelConfig m = wstest::tinyModel(false);
        ws::Placement p = placed(m, tinyHardware());
        QVERIFY(ws::conservationError(p, m).empty());
        ws::Placement lost = p;
        for (auto& r : lost.regions)
            for (auto it = r.tensors.begin(); it != r.tensors.end(); ++it)
                if (it->kind == ws::TensorKind::Output || it->kind == ws::TensorKind::TokenEmbedding) {
                    r.tensors.erase(it);
                    QVERIFY(!ws::conservationError(lost, m).empty());
                    return;
                }
        QFAIL("no table slice found");
    }

    void edits_data()
    {
        QTest::addColumn<Edit>("edit");
        QTest::addColumn<int>("a");
        QTest::addColumn<int>("b");
        QTest::addColumn<QString>("expected"); // "ok", "flagged", or a piece of the refusal
        using E = Edit;
        QTest::newRow("shrink layer 0 from the right") << E::Resize << 0 << -1 << "any";
        QTest::newRow("grow layer 0 into layer 1") << E::Resize << 0 << 1 << "overlap on wafer 1";
        QTest::newRow("grow layer 0 off the left edge") << E::Resize << 0 << -100 << "leaves the";
        QTest::newRow("shrink layer 0 to no cores") << E::Resize << 0 << -1000 << "no cores";
        QTest::newRow("shrink layer 3 to one core") << E::Shrink << 3 << 0 << "flagged";
        QTest::newRow("move layer 0 onto layer 1") << E::Move << 0 << 1 << "overlap on wafer 1";
        QTest::newRow("move layer 0 off the mesh") << E::Move << 0 << -1 << "leaves the";
        QTest::newRow("move layer 0 to a missing device") << E::Move << 0 << 99 << "on wafer 100 (device index 99)";
        QTest::newRow("swap layers 1 and 2") << E::Swap << 1 << 2 << "ok";
        QTest::newRow("swap first and last") << E::Swap << 0 << 11 << "any";
        QTest::newRow("swap a layer with itself") << E::Swap << 4 << 4 << "itself";
        QTest::newRow("swap with a missing layer") << E::Swap << 0 << 12 << "no layer 12";
        QTest::newRow("LM head onto layers 0 and 1") << E::Head << 0 << 1 << "any";
        QTest::newRow("LM head onto a missing layer") << E::Head << 0 << 40 << "does not have";
        QTest::newRow("embedding onto layer 5") << E::Embedding << 5 << 5 << "any";
    }
    void edits()
    {
        QFETCH(Edit, edit);
        QFETCH(int, a);
        QFETCH(int, b);
        QFETCH(QString, expected);
        const ws::ModelConfig m = wstest::tinyModel(false);
        const ws::HardwareSpec h = tinyHardware();
        const ws::Layout base = ws::layoutOf(placed(m, h), m.id, h.id);
        const std::string before = ws::layoutToJson(base);
        const ws::CoreRect ra = base.layers[size_t(a)].rect;
        ws::Expected<ws::Layout> out = ws::makeError(ws::ErrorCode::InvalidArgument, "unset");
        switch (edit) {
        case Edit::Resize:
            out = ws::resizeRegion(base, a, b < -50 ? ws::RegionEdge::Left : ws::RegionEdge::Right,
                                   b == -100    ? -1
                                   : b == -1000 ? ra.width
                                                : b);
            break;
        case Edit::Shrink: {
            auto narrow = ws::resizeRegion(base, a, ws::RegionEdge::Right, 1 - ra.width);
            QVERIFY(narrow);
            out = ws::resizeRegion(*narrow, a, ws::RegionEdge::Bottom, 1 - ra.height);
            break;
        }
        case Edit::Move: {
            const ws::LayoutRegion target = b < 0 ? ws::LayoutRegion{0, {base.usableCols - ra.width + 1, ra.y, 0, 0}}
                                            : b == 99 ? ws::LayoutRegion{99, ra}
                                                      : base.layers[size_t(b)];
            out = ws::moveRegion(base, a, target.device, target.rect.x, target.rect.y);
            break;
        }
        case Edit::Swap:
            out = ws::swapLayers(base, a, b);
            break;
        case Edit::Head:
            out = ws::moveTable(base, ws::LayoutTable::LmHead, {a, b});
            break;
        case Edit::Embedding:
            out = ws::moveTable(base, ws::LayoutTable::Embedding, {a});
            break;
        }
        // The input is never changed: undo is the previous value, byte for byte.
        QCOMPARE(ws::layoutToJson(base), before);
        if (expected != QLatin1String("ok") && expected != QLatin1String("flagged") &&
            expected != QLatin1String("any")) {
            QVERIFY(!out);
            QVERIFY2(QString::fromStdString(out.error().text).contains(expected), out.error().text.c_str());
            QVERIFY(out.error().text.find('\n') == std::string::npos);
            return;
        }
        QVERIFY2(out, out ? "" : out.error().message().c_str());
        QCOMPARE(out->origin, std::string("edit"));
        auto applied = ws::applyLayout(m, h, *out);
        QVERIFY2(applied, applied ? "" : applied.error().message().c_str());
        const bool flagged = !applied->overCapacity.empty();
        if (expected == QLatin1String("ok"))
            QVERIFY(!flagged);
        if (expected == QLatin1String("flagged"))
            QVERIFY(flagged);
        verifyEveryCore(*applied->placement, m, flagged);
    }

    void inverseEditsGiveTheSameExport()
    {
        const ws::ModelConfig m = wstest::tinyModel(true);
        const ws::HardwareSpec h = tinyHardware();
        ws::Layout base = ws::layoutOf(placed(m, h), m.id, h.id);
        base.origin = "edit";
        const std::string before = ws::layoutToJson(base);
        auto shrunk = ws::resizeRegion(base, 2, ws::RegionEdge::Bottom, -1);
        QVERIFY(shrunk);
        QVERIFY(ws::layoutToJson(*shrunk) != before);
        auto back = ws::resizeRegion(*shrunk, 2, ws::RegionEdge::Bottom, 1);
        QVERIFY(back);
        QCOMPARE(ws::layoutToJson(*back), before);
        auto swapped = ws::swapLayers(base, 0, 7);
        QVERIFY(swapped);
        auto unswapped = ws::swapLayers(*swapped, 0, 7);
        QVERIFY(unswapped);
        QCOMPARE(ws::layoutToJson(*unswapped), before);
    }

    void realModelEditsConserve()
    {
        const ws::ModelConfig m = wstest::modelPreset(QStringLiteral("llama-3.1-8b"));
        const ws::HardwareSpec h = wstest::hardwarePreset(QStringLiteral("wse3"));
        ws::PlacementOptions o;
        o.precision = m.nativePrecision;
        const ws::Layout base = ws::layoutOf(placed(m, h, o), m.id, h.id);
        for (auto edited : {ws::swapLayers(base, 3, 20), ws::moveTable(base, ws::LayoutTable::LmHead, {0, 1, 2})}) {
            QVERIFY(edited);
            auto applied = ws::applyLayout(m, h, *edited);
            QVERIFY2(applied, applied ? "" : applied.error().message().c_str());
            QVERIFY(ws::conservationError(*applied->placement, m).empty());
        }
    }

    void mismatchIsRefusedInOneLine_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("reason");
        QTest::newRow("other model") << "model"
                                     << "is for model";
        QTest::newRow("other hardware") << "hardware"
                                        << "is for hardware";
        QTest::newRow("a layer missing") << "layers"
                                         << "layer regions but";
        QTest::newRow("a mesh larger than the wafer") << "mesh"
                                                      << "does not fit";
        QTest::newRow("no LM head") << "head"
                                    << "no LM head";
    }
    void mismatchIsRefusedInOneLine()
    {
        QFETCH(QString, field);
        QFETCH(QString, reason);
        const ws::ModelConfig m = wstest::tinyModel(false);
        const ws::HardwareSpec h = tinyHardware();
        ws::Layout l = ws::layoutOf(placed(m, h), m.id, h.id);
        if (field == QLatin1String("model"))
            l.modelId = "other";
        if (field == QLatin1String("hardware"))
            l.hardwareId = "wse2";
        if (field == QLatin1String("layers"))
            l.layers.pop_back();
        if (field == QLatin1String("mesh"))
            l.usableCols += 1;
        if (field == QLatin1String("head"))
            l.headLayers.clear();
        auto p = ws::placeLayout(m, h, l);
        QVERIFY(!p);
        QVERIFY2(QString::fromStdString(p.error().text).contains(reason), p.error().text.c_str());
    }

    void jsonRoundTrips()
    {
        const ws::ModelConfig m = wstest::tinyModel(true);
        const ws::HardwareSpec h = tinyHardware();
        ws::PlacementOptions o = tinyOptions();
        o.groups = ws::GroupPrecisions{ws::Precision::Bf16, ws::Precision::Int8, ws::Precision::Fp8};
        o.experts = ws::ExpertLayout::Sliced;
        const ws::Layout l = ws::layoutOf(placed(m, h, o), m.id, h.id);
        QCOMPARE(l.precisions.ffn, ws::Precision::Int8);
        QCOMPARE(l.experts, ws::ExpertLayout::Sliced);
        QVERIFY(ws::layoutToJson(l).find("\"experts\": \"sliced\"") != std::string::npos);
        const std::string text = ws::layoutToJson(l);
        auto back = ws::layoutFromJson(text);
        QVERIFY2(back, back ? "" : back.error().message().c_str());
        QCOMPARE(*back, l);
        QCOMPARE(ws::layoutToJson(*back), text);
    }

    // A layout written before MoE layers had a choice was timed with its experts in blocks, and reads back so.
    void layoutWithoutExpertsReadsAsBlocks()
    {
        const ws::ModelConfig m = wstest::tinyModel(false);
        const ws::HardwareSpec h = tinyHardware();
        ws::PlacementOptions o = tinyOptions();
        o.experts = ws::ExpertLayout::Sliced;
        QString text = QString::fromStdString(ws::layoutToJson(ws::layoutOf(placed(m, h, o), m.id, h.id)));
        const QString field = QStringLiteral("\"experts\": \"sliced\",");
        QVERIFY(text.contains(field));
        text.remove(field);
        auto l = ws::layoutFromJson(text.toStdString());
        QVERIFY2(l, l ? "" : l.error().text.c_str());
        QCOMPARE(l->experts, ws::ExpertLayout::Blocks);
    }

    void badJsonIsRefused_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("reason");
        QTest::newRow("not json") << "{"
                                  << "["
                                  << "not valid JSON";
        QTest::newRow("unknown order") << "\"snake\""
                                       << "\"spiral\""
                                       << "order";
        QTest::newRow("unknown precision") << "\"bf16\""
                                           << "\"bf7\""
                                           << "precisions.";
        QTest::newRow("unknown field") << "\"origin\""
                                       << "\"colour\""
                                       << "colour: unknown field";
        // A refusal is one line: a newline in the file's key or value is shown escaped (fuzz_layout).
        QTest::newRow("newline in a key") << "\"origin\""
                                          << "\"col\\nour\""
                                          << "\"col\\nour\": unknown field";
        QTest::newRow("newline in a precision") << "\"bf16\""
                                                << "\"bf\\n16\""
                                                << "unknown precision '\"bf\\n16\"'";
        QTest::newRow("unknown expert layout") << "\"experts\": \"blocks\""
                                               << "\"experts\": \"scattered\""
                                               << "experts: must be blocks or sliced";
        QTest::newRow("newer version") << "\"waferscope_layout\": 1"
                                       << "\"waferscope_layout\": 9"
                                       << "newer";
    }
    void badJsonIsRefused()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, reason);
        const ws::ModelConfig m = wstest::tinyModel(false);
        const ws::HardwareSpec h = tinyHardware();
        QString text = QString::fromStdString(ws::layoutToJson(ws::layoutOf(placed(m, h), m.id, h.id)));
        QVERIFY(text.contains(from));
        text.replace(text.indexOf(from), from.size(), to);
        auto l = ws::layoutFromJson(text.toStdString());
        QVERIFY(!l);
        QVERIFY2(QString::fromStdString(l.error().text).contains(reason), l.error().text.c_str());
        QVERIFY2(l.error().text.find('\n') == std::string::npos, l.error().text.c_str());
    }
};

QTEST_GUILESS_MAIN(TestLayout)
#include "tst_layout.moc"
