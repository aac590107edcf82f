// The statistics the prediction ranges answer to: every shipped measured point
// (calibration, development and check rows) predicted in its own configuration
// by the path the app predicts with (predict()), then per group and per device
// kind the rows attempted and predicted, the median absolute error of the
// point, the fraction inside the range, the median range (high / low) and the
// worst rows. A row that cannot be predicted is a miss: 100 % error, outside.
//
// The thresholds (median |error| <= 15 %, >= 70 % inside, median high / low
// < 1.8) were tuned on the rows that are now development rows (looked at while
// modelling, docs/validation.md): they are asserted there, on the same rows
// as before (every development row not marked doubtful), as a regression
// guard, not as a claim of accuracy. Nothing is asserted on the check rows'
// accuracy: they judge future model changes; their figures are printed.
#include "engine/explore/accuracy.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

using namespace ws;

class TestAccuracy : public QObject
{
    Q_OBJECT
private slots:
    void summarizeFollowsTheDefinitions()
    {
        std::vector<AccuracyRow> rows(3);
        rows[0].relativeError = -0.3;
        rows[0].low = 1, rows[0].high = 2, rows[0].inside = true;
        rows[1].relativeError = 0.1;
        rows[1].low = 1, rows[1].high = 1.5, rows[1].inside = false;
        rows[2].relativeError = 0.2;
        rows[2].low = 2, rows[2].high = 6, rows[2].inside = true;
        const AccuracyStats s = summarize(rows);
        QCOMPARE(s.rows, 3);
        QCOMPARE(s.predicted, 3);
        QCOMPARE(s.inside, 2);
        QCOMPARE(s.medianAbsError, 0.2);
        QCOMPARE(s.fractionInside, 2.0 / 3.0);
        QCOMPARE(s.medianRangeRatio, 2.0);
    }

    void aMissCountsAsFullErrorOutsideTheRange()
    {
        std::vector<AccuracyRow> rows(3);
        rows[0].relativeError = 0.1;
        rows[0].low = 1, rows[0].high = 2, rows[0].inside = true;
        rows[1].relativeError = 0.2;
        rows[1].low = 1, rows[1].high = 3, rows[1].inside = true;
        rows[2].miss = true; // e.g. a check row whose model preset is not shipped yet
        const AccuracyStats s = summarize(rows);
        QCOMPARE(s.rows, 3);
        QCOMPARE(s.predicted, 2);
        QCOMPARE(s.inside, 2);
        QCOMPARE(s.medianAbsError, 0.2);       // 0.1, 0.2 and the miss's 1.0
        QCOMPARE(s.fractionInside, 2.0 / 3.0); // the miss is outside
        QCOMPARE(s.medianRangeRatio, 3.0);     // 2, 3 and the miss's unbounded range

        // A point whose preset does not exist is attempted and missed, not dropped.
        MeasuredPoint p;
        p.modelId = "no-such-model";
        p.hardwareId = "wse3";
        p.deviceKind = "wafer";
        p.role = MeasuredRole::Check;
        p.contextTokens = 4096;
        p.value = 1000;
        const AccuracyRow r = assessPoint(p);
        QVERIFY(r.miss);
        QCOMPARE(r.kind, HardwareKind::Wafer);
        QCOMPARE(r.missCode, ErrorCode::NotFound);
        QVERIFY(!r.inside);
    }

    void everyShippedPointIsPredictedAndReported()
    {
        // Shipped data that fails to load is an error, not a quieter table.
        for (const Error& e : shippedDataErrors())
            QFAIL(e.message().c_str());
        const auto& shipped = shippedMeasuredPoints();
        QVERIFY(shipped);
        const auto& points = *shipped;
        QVERIFY(points.size() >= 40);
        std::vector<AccuracyRow> rows;
        std::printf("\n%-12s %-6s %-62s %10s %10s %10s %10s %7s %s\n", "group", "kind", "label", "measured",
                    "predicted", "low", "high", "error", "inside");
        for (const MeasuredPoint& pt : points) {
            const AccuracyRow r = assessPoint(pt);
            rows.push_back(r);
            const std::string role(measuredRoleId(pt.role));
            if (r.miss) {
                // Only a check row may name a preset not shipped yet; any other miss is a configuration the
                // hardware cannot hold (e.g. 145 GB of weights on one 80 GB A100).
                if (pt.role != MeasuredRole::Check)
                    QVERIFY2(r.missCode == ErrorCode::OutOfRange, (pt.label + ": " + r.why).c_str());
                std::printf("%-12s %-6s %-62.62s %10.1f  miss: %s\n", role.c_str(), hardwareKindId(r.kind),
                            pt.label.c_str(), pt.value, r.why.c_str());
                continue;
            }
            QVERIFY(r.predicted > 0 && r.low > 0 && r.low <= r.predicted * (1 + 1e-9) &&
                    r.high >= r.predicted * (1 - 1e-9));
            QCOMPARE(r.inside, pt.value >= r.low && pt.value <= r.high);
            std::printf("%-12s %-6s %-62.62s %10.1f %10.1f %10.1f %10.1f %+6.0f%% %s%s\n", role.c_str(),
                        hardwareKindId(r.kind), pt.label.c_str(), pt.value, r.predicted, r.low, r.high,
                        100 * r.relativeError, r.inside ? "yes" : "no", pt.doubt.empty() ? "" : " (doubtful)");
        }

        std::printf("\n%-28s %-6s %9s %9s %13s %13s %13s\n", "group", "kind", "attempted", "predicted", "median |err|",
                    "inside range", "median hi/lo");
        std::map<std::string, AccuracyStats> byName;
        for (const AccuracyGroup& g : accuracyTable(rows)) {
            const AccuracyStats& s = g.stats;
            QVERIFY(s.predicted <= s.rows && s.inside <= s.predicted);
            if (s.rows > 0)
                QVERIFY(std::isfinite(s.medianAbsError) && s.medianRangeRatio >= 1.0);
            byName[g.group + " / " + g.kind] = s;
            std::printf("%-28s %-6s %9d %9d %12.1f%% %12.0f%% %13.2f\n", g.group.c_str(), g.kind.c_str(), s.rows,
                        s.predicted, 100 * s.medianAbsError, 100 * s.fractionInside, s.medianRangeRatio);
        }
        // Every row lands in exactly one of calibration, development and check.
        QCOMPARE(byName["calibration / all"].rows + byName["development / all"].rows + byName["check / all"].rows,
                 int(rows.size()));

        std::printf("\nworst rows per group (largest |error| first)\n");
        for (const char* group : {"calibration", "development", "check"}) {
            std::vector<AccuracyRow> in;
            for (const AccuracyRow& r : rows)
                if (measuredRoleId(r.point.role) == group)
                    in.push_back(r);
            std::sort(in.begin(), in.end(), [](const AccuracyRow& a, const AccuracyRow& b) {
                return std::abs(a.relativeError) > std::abs(b.relativeError);
            });
            std::printf("%s\n", group);
            for (size_t i = 0; i < std::min<size_t>(3, in.size()); ++i)
                std::printf("    %+6.0f%% %s (%s)%s\n", 100 * in[i].relativeError, in[i].point.label.c_str(),
                            in[i].point.date.c_str(), in[i].miss ? " miss" : "");
        }

        // The regression guard on the rows the thresholds were tuned on: the reference files' development rows
        // not marked doubtful (the rows a calibration file leaves out of its fit are development rows too, but
        // were never among them).
        std::vector<AccuracyRow> guarded;
        for (const AccuracyRow& r : rows)
            if (r.point.role == MeasuredRole::Development && r.point.origin == MeasuredOrigin::Reference &&
                r.point.doubt.empty())
                guarded.push_back(r);
        const AccuracyStats held = summarize(guarded);
        std::printf("\nregression guard on %d development rows (%d predicted, %d inside): median |error| %.2f%%, "
                    "inside %.1f%%, median high/low %.3f (targets 15 %%, 70 %%, 1.8: the first two are not met since "
                    "these rows are predicted by predict() rather than a path of their own)\n",
                    held.rows, held.predicted, held.inside, 100 * held.medianAbsError, 100 * held.fractionInside,
                    held.medianRangeRatio);
        const AccuracyStats check = byName["check / all"];
        std::printf("check rows (not asserted): %d attempted, %d predicted, median |error| %.1f%%, inside %.0f%%, "
                    "median high/low %.2f\n",
                    check.rows, check.predicted, 100 * check.medianAbsError, 100 * check.fractionInside,
                    check.medianRangeRatio);
        // The same 23 rows as before. The thresholds were 15 %, 70 % and 1.8 while ten of these rows were
        // predicted by a path of their own (every layer on WaferLLM's P x P grid, only in this file's engine
        // code); with every row predicted by predict(), as the app predicts, the figures are 22.3 %, 14 of 23
        // inside (one row, LLaMA2-13B 4096/4096 on one WSE-2, cannot be predicted: predict() needs two wafers
        // for it) and 1.56. The guard holds them there: a model change that makes them worse fails.
        QCOMPARE(held.rows, 23);
        QVERIFY2(held.predicted >= 22, "development rows predicted");
        QVERIFY2(held.medianAbsError <= 0.224, "median |error| of the point on the development rows");
        QVERIFY2(held.inside >= 14, "development figures inside the range");
        QVERIFY2(held.medianRangeRatio <= 1.57, "median range width (high / low) on the development rows");
    }

    // WaferLLM's kernel rows timed by the mesh engine (nothing fitted to them): each layer over the whole P x P
    // mesh, layer 0 executed core by core. The engine must time them, not miss them (QWen2-72B's tables would not
    // fit 420 x 420, but the kernel runs none), and must keep the published order: decode slows as the grid grows
    // (communication grows). How far it lands from the figures is printed, not asserted: the engine uses the
    // hardware's unit costs, WaferLLM measured their software's.
    void meshEngineTimesTheKernelRows()
    {
        const auto& shipped = shippedMeasuredPoints();
        QVERIFY(shipped);
        std::map<std::string, AccuracyRow> timed;
        for (const MeasuredPoint& pt : *shipped) {
            if (pt.label != "LLaMA3-8B, WSE-2, 420 x 420" && pt.label != "LLaMA3-8B, WSE-2, 540 x 540" &&
                pt.label != "QWen2-72B, WSE-2, 420 x 420")
                continue;
            const AccuracyRow r = assessPointOnMeshEngine(pt);
            QVERIFY2(!r.miss, (pt.label + ": " + r.why).c_str());
            QVERIFY(r.predicted > 0);
            QCOMPARE(r.relativeError, (r.predicted - pt.value) / pt.value);
            std::printf("%-30s measured %7.1f, mesh engine %7.1f tok/s (%+.0f%%)\n", pt.label.c_str(), pt.value,
                        r.predicted, 100 * r.relativeError);
            timed[pt.label] = r;
        }
        QCOMPARE(timed.size(), size_t(3));
        const AccuracyRow& small = timed["LLaMA3-8B, WSE-2, 420 x 420"];
        const AccuracyRow& large = timed["LLaMA3-8B, WSE-2, 540 x 540"];
        QVERIFY(small.point.value > large.point.value); // the published order
        QVERIFY(small.predicted > large.predicted);
        QVERIFY(timed["QWen2-72B, WSE-2, 420 x 420"].predicted < small.predicted);

        // A row the engine cannot time (no grid: a GPU serving figure) is a miss that says why, not a guess.
        for (const MeasuredPoint& pt : *shipped) {
            if (pt.decodeGrid > 0)
                continue;
            const AccuracyRow r = assessPointOnMeshEngine(pt);
            QVERIFY(r.miss);
            QCOMPARE(r.missCode, ErrorCode::Unsupported);
            QVERIFY(!r.why.empty());
            break;
        }
    }
};

QTEST_APPLESS_MAIN(TestAccuracy)
#include "tst_accuracy.moc"
