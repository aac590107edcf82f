// The statistics the prediction ranges answer to: every shipped measured point
// (calibration rows and reference rows) predicted in its own configuration,
// then per origin and per device kind the median absolute error of the point,
// the fraction inside the range, the median range (high / low) and the worst
// rows. The acceptance thresholds (median |error| <= 15 %, >= 70 % inside,
// median high / low < 1.8) are asserted on the reference rows, which no fit
// uses: every one not marked doubtful, each predicted in its own
// configuration (speculative decoding on where its source says so, a range
// spanning off to on where the source does not say and the vendor is known to
// use it).
#include "engine/explore/accuracy.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

using namespace ws;

namespace {
const char* kindName(HardwareKind k)
{
    return k == HardwareKind::Wafer ? "wafer" : k == HardwareKind::Gpu ? "gpu" : "lpu";
}
} // namespace

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
        QCOMPARE(s.medianAbsError, 0.2);
        QCOMPARE(s.fractionInside, 2.0 / 3.0);
        QCOMPARE(s.medianRangeRatio, 2.0);
    }

    void everyShippedPointIsPredictedAndReported()
    {
        const auto& points = shippedMeasuredPoints();
        QVERIFY(points.size() >= 40);
        std::map<std::string, std::vector<AccuracyRow>> groups;
        int reference = 0;
        std::printf("\n%-12s %-6s %-62s %10s %10s %10s %10s %7s %s\n", "origin", "kind", "label", "measured",
                    "predicted", "low", "high", "error", "inside");
        for (const MeasuredPoint& pt : points) {
            auto r = assessPoint(pt);
            if (!r) {
                // A configuration the hardware cannot hold (e.g. 145 GB of weights on one 80 GB A100).
                QVERIFY2(r.error().code == ErrorCode::OutOfRange, (pt.label + ": " + r.error().message()).c_str());
                std::printf("%-12s %-6s %-62.62s %10.1f  no prediction: %s\n",
                            std::string(measuredOriginId(pt.origin)).c_str(), "", pt.label.c_str(), pt.value,
                            r.error().text.c_str());
                continue;
            }
            QVERIFY(r->predicted > 0 && r->low > 0 && r->low <= r->predicted * (1 + 1e-9) &&
                    r->high >= r->predicted * (1 - 1e-9));
            QCOMPARE(r->inside, pt.value >= r->low && pt.value <= r->high);
            const std::string origin(measuredOriginId(pt.origin));
            reference += pt.origin == MeasuredOrigin::Reference ? 1 : 0;
            std::printf("%-12s %-6s %-62.62s %10.1f %10.1f %10.1f %10.1f %+6.0f%% %s%s\n", origin.c_str(),
                        kindName(r->kind), pt.label.c_str(), pt.value, r->predicted, r->low, r->high,
                        100 * r->relativeError, r->inside ? "yes" : "no", pt.doubt.empty() ? "" : " (doubtful)");
            const std::string group = origin + (pt.doubt.empty() ? "" : " (doubtful)");
            groups[group + " / " + kindName(r->kind)].push_back(*r);
            groups[group + " / all"].push_back(*r);
            if (pt.origin == MeasuredOrigin::Reference && pt.doubt.empty())
                groups["reference / asserted"].push_back(*r);
            if (pt.speculative != Tristate::No)
                groups[origin + " (speculative " + std::string(tristateId(pt.speculative)) + ") / all"].push_back(*r);
        }
        QVERIFY(reference >= 20);
        std::printf("\n%-40s %5s %14s %14s %14s\n", "group", "rows", "median |err|", "inside range", "median hi/lo");
        for (const auto& [name, rows] : groups) {
            const AccuracyStats s = summarize(rows);
            QVERIFY(std::isfinite(s.medianAbsError) && s.medianRangeRatio >= 1.0);
            std::printf("%-40s %5d %13.1f%% %13.0f%% %14.2f\n", name.c_str(), s.rows, 100 * s.medianAbsError,
                        100 * s.fractionInside, s.medianRangeRatio);
        }
        std::printf("\nworst rows per group (largest |error| first)\n");
        for (const auto& [name, rows] : groups) {
            std::vector<AccuracyRow> sorted = rows;
            std::sort(sorted.begin(), sorted.end(), [](const AccuracyRow& a, const AccuracyRow& b) {
                return std::abs(a.relativeError) > std::abs(b.relativeError);
            });
            std::printf("%s\n", name.c_str());
            for (size_t i = 0; i < std::min<size_t>(3, sorted.size()); ++i)
                std::printf("    %+6.0f%% %s (%s)\n", 100 * sorted[i].relativeError, sorted[i].point.label.c_str(),
                            sorted[i].point.date.c_str());
        }

        // The acceptance on the reference rows.
        const AccuracyStats held = summarize(groups["reference / asserted"]);
        std::printf("\nacceptance on %d reference rows: median |error| %.1f%% (<= 15%%), inside %.0f%% (>= 70%%), "
                    "median high/low %.2f (< 1.8)\n",
                    held.rows, 100 * held.medianAbsError, 100 * held.fractionInside, held.medianRangeRatio);
        QVERIFY(held.rows >= 15);
        QVERIFY2(held.medianAbsError <= 0.15, "median |error| of the point on the reference rows");
        QVERIFY2(held.fractionInside >= 0.70, "share of reference figures inside the range");
        QVERIFY2(held.medianRangeRatio < 1.8, "median range width (high / low) on the reference rows");
    }
};

QTEST_APPLESS_MAIN(TestAccuracy)
#include "tst_accuracy.moc"
