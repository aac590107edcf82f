// Ranges from named uncertainties and hard ceilings: every model preset on
// every hardware preset stays at or below its ceiling with a range around the
// point made of sourced drivers; the root-sum-square combination and the cut
// to the ceiling on hand-made predictions; known ceilings and drivers.
#include "engine/calibration/stackprofile.h"
#include "engine/calibration/wafercalibration.h"
#include "engine/predict/predictionutil.h"
#include "engine/predict/predictor.h"
#include "engine/predict/stackkernel.h"
#include "tests/common/presetfixture.h"

#include <QDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace ws;

namespace {
const RangeDriver* driver(const Prediction& p, const std::string& input)
{
    for (const RangeDriver& d : p.rangeDrivers)
        if (d.input == input)
            return &d;
    return nullptr;
}
} // namespace

class TestRangeCeiling : public QObject
{
    Q_OBJECT
private slots:
    void neverAboveTheCeiling_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("hardware");
        QTest::addColumn<int>("batch");
        const QStringList models = wstest::presetIds("models");
        const QStringList hardware = wstest::presetIds("hardware");
        QVERIFY(models.size() >= 20 && hardware.size() >= 7);
        for (const QString& m : models)
            for (const QString& h : hardware)
                for (int b : {1, 64})
                    QTest::newRow(qPrintable(m + "@" + h + "/" + QString::number(b))) << m << h << b;
    }

    void neverAboveTheCeiling()
    {
        QFETCH(QString, model);
        QFETCH(QString, hardware);
        QFETCH(int, batch);
        const ModelConfig m = wstest::modelPreset(qPrintable(model));
        const HardwareSpec hw = wstest::hardwarePreset(qPrintable(hardware));
        Workload w;
        w.precision = m.nativePrecision;
        w.concurrency = batch;
        auto p = predict(m, hw, w);
        if (!p) {
            QCOMPARE(p.error().code, ErrorCode::OutOfRange); // too large for the preset, with the count it needs
            return;
        }
        const Ceiling& c = p->ceiling;
        QVERIFY2(c.tokensPerSecondPerUser > 0, "every prediction carries its ceiling");
        QVERIFY(c.bound == "memory" || c.bound == "compute" || c.bound == "fabric");
        QVERIFY(c.peakBytesPerS > 0 && c.peakFlopsPerS > 0 && c.bytesPerStep > 0 && c.flopsPerStep > 0);
        QVERIFY2(!c.clamped, "the model itself stays below its ceiling");
        QVERIFY(p->tokensPerSecondPerUser <= c.tokensPerSecondPerUser * (1 + 1e-12));
        const Range& r = p->tokensPerSecondPerUserRange;
        QVERIFY(r.high <= c.tokensPerSecondPerUser * (1 + 1e-12));
        QVERIFY(r.low > 0 && r.low <= p->tokensPerSecondPerUser && p->tokensPerSecondPerUser <= r.high);
        QVERIFY2(!p->rangeDrivers.empty(), "the range is made of named inputs");
        double shares = 0;
        for (size_t i = 0; i < p->rangeDrivers.size(); ++i) {
            const RangeDriver& d = p->rangeDrivers[i];
            QVERIFY2(!d.source.empty() && !d.input.empty(), d.input.c_str());
            QVERIFY(d.low <= d.high);
            QVERIFY(d.effect >= 1.0);
            if (i > 0)
                QVERIFY(p->rangeDrivers[i - 1].effect >= d.effect); // largest first
            // Each driver alone stays inside the combined range.
            QVERIFY(std::min(d.tokensPerSecondAtLow, d.tokensPerSecondAtHigh) >= r.low * (1 - 1e-9));
            QVERIFY(std::max(d.tokensPerSecondAtLow, d.tokensPerSecondAtHigh) <= r.high * (1 + 1e-9) ||
                    r.high == c.tokensPerSecondPerUser);
            shares += d.share;
        }
        if (r.high > r.low)
            QVERIFY(std::abs(shares - 1.0) < 1e-9);
    }

    // Dollars per million output tokens = the devices' hourly cost / tokens per hour, for every hardware preset.
    void costPerMillionTokens_data()
    {
        QTest::addColumn<QString>("hardware");
        QTest::addColumn<int>("batch");
        for (const QString& h : wstest::presetIds("hardware"))
            for (int b : {1, 16})
                QTest::newRow(qPrintable(h + "/" + QString::number(b))) << h << b;
    }

    void costPerMillionTokens()
    {
        QFETCH(QString, hardware);
        QFETCH(int, batch);
        const HardwareSpec hw = wstest::hardwarePreset(qPrintable(hardware));
        QVERIFY2(hw.cost.usd > 0 && hw.cost.lowUsd <= hw.cost.usd && hw.cost.usd <= hw.cost.highUsd,
                 "every hardware preset has an hourly cost with a range");
        QVERIFY(!hw.sources.at("hourlyCostUsd").empty());
        Workload w;
        w.concurrency = batch;
        w.precision = Precision::Fp8;
        auto p = predict(wstest::modelPreset("llama-3.1-8b"), hw, w);
        QVERIFY(p);
        const TokenCost& c = p->cost;
        QVERIFY(c.known);
        QCOMPARE(c.source, hw.sources.at("hourlyCostUsd"));
        const double tokensPerHour = p->aggregateTokensPerSecond * 3600.0;
        QVERIFY(std::abs(c.usdPerMillionTokens / (hw.cost.usd * p->devices / tokensPerHour * 1e6) - 1) < 1e-12);
        QVERIFY(c.usdPerMillionTokensRange.low <= c.usdPerMillionTokens);
        QVERIFY(c.usdPerMillionTokens <= c.usdPerMillionTokensRange.high);
        // The dear end: the dear hour at the slow end of the speed range, on the devices the slowest driver end
        // needs (issue 28: a range pays for its hardware), or at the point if that costs more.
        int slowDevices = p->devices;
        for (const RangeDriver& d : p->rangeDrivers) {
            if (d.devicesAtLow > 0 && d.tokensPerSecondAtLow < p->tokensPerSecondPerUser)
                slowDevices = std::max(slowDevices, d.devicesAtLow);
            if (d.devicesAtHigh > 0 && d.tokensPerSecondAtHigh < p->tokensPerSecondPerUser)
                slowDevices = std::max(slowDevices, d.devicesAtHigh);
        }
        const double dear = std::max(hw.cost.highUsd * slowDevices /
                                         (p->tokensPerSecondPerUserRange.low * p->concurrency * 3600.0) * 1e6,
                                     hw.cost.highUsd * p->devices / tokensPerHour * 1e6);
        QVERIFY(std::abs(c.usdPerMillionTokensRange.high / dear - 1) < 1e-12);
        QVERIFY(c.devicesRange.low == p->devices && c.devicesRange.high >= slowDevices);
    }

    // Issue 28: a driver that needs more devices carries its count and the cost range pays for it. Llama-3.1-70B
    // on WSE-3: WaferLLM's policy (each of 80 layers on 420 x 420 cores, 14.1 M cores) needs ceil(14.1 M / the
    // usable mesh) wafers, not the 4 the point places on; Groq's 1.7x chips for Llama-2-70B likewise.
    void rangesPayForTheirDevices()
    {
        auto wafer = predict(wstest::modelPreset("llama-3.1-70b"), wstest::hardwarePreset("wse3"), Workload{});
        QVERIFY(wafer);
        const RangeDriver* policy = driver(*wafer, "placement_policy");
        QVERIFY(policy);
        const HardwareSpec wse3 = wstest::hardwarePreset("wse3");
        const int64_t mesh = int64_t(wse3.wafer.usableCols()) * wse3.wafer.usableRows();
        QCOMPARE(policy->devicesAtHigh, int((80LL * 420 * 420 + mesh - 1) / mesh));
        QVERIFY(policy->devicesAtHigh > wafer->devices);
        QCOMPARE(wafer->cost.devicesRange.high, double(policy->devicesAtHigh));
        // Its fast end costs more wafers than it saves time: the cheap end stays the cheap hour at the point.
        const double cheapAtPoint = wse3.cost.lowUsd * wafer->devices / (wafer->aggregateTokensPerSecond * 3600) * 1e6;
        QVERIFY(wafer->cost.usdPerMillionTokensRange.low <= cheapAtPoint * (1 + 1e-12));
        Workload fp8;
        fp8.precision = Precision::Fp8;
        auto groq = predict(wstest::modelPreset("llama-2-70b"), wstest::hardwarePreset("groq-lpu"), fp8);
        QVERIFY(groq);
        const RangeDriver* chips = driver(*groq, "chips");
        QVERIFY(chips);
        QCOMPARE(chips->devicesAtHigh, int(std::ceil(groq->devices * 1.7)));
    }

    // Independent log effects add in quadrature, below and above the point separately.
    void rootSumSquareInLogSpace()
    {
        Prediction p;
        p.concurrency = 1;
        p.tokensPerSecondPerUser = 100;
        p.secondsPerToken = 0.01;
        p.rangeDrivers.push_back(rangeDriver("a", "", 1, 0, 2, "test", 100, 80, 125));
        p.rangeDrivers.push_back(rangeDriver("b", "", 1, 0, 2, "test", 100, 90, 100));
        QCOMPARE(p.rangeDrivers[0].effect, 125.0 / 80.0);
        finishRange(p);
        // low = 100 exp(-sqrt(ln(1.25)^2 + ln(100/90)^2)) = 78.132; high = 100 exp(ln 1.25) = 125.
        QVERIFY(std::abs(p.tokensPerSecondPerUserRange.low - 78.1323) < 1e-3);
        QVERIFY(std::abs(p.tokensPerSecondPerUserRange.high - 125.0) < 1e-9);
        QCOMPARE(p.rangeDrivers.front().input, std::string("a"));
        // shares: ln(1.5625)^2 : ln(100/90)^2 = 0.19917 : 0.01110
        QVERIFY(std::abs(p.rangeDrivers.front().share - 0.94721) < 1e-4);
    }

    void aboveTheCeilingIsCut()
    {
        Prediction p;
        p.concurrency = 2;
        p.tokensPerSecondPerUser = 500;
        p.secondsPerToken = 0.002;
        p.rangeDrivers.push_back(rangeDriver("a", "", 1, 0, 2, "test", 500, 400, 600));
        p.ceiling.peakBytesPerS = 1e12;
        p.ceiling.bytesPerStep = 4e9; // 250 steps/s
        p.ceiling.peakFlopsPerS = 1e15;
        p.ceiling.flopsPerStep = 1e12; // 1000 steps/s
        finishRange(p);
        QCOMPARE(p.ceiling.bound, std::string("memory"));
        QCOMPARE(p.ceiling.tokensPerSecondPerUser, 250.0);
        QVERIFY(p.ceiling.clamped);
        QCOMPARE(p.tokensPerSecondPerUser, 250.0);
        QCOMPARE(p.aggregateTokensPerSecond, 500.0);
        QCOMPARE(p.tokensPerSecondPerUserRange.high, 250.0);
        QVERIFY(p.tokensPerSecondPerUserRange.low <= 250.0);
        QCOMPARE(p.ceiling.arithmeticIntensity(), 250.0);
    }

    // H100 at batch 1: 3.35 TB/s over Llama-3.1-8B's ~15.0 GB of 16-bit weights and 0.54 GB of KV at 4K
    // (facts §3, §1.3): about 215.6 tokens/s; arithmetic intensity about 1 FLOP per byte.
    void gpuCeilingIsHbmOverBytes()
    {
        const ModelConfig m = wstest::modelPreset("llama-3.1-8b");
        auto p = predict(m, wstest::hardwarePreset("h100"), Workload{});
        QVERIFY(p);
        QCOMPARE(p->ceiling.bound, std::string("memory"));
        QVERIFY(std::abs(p->ceiling.tokensPerSecondPerUser / 215.6 - 1) < 0.02);
        QVERIFY(p->ceiling.arithmeticIntensity() > 0.8 && p->ceiling.arithmeticIntensity() < 1.2);
        QVERIFY(driver(*p, "hbm_efficiency") && driver(*p, "layer_overhead_s") && driver(*p, "provider_batch"));
        QVERIFY(!driver(*p, "allreduce_step_s")); // one GPU: no all-reduce
        auto tp = predict(wstest::modelPreset("llama-3.1-70b"), wstest::hardwarePreset("h100"), Workload{});
        QVERIFY(tp && tp->devices > 1 && driver(*tp, "allreduce_step_s"));
    }

    // WSE-3's clock is not published: 0.85 GHz (Cerebras SDK example) to 1.1 GHz (WaferLLM); the point uses
    // 1.1 GHz, so with the launch stack (WaferLLM's cycles, nothing fitted on WSE-3) the clock alone puts figures
    // down to 0.85/1.1 of the point inside the range.
    void waferRangeReachesBelowThePoint()
    {
        PredictOptions launch;
        launch.asOf = parseYearMonth("2024-09");
        auto p = predict(wstest::modelPreset("llama-3.1-8b"), wstest::hardwarePreset("wse3"), Workload{}, launch);
        QVERIFY(p);
        QCOMPARE(p->stack, std::string("cerebras-inference-2024-08"));
        const RangeDriver* clock = driver(*p, "clock_hz");
        QVERIFY(clock);
        QCOMPARE(clock->low, 0.85e9);
        QCOMPARE(clock->high, 1.1e9);
        QVERIFY(std::abs(clock->tokensPerSecondAtLow / p->tokensPerSecondPerUser - 0.85 / 1.1) < 0.01);
        QVERIFY(p->tokensPerSecondPerUserRange.low <= p->tokensPerSecondPerUser * 0.85 / 1.1);
        QVERIFY(driver(*p, "kernel_cycles_per_mac"));
        QVERIFY(!driver(*p, "wafer_link_latency_s")); // one wafer
        auto two = predict(wstest::modelPreset("llama-3.1-70b"), wstest::hardwarePreset("wse3"), Workload{});
        QVERIFY(two && two->devices > 1 && driver(*two, "wafer_link_latency_s"));
        // WSE-2's clock is known (1.1 GHz, WLLM §7): no clock driver.
        auto wse2 = predict(wstest::modelPreset("llama-3.1-8b"), wstest::hardwarePreset("wse2"), Workload{});
        QVERIFY(wse2 && !driver(*wse2, "clock_hz"));
    }

    // A stack whose kernel factor is fitted on WSE-3 rows (cerebras-inference-2024-10) fixes the seconds of the
    // cycles the factor scales, not the clock: had the clock been 0.85 GHz, the fit would have found a factor at
    // most 0.85/1.1 of the nominal one (less where hops and wavelets, which it does not scale, take longer). Each
    // clock end is timed with its own fit, so the clock moves a fit row's model by its share of unscaled cycles
    // only, instead of by 0.85/1.1 a second time.
    void aFittedStackIsRefittedAtEachClockEnd()
    {
        const std::optional<YearMonth> month = parseYearMonth("2024-10");
        const StackProfile* stack = stackFor("wse3", month);
        QVERIFY(stack && stack->fitKernel);
        const auto& nominal = stackKernel(*stack);
        const auto& slow = stackKernelAt(*stack, 0.85e9);
        QVERIFY(nominal && slow);
        QCOMPARE(slow->rows.size(), nominal->rows.size());
        const double floor = kernelFactorFloor(shippedWaferCalibration()->params, wstest::hardwarePreset("wse3").wafer);
        for (size_t i = 0; i < slow->rows.size(); ++i) {
            const double ratio = slow->rows[i].factor / nominal->rows[i].factor;
            QVERIFY2(
                ratio <= 0.85 / 1.1 * 1.001 || slow->rows[i].factor <= floor * 1.001,
                qPrintable(QString::fromStdString(slow->rows[i].row) + QStringLiteral(": ") + QString::number(ratio)));
            QVERIFY(slow->rows[i].factor >= floor * 0.999); // never past the core's SIMD limit
            QVERIFY(!nominal->rows[i].atFloor || slow->rows[i].atFloor);
        }
        QVERIFY(slow->factor < nominal->factor);
        PredictOptions o;
        o.asOf = month;
        auto p = predict(wstest::modelPreset("llama-3.1-70b"), wstest::hardwarePreset("wse3"), Workload{}, o);
        QVERIFY(p);
        QCOMPARE(p->stack, stack->id);
        const RangeDriver* clock = driver(*p, "clock_hz");
        QVERIFY(clock);
        // Slower at 0.85 GHz (hops at alpha cycles take longer), but by far less than 0.85/1.1 (0.773).
        QVERIFY2(clock->tokensPerSecondAtLow < p->tokensPerSecondPerUser &&
                     clock->tokensPerSecondAtLow > 0.9 * p->tokensPerSecondPerUser,
                 qPrintable(QString::number(clock->tokensPerSecondAtLow / p->tokensPerSecondPerUser)));
        QCOMPARE(clock->tokensPerSecondAtHigh, p->tokensPerSecondPerUser); // 1.1 GHz is the point's clock
        QVERIFY(clock->source.find("refitted") != std::string::npos);      // the tooltip says why the effect is small
        // A factor given by the caller (what it would take) is not the fit's: the clock counts in full.
        o.kernelFactor = nominal->factor;
        auto given = predict(wstest::modelPreset("llama-3.1-70b"), wstest::hardwarePreset("wse3"), Workload{}, o);
        QVERIFY(given);
        const RangeDriver* full = driver(*given, "clock_hz");
        QVERIFY(full && full->tokensPerSecondAtLow < 0.8 * given->tokensPerSecondPerUser);
        QVERIFY(full->source.find("refitted") == std::string::npos);
    }

    void groqDriversAreChipsAndExchanges()
    {
        Workload w;
        w.precision = Precision::Fp8; // as Groq serves it (facts §1.2)
        auto p = predict(wstest::modelPreset("llama-2-70b"), wstest::hardwarePreset("groq-lpu"), w);
        QVERIFY(p);
        const RangeDriver* c2c = driver(*p, "chip_to_chip_s");
        QVERIFY(c2c && c2c->low < c2c->high);
        QVERIFY(driver(*p, "chips"));
        PredictOptions given;
        given.devices = 576;
        auto fixed = predict(wstest::modelPreset("llama-2-70b"), wstest::hardwarePreset("groq-lpu"), w, given);
        QVERIFY(fixed && !driver(*fixed, "chips")); // a given chip count is known
        // One token's 80 layers run in turn, each on 576 / 80 = 7.2 chips: their SRAM bandwidth over the token's
        // bytes (80 TB/s per chip, [TechPowerUp-Groq]), not all 576 chips' at once (the 393,000 tokens/s ceiling
        // issue 28 saw).
        QCOMPARE(fixed->ceiling.peakBytesPerS, 576.0 / 80 * 80e12);
        const double bytes = fixed->ceiling.bytesPerStep;
        QVERIFY(bytes > 70e9 * 0.99); // 70B parameters at one byte, and the KV cache
        QVERIFY(std::abs(fixed->ceiling.tokensPerSecondPerUser / (576.0 / 80 * 80e12 / bytes) - 1) < 1e-9);
        // 8,200 tokens/s against a point near 270: the point's chip-to-chip exchanges are the gap, and it says so.
        QVERIFY(fixed->ceiling.tokensPerSecondPerUser > kCeilingGapExplained * fixed->tokensPerSecondPerUser);
        QVERIFY2(fixed->ceiling.gap.find("% in chip_to_chip") != std::string::npos, fixed->ceiling.gap.c_str());
        // One chip holds several of a small model's layers: one chip's bandwidth.
        PredictOptions few;
        few.devices = 8;
        auto small = predict(wstest::modelPreset("qwen3-0.6b"), wstest::hardwarePreset("groq-lpu"), w, few);
        QVERIFY(small);
        QCOMPARE(small->ceiling.peakBytesPerS, 80e12);
    }

    // Issue 28: no ceiling more than 20x above its own point at batch 1 unless it says why: the point's largest
    // phases, the time the roof leaves out (e.g. Groq's chip-to-chip exchanges for a mixture of experts).
    void farCeilingsSayWhy_data() { neverAboveTheCeiling_data(); }
    void farCeilingsSayWhy()
    {
        QFETCH(QString, model);
        QFETCH(QString, hardware);
        QFETCH(int, batch);
        if (batch != 1)
            return;
        Workload w;
        w.precision = wstest::modelPreset(qPrintable(model)).nativePrecision;
        auto p = predict(wstest::modelPreset(qPrintable(model)), wstest::hardwarePreset(qPrintable(hardware)), w);
        if (!p)
            return; // too large for the preset: neverAboveTheCeiling checks the error
        const double ratio = p->ceiling.tokensPerSecondPerUser / p->tokensPerSecondPerUser;
        if (ratio <= kCeilingGapExplained) {
            QVERIFY2(p->ceiling.gap.empty(), p->ceiling.gap.c_str());
            return;
        }
        const auto largest =
            std::max_element(p->breakdown.begin(), p->breakdown.end(),
                             [](const PhaseTime& a, const PhaseTime& b) { return a.seconds < b.seconds; });
        QVERIFY(largest != p->breakdown.end());
        QVERIFY2(p->ceiling.gap.find(largest->id) != std::string::npos, p->ceiling.gap.c_str());
        QVERIFY2(p->ceiling.gap.find(std::to_string(std::llround(ratio)) + "x below") != std::string::npos,
                 p->ceiling.gap.c_str());
    }
};

QTEST_GUILESS_MAIN(TestRangeCeiling)
#include "tst_rangeceiling.moc"
