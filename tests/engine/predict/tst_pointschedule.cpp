// What a prediction takes from its point's own schedule instead of timing more schedules, each checked against
// the schedules it replaces. The serving stack's kernel-factor ends (predictWaferAt): the time per token is affine
// in the kernel factor, so the ends come from the point's schedule (TokenSchedule::kernelCycles) instead of two
// more predictions; each end must equal what a prediction at that factor gives (predictWafer, point only), as
// predict() computed the stack_kernel_factor driver before; where the pass is not affine (speculative decoding,
// cycles per MAC at the SIMD limit) the ends are those predictions themselves. The wafer's floor (waferFloor):
// the point's schedule times its fixed latencies alongside (TokenSchedule::fixedCycles), as the floor's own
// schedule with no compute, payload or link serialisation times them.
#include "engine/calibration/stackprofile.h"
#include "engine/calibration/wafercalibration.h"
#include "engine/predict/predictor.h"
#include "engine/predict/stackkernel.h"
#include "engine/predict/waferbounds.h"
#include "engine/predict/waferpredictor.h"
#include "engine/wafer/dataflow/schedule.h"
#include "tests/common/presetfixture.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace ws;

namespace {
constexpr double kTolerance = 1e-12; // relative

double relativeDifference(double a, double b)
{
    return std::abs(a - b) / std::max(std::abs(a), std::abs(b));
}

// The old way: a prediction of the point alone at `factor`.
double predictedAt(const ModelConfig& m, const HardwareSpec& hw, const Workload& w, WaferPredictOptions o,
                   double factor)
{
    o.kernelFactor = factor;
    o.pointOnly = true;
    auto p = predictWafer(m, hw, w, o);
    return p ? p->tokensPerSecondPerUser : -1;
}
} // namespace

class TestPointSchedule : public QObject
{
    Q_OBJECT
private slots:
    void scheduleIsAffineInTheFactor_data();
    void scheduleIsAffineInTheFactor();
    void endsEqualPredictionsAtEachFactor_data();
    void endsEqualPredictionsAtEachFactor();
    void notAffineFallsBackToPredictions_data();
    void notAffineFallsBackToPredictions();
    void stackDriverEndsAsPredicted_data();
    void stackDriverEndsAsPredicted();
    void floorFromTheStepsSchedule_data();
    void floorFromTheStepsSchedule();
};

void TestPointSchedule::scheduleIsAffineInTheFactor_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("tokens");
    QTest::newRow("8b") << "llama-3.1-8b" << 1;
    QTest::newRow("70b-two-wafers") << "llama-3.1-70b" << 1;
    QTest::newRow("moe-30b") << "qwen3-30b-a3b" << 1;
    QTest::newRow("32b-micro-batch") << "qwen3-32b" << 8;
}

// Scaling the three fitted constants by 2 adds the pass's kernel cycles once.
void TestPointSchedule::scheduleIsAffineInTheFactor()
{
    QFETCH(QString, model);
    QFETCH(int, tokens);
    const ModelConfig m = wstest::modelPreset(model);
    const HardwareSpec hw = wstest::hardwarePreset("wse3");
    auto setup = prepareWafer(m, hw, Workload{}, {});
    QVERIFY(setup.hasValue());
    ScheduleOptions so;
    so.tokens = tokens;
    so.timingOnly = true;
    TimingParams twice = setup->params;
    twice.macCycles *= 2;
    twice.allreduceFixedCycles *= 2;
    twice.routingStageCycles *= 2;
    const TokenSchedule at1 = buildTokenSchedule(m, setup->layout, TimingModel(setup->params), so);
    const TokenSchedule at2 = buildTokenSchedule(m, setup->layout, TimingModel(twice), so);
    QVERIFY(at1.kernelCycles > 0);
    QVERIFY(at1.kernelCycles < at1.totalCycles);
    QVERIFY2(relativeDifference(at2.totalCycles, at1.totalCycles + at1.kernelCycles) < kTolerance,
             qPrintable(QString::number(at2.totalCycles, 'g', 17) + " vs " +
                        QString::number(at1.totalCycles + at1.kernelCycles, 'g', 17)));
    QVERIFY(relativeDifference(at2.kernelCycles, 2 * at1.kernelCycles) < kTolerance);
    // Kept phases or timing only: the same pass.
    so.timingOnly = false;
    QVERIFY(relativeDifference(buildTokenSchedule(m, setup->layout, TimingModel(setup->params), so).kernelCycles,
                               at1.kernelCycles) < kTolerance);
}

void TestPointSchedule::endsEqualPredictionsAtEachFactor_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("hardware");
    QTest::addColumn<int>("concurrency");
    QTest::addColumn<double>("pointFactor");
    QTest::addColumn<bool>("concatAndStretch");
    QTest::addColumn<double>("defectRate");
    for (const char* model : {"qwen3-0.6b", "llama-3.1-8b", "qwen3-32b", "llama-3.1-70b", "qwen3-30b-a3b",
                              "llama-3.1-405b", "qwen3-235b-a22b"})
        for (const char* hw : {"wse2", "wse3"})
            for (int concurrency : {1, 256})
                QTest::newRow(qPrintable(QString("%1-%2-c%3").arg(model, hw).arg(concurrency)))
                    << model << hw << concurrency << 1.0 << false << 0.0;
    QTest::newRow("70b-wse3-stack-factor") << "llama-3.1-70b"
                                           << "wse3" << 1 << 0.2116 << false << 0.0;
    QTest::newRow("8b-wse3-concat-stretch") << "llama-3.1-8b"
                                            << "wse3" << 4 << 0.5 << true << 0.0;
    QTest::newRow("8b-wse3-defects") << "llama-3.1-8b"
                                     << "wse3" << 1 << 1.0 << false << 0.002;
}

void TestPointSchedule::endsEqualPredictionsAtEachFactor()
{
    QFETCH(QString, model);
    QFETCH(QString, hardware);
    QFETCH(int, concurrency);
    QFETCH(double, pointFactor);
    QFETCH(bool, concatAndStretch);
    QFETCH(double, defectRate);
    const ModelConfig m = wstest::modelPreset(model);
    const HardwareSpec hw = wstest::hardwarePreset(hardware);
    Workload w;
    w.concurrency = concurrency;
    WaferPredictOptions o;
    o.kernelFactor = pointFactor;
    if (concatAndStretch) { // concat placement holds fewer tokens of context
        w.contextTokens = 512;
        o.kv = KvPlacement::Concat;
        o.hopStretch = 1.3;
    }
    o.defects.rate = defectRate;
    // Above the SIMD limit of both wafers' cycles per MAC: WSE-3's stack fits 0.145 to 0.308.
    const double floor = kernelFactorFloor(shippedWaferCalibration()->params, hw.wafer);
    std::vector<double> factors{0.3079, 0.5, 1.0, 2.0, pointFactor};
    factors.push_back(floor * (1 + 1e-9));
    auto at = predictWaferAt(m, hw, w, o, factors);
    QVERIFY2(at.hasValue(), at ? "" : at.error().message().c_str());
    QVERIFY(at->fromPoint); // plain decoding, no factor at the SIMD limit: from the point's schedule
    QCOMPARE(at->tokensPerSecondAt.size(), factors.size());
    // The prediction itself is predictWafer's.
    auto whole = predictWafer(m, hw, w, o);
    QVERIFY(whole.hasValue());
    QCOMPARE(at->prediction.tokensPerSecondPerUser, whole->tokensPerSecondPerUser);
    QCOMPARE(at->prediction.ttftSeconds, whole->ttftSeconds);
    for (size_t i = 0; i < factors.size(); ++i) {
        QVERIFY(at->tokensPerSecondAt[i].has_value());
        const double expected = predictedAt(m, hw, w, o, factors[i]);
        QVERIFY(expected > 0);
        QVERIFY2(relativeDifference(*at->tokensPerSecondAt[i], expected) < kTolerance,
                 qPrintable(QString("factor %1: %2 vs %3")
                                .arg(factors[i])
                                .arg(*at->tokensPerSecondAt[i], 0, 'g', 17)
                                .arg(expected, 0, 'g', 17)));
    }
    // The point's own factor gives the point exactly.
    QCOMPARE(*at->tokensPerSecondAt[4], at->prediction.tokensPerSecondPerUser);
}

void TestPointSchedule::notAffineFallsBackToPredictions_data()
{
    QTest::addColumn<bool>("speculative");
    QTest::addColumn<double>("factor");
    QTest::newRow("speculative") << true << 0.5;
    QTest::newRow("below-the-simd-limit") << false << 0.05;
}

// Speculative decoding times other passes than the point's, and a factor under the SIMD limit is clamped: the
// ends are then the predictions at each factor, exactly.
void TestPointSchedule::notAffineFallsBackToPredictions()
{
    QFETCH(bool, speculative);
    QFETCH(double, factor);
    const ModelConfig m = wstest::modelPreset("llama-3.1-70b");
    const HardwareSpec hw = wstest::hardwarePreset("wse3");
    Workload w;
    w.speculative.enabled = speculative;
    auto at = predictWaferAt(m, hw, w, {}, {factor, 2.0});
    QVERIFY(at.hasValue());
    QVERIFY(!at->fromPoint);
    QCOMPARE(*at->tokensPerSecondAt[0], predictedAt(m, hw, w, {}, factor));
    QCOMPARE(*at->tokensPerSecondAt[1], predictedAt(m, hw, w, {}, 2.0));
}

void TestPointSchedule::stackDriverEndsAsPredicted_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("concurrency");
    QTest::newRow("8b") << "llama-3.1-8b" << 1;
    QTest::newRow("70b") << "llama-3.1-70b" << 16;
    QTest::newRow("405b") << "llama-3.1-405b" << 1;
    QTest::newRow("moe-235b") << "qwen3-235b-a22b" << 64;
}

// predict()'s stack_kernel_factor driver on WSE-3: its ends are the point predicted at the stack's low and high
// factors, as they were when predict() predicted them.
void TestPointSchedule::stackDriverEndsAsPredicted()
{
    QFETCH(QString, model);
    QFETCH(int, concurrency);
    const ModelConfig m = wstest::modelPreset(model);
    const HardwareSpec hw = wstest::hardwarePreset("wse3");
    const StackProfile* stack = stackFor(hw.id, std::nullopt);
    QVERIFY(stack);
    const auto& kernel = stackKernel(*stack);
    QVERIFY(kernel.hasValue());
    QVERIFY(kernel->high > kernel->low);
    Workload w;
    w.concurrency = concurrency;
    auto p = predict(m, hw, w);
    QVERIFY(p.hasValue());
    const auto driver = std::find_if(p->rangeDrivers.begin(), p->rangeDrivers.end(),
                                     [](const RangeDriver& d) { return d.input == "stack_kernel_factor"; });
    QVERIFY(driver != p->rangeDrivers.end());
    QCOMPARE(driver->low, kernel->low);
    QCOMPARE(driver->high, kernel->high);
    QVERIFY(relativeDifference(driver->tokensPerSecondAtLow, predictedAt(m, hw, w, {}, kernel->low)) < kTolerance);
    QVERIFY(relativeDifference(driver->tokensPerSecondAtHigh, predictedAt(m, hw, w, {}, kernel->high)) < kTolerance);
    // And the point is the prediction at the stack's factor.
    QCOMPARE(p->tokensPerSecondPerUser, predictedAt(m, hw, w, {}, kernel->factor));
}

void TestPointSchedule::floorFromTheStepsSchedule_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("hardware");
    QTest::addColumn<int>("tokens");
    QTest::addColumn<bool>("concat");
    for (const char* model : {"qwen3-0.6b", "llama-3.1-8b", "gemma-3-27b", "llama-3.1-70b", "qwen3-30b-a3b",
                              "llama-3.1-405b", "qwen3-235b-a22b"})
        for (const char* hw : {"wse2", "wse3"})
            for (int tokens : {1, 16})
                QTest::newRow(qPrintable(QString("%1-%2-t%3").arg(model, hw).arg(tokens)))
                    << model << hw << tokens << false;
    QTest::newRow("8b-wse3-concat") << "llama-3.1-8b"
                                    << "wse3" << 4 << true;
    QTest::newRow("moe-30b-wse3-concat") << "qwen3-30b-a3b"
                                         << "wse3" << 4 << true;
}

// The floor from the step's schedule equals the floor's own schedule, component by component.
void TestPointSchedule::floorFromTheStepsSchedule()
{
    QFETCH(QString, model);
    QFETCH(QString, hardware);
    QFETCH(int, tokens);
    QFETCH(bool, concat);
    const ModelConfig m = wstest::modelPreset(model);
    const HardwareSpec hw = wstest::hardwarePreset(hardware);
    Workload w;
    if (concat)
        w.contextTokens = 512;
    auto setup = prepareWafer(m, hw, w, {});
    QVERIFY(setup.hasValue());
    ScheduleOptions so;
    so.tokens = tokens;
    so.context = w.contextTokens;
    so.kv = concat ? KvPlacement::Concat : KvPlacement::Shift;
    so.timingOnly = true;
    const TokenSchedule step = buildTokenSchedule(m, setup->layout, TimingModel(setup->params), so);
    QVERIFY(step.fixedCycles > 0 && step.fixedCycles < step.totalCycles);
    const Floor own = waferFloor(m, hw, w, *setup, so);
    const Floor fromStep = waferFloor(m, hw, w, *setup, so, &step);
    QVERIFY2(relativeDifference(fromStep.seconds, own.seconds) < kTolerance,
             qPrintable(QString::number(fromStep.seconds, 'g', 17) + " vs " + QString::number(own.seconds, 'g', 17)));
    QCOMPARE(fromStep.components.size(), own.components.size());
    for (size_t i = 0; i < own.components.size(); ++i) {
        QCOMPARE(fromStep.components[i].id, own.components[i].id);
        QVERIFY(relativeDifference(fromStep.components[i].seconds, own.components[i].seconds) < kTolerance);
    }
    // Kept phases or timing only: the same fixed latencies.
    so.timingOnly = false;
    const TokenSchedule kept = buildTokenSchedule(m, setup->layout, TimingModel(setup->params), so);
    QVERIFY(relativeDifference(kept.fixedCycles, step.fixedCycles) < kTolerance);
}

QTEST_GUILESS_MAIN(TestPointSchedule)
#include "tst_pointschedule.moc"
