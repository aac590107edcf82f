// Sweeps and the layout optimiser: shards 1/3, 2/3 and 3/3 merged are the unsharded sweep byte for byte (CSV and
// JSON), bad parameters are refused, a point predicts what predict with that layout predicts, and the optimiser is
// never slower than the default and strictly faster for at least one of three models on WSE-3.
#include "engine/explore/layoutoptimizer.h"
#include "engine/explore/layoutsweep.h"
#include "engine/predict/predictor.h"
#include "engine/predict/waferpredictor.h"
#include "engine/wafer/placement/layoutedit.h"

#include "tests/common/presetfixture.h"

#include <QTest>

namespace {
std::vector<ws::SweepAxis> axes(std::initializer_list<const char*> specs)
{
    std::vector<ws::SweepAxis> out;
    for (const char* s : specs) {
        auto a = ws::parseSweepAxis(s);
        if (!a)
            qFatal("%s", a.error().text.c_str());
        out.push_back(*a);
    }
    return out;
}
} // namespace

class TestLayoutSweep : public QObject
{
    Q_OBJECT
private slots:
    void shardsMergeToTheWholeSweep_data()
    {
        QTest::addColumn<bool>("json");
        QTest::addColumn<QStringList>("specs");
        QTest::newRow("csv, fill x order")
            << false << QStringList{"fill=0.6:0.9:0.1", "order=snake,row-major,column-major"};
        QTest::newRow("json, concurrency") << true << QStringList{"concurrency=1,2,4,8,16,32,64"};
        QTest::newRow("json, aspect x hop latency, with failing points")
            << true << QStringList{"aspect=1,2,40", "hop-latency=1,1.5"};
    }
    void shardsMergeToTheWholeSweep()
    {
        QFETCH(bool, json);
        QFETCH(QStringList, specs);
        const ws::ScenarioSpec b = wstest::sweepBase("llama-3.1-8b");
        std::vector<ws::SweepAxis> a;
        for (const QString& s : specs)
            a.push_back(*ws::parseSweepAxis(s.toStdString()));
        auto whole = ws::runSweep(b, a);
        QVERIFY(whole);
        QCOMPARE(int64_t(whole->points.size()), ws::sweepPointCount(a));
        auto text = [&](const ws::SweepResult& r) { return json ? ws::sweepJson(r) : ws::sweepCsv(r); };
        std::vector<std::string> parts;
        size_t points = 0;
        for (int i : {3, 1, 2}) {
            auto part = ws::runSweep(b, a, i, 3);
            QVERIFY(part);
            points += part->points.size();
            parts.push_back(text(*part));
        }
        QCOMPARE(points, whole->points.size());
        auto merged = ws::mergeSweeps(parts);
        QVERIFY2(merged, merged ? "" : merged.error().text.c_str());
        QCOMPARE(*merged, text(*whole));
        // A shard missing is not a sweep.
        parts.pop_back();
        QVERIFY(!ws::mergeSweeps(parts));
    }

    // A shard is a user's file: a mistyped count or index is refused with a message naming it, never thrown
    // (std::stoll and nlohmann's get() threw on these before, ending sweep-merge with an uncaught exception).
    void badShardsAreRefused_data()
    {
        QTest::addColumn<QString>("shard");
        QTest::addColumn<QString>("reason");
        const QString csvHead = QStringLiteral("# waferscope sweep, points %1\nindex,fill,ms_per_token\n");
        QTest::newRow("csv, count is text") << csvHead.arg("x") + "0,0.5,1\n"
                                            << "point count \"x\" is not a whole number";
        QTest::newRow("csv, count of 20 digits") << csvHead.arg("99999999999999999999") + "0,0.5,1\n"
                                                 << "point count";
        QTest::newRow("csv, negative count") << csvHead.arg("-1") + "0,0.5,1\n"
                                             << "point count";
        QTest::newRow("csv, index is text") << csvHead.arg(1) + "zero,0.5,1\n"
                                            << "point index \"zero\" is not a whole number";
        QTest::newRow("csv, index of 20 digits") << csvHead.arg(1) + "99999999999999999999,0.5,1\n"
                                                 << "point index";
        const QString json = QStringLiteral(R"({"waferscope_sweep": 1, "axes": [], "total_points": %1, "points": %2})");
        QTest::newRow("json, points not an array") << json.arg("1", "5") << "\"points\" must be an array";
        QTest::newRow("json, total is text") << json.arg("\"1\"", "[]") << "\"total_points\" a whole number";
        QTest::newRow("json, total is negative") << json.arg("-1", "[]") << "\"total_points\" a whole number";
        QTest::newRow("json, point not an object") << json.arg("1", "[1]") << "whole-number \"index\"";
        QTest::newRow("json, index is text") << json.arg("1", R"([{"index": "0"}])") << "whole-number \"index\"";
        QTest::newRow("json, index is fractional") << json.arg("1", R"([{"index": 0.5}])") << "whole-number \"index\"";
        QTest::newRow("json, index past int64")
            << json.arg("1", R"([{"index": 18446744073709551615}])") << "whole-number \"index\"";
    }
    void badShardsAreRefused()
    {
        QFETCH(QString, shard);
        QFETCH(QString, reason);
        auto merged = ws::mergeSweeps({shard.toStdString()});
        QVERIFY(!merged);
        QVERIFY2(QString::fromStdString(merged.error().text).contains(reason), merged.error().text.c_str());
        QVERIFY(merged.error().text.rfind("sweep-merge: ", 0) == 0);
    }

    void aPointIsPredictWithItsLayout()
    {
        ws::ScenarioSpec b = wstest::sweepBase("llama-3.1-70b");
        auto r = ws::runSweep(b, axes({"order=row-major", "concurrency=4"}));
        QVERIFY(r);
        QVERIFY2(r->points[0].error.empty(), r->points[0].error.c_str());
        b.order = ws::LayerOrder::RowMajor;
        b.workload.concurrency = 4;
        ws::Layout layout;
        auto p = ws::predictPlaced(b, nullptr, &layout);
        QVERIFY(p);
        // As `predict --layout` predicts it: through predict(), with the latest serving stack.
        ws::PredictOptions o;
        o.wafer.placedLayout = &layout;
        auto direct = ws::predict(b.model, b.hardware, b.workload, o);
        QVERIFY(direct);
        QCOMPARE(r->points[0].msPerToken, 1e3 * direct->secondsPerToken);
        QCOMPARE(r->points[0].devices, direct->devices);
        // The sweep reuses the placer's placement of the layout instead of placing it again: the same numbers.
        QCOMPARE(r->points[0].ttftMs, 1e3 * direct->ttftSeconds);
        QCOMPARE(r->points[0].kvCapacityTokens, direct->kvCapacityTokens);
        QCOMPARE(r->points[0].sramHeadroomBytes, direct->sramHeadroomBytes);
        QCOMPARE(p->secondsPerToken, direct->secondsPerToken);
        QCOMPARE(layout.order, ws::LayerOrder::RowMajor);
    }

    // A mixture-of-experts model's expert layout is a sweep axis: each point places and predicts with it.
    void expertLayoutIsASweepAxis()
    {
        auto axis = ws::parseSweepAxis("experts=blocks,sliced");
        QVERIFY2(axis, axis ? "" : axis.error().text.c_str());
        QCOMPARE(axis->values, (std::vector<std::string>{"blocks", "sliced"}));
        ws::ScenarioSpec b = wstest::sweepBase("gpt-oss-20b");
        b.workload.precision = b.model.nativePrecision;
        auto r = ws::runSweep(b, {*axis});
        QVERIFY2(r, r ? "" : r.error().text.c_str());
        QCOMPARE(r->points.size(), size_t(2));
        QVERIFY2(r->points[0].error.empty() && r->points[1].error.empty(), r->points[0].error.c_str());
        QVERIFY(r->points[1].tokensPerSecondPerUser > 1.2 * r->points[0].tokensPerSecondPerUser);
        ws::ScenarioSpec sliced = b;
        sliced.experts = ws::ExpertLayout::Sliced;
        auto direct = ws::predictPlaced(sliced, nullptr, nullptr, {.noRange = true});
        QVERIFY(direct);
        QCOMPARE(r->points[1].tokensPerSecondPerUser, direct->tokensPerSecondPerUser);
        QVERIFY(std::find(ws::sweepParameters().begin(), ws::sweepParameters().end(), ws::SweepParameter::Experts) !=
                ws::sweepParameters().end());
    }

    void badAxesAreRefused_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("reason");
        QTest::newRow("no equals") << "fill"
                                   << "NAME=";
        QTest::newRow("unknown parameter") << "colour=1"
                                           << "unknown sweep parameter";
        QTest::newRow("fill above one") << "fill=0.5,1.5"
                                        << "fill must be";
        QTest::newRow("bad order") << "order=spiral"
                                   << "order";
        QTest::newRow("bad precision") << "precision=bf7"
                                       << "precision";
        QTest::newRow("fractional wafers") << "wafers=1.5"
                                           << "whole number";
        QTest::newRow("empty range") << "context=10:1:1"
                                     << "LO <= HI";
        QTest::newRow("bad expert layout") << "experts=blocks,scattered"
                                           << "experts: 'scattered' is not blocks or sliced";
    }
    void badAxesAreRefused()
    {
        QFETCH(QString, spec);
        QFETCH(QString, reason);
        auto a = ws::parseSweepAxis(spec.toStdString());
        QVERIFY(!a);
        QVERIFY2(QString::fromStdString(a.error().text).contains(reason), a.error().text.c_str());
    }

    void optimizerIsNeverSlower()
    {
        int faster = 0;
        for (const char* model : {"llama-3.1-70b", "qwen3-32b", "llama-3.1-8b"}) {
            const ws::ScenarioSpec b = wstest::sweepBase(model);
            auto r = ws::optimizeLayout(b);
            QVERIFY2(r, r ? "" : r.error().text.c_str());
            qInfo("%s: default %.4f ms per token on %d wafers, optimised %.4f ms on %d (%s, fill %.2f), %d candidates",
                  model, r->defaultMsPerToken, r->defaultWafers, r->bestMsPerToken, r->bestWafers,
                  ws::layerOrderId(r->best.order), r->best.weightFill, r->candidates);
            QVERIFY(r->bestMsPerToken <= r->defaultMsPerToken);
            QVERIFY(r->bestWafers <= r->defaultWafers);
            faster += r->bestMsPerToken < r->defaultMsPerToken;
            // The best layout holds the model: every element once, no core over its SRAM.
            auto applied = ws::applyLayout(b.model, b.hardware, r->best);
            QVERIFY2(applied, applied ? "" : applied.error().text.c_str());
            QVERIFY(applied->overCapacity.empty());
        }
        QVERIFY(faster >= 1);
    }

    void sweepReportsProgressAndCancels()
    {
        std::vector<int64_t> seen;
        auto r = ws::runSweep(wstest::sweepBase("llama-3.1-8b"), axes({"concurrency=1:10:1"}), 1, 1,
                              [&](int64_t done, int64_t total) {
                                  seen.push_back(done);
                                  return total == 10 && done < 4;
                              });
        QVERIFY(!r);
        QCOMPARE(r.error().code, ws::ErrorCode::Cancelled);
        QCOMPARE(seen, (std::vector<int64_t>{1, 2, 3, 4}));
    }

    void aPointsBaseIsWhatItWasSweptWith()
    {
        const ws::ScenarioSpec b = wstest::sweepBase("llama-3.1-8b");
        const auto two = axes({"concurrency=1:3:1", "order=snake,row-major"});
        auto p = ws::sweepPointBase(b, two, 5); // row 2 (concurrency 3), column 1 (row-major)
        QVERIFY(p);
        QCOMPARE(p->workload.concurrency, 3);
        QCOMPARE(p->order, ws::LayerOrder::RowMajor);
        QVERIFY(!ws::sweepPointBase(b, two, 6));
        auto r = ws::runSweep(b, two);
        QVERIFY(r);
        auto direct = ws::predictPlaced(*p, nullptr);
        QVERIFY(direct);
        QCOMPARE(r->points[5].msPerToken, 1e3 * direct->secondsPerToken);
    }

    void paretoFrontIsTheUnbeatenPoints()
    {
        ws::SweepResult r;
        auto point = [](double tps, int wafers, int64_t kv) {
            ws::SweepPoint p;
            p.tokensPerSecondPerUser = tps;
            p.devices = wafers;
            p.kvCapacityTokens = kv;
            return p;
        };
        r.points = {point(100, 1, 10), point(150, 2, 30), point(120, 2, 40),
                    point(90, 1, 5),   point(150, 2, 30), point(200, 4, 20)};
        r.points.push_back(point(999, 1, 99));
        r.points.back().error = "not placed";                                // errors are never on the front
        QCOMPARE(ws::paretoFront(r, false), (std::vector<size_t>{0, 1, 5})); // fewest wafers first; 4 equals 1
        QCOMPARE(ws::paretoFront(r, true), (std::vector<size_t>{2, 1, 5}));  // most KV first
    }

    // For a mixture-of-experts model the optimiser also tries where the experts sit; the default layout keeps
    // the base's (blocks), and the experts cut across the region win: every core works for the active experts.
    void optimizerTriesExpertLayouts()
    {
        ws::OptimizeOptions o;
        o.fills = {0.8};
        o.orders = {ws::LayerOrder::Snake};
        o.maxBands = 0;
        int total = 0;
        o.progress = [&](int, int of) {
            total = of;
            return true;
        };
        auto r = ws::optimizeLayout(wstest::sweepBase("gpt-oss-20b"), o);
        QVERIFY2(r, r ? "" : r.error().text.c_str());
        QCOMPARE(total, 2);
        QCOMPARE(r->candidates, 3); // the default, then blocks and sliced
        QCOMPARE(r->defaultLayout.experts, ws::ExpertLayout::Blocks);
        QCOMPARE(r->best.experts, ws::ExpertLayout::Sliced);
        QVERIFY(r->bestMsPerToken < r->defaultMsPerToken);
        // A dense model: one layout, the base's.
        auto dense = ws::optimizeLayout(wstest::sweepBase("llama-3.1-8b"), o);
        QVERIFY(dense);
        QCOMPARE(total, 1);
    }

    void optimizerCancels()
    {
        ws::OptimizeOptions o;
        o.progress = [](int done, int) { return done < 3; };
        auto r = ws::optimizeLayout(wstest::sweepBase("llama-3.1-8b"), o);
        QVERIFY(!r);
        QCOMPARE(r.error().code, ws::ErrorCode::Cancelled);
    }
};

QTEST_GUILESS_MAIN(TestLayoutSweep)
#include "tst_layoutsweep.moc"
