// predict() for every model preset on every hardware preset, GPU and LPU
// behaviour, calibration profiles (shipped and user-fitted).
#include "engine/calibration/calibrationprofile.h"
#include "engine/calibration/gpucalibration.h"
#include "engine/predict/gpupredictor.h"
#include "engine/predict/lpupredictor.h"
#include "engine/predict/predictor.h"
#include "tests/common/presetfixture.h"

#include <QDir>
#include <QTest>

#include <cmath>

using namespace ws;

class TestPredictor : public QObject
{
    Q_OBJECT
private slots:
    void everyModelOnEveryHardware_data();
    void everyModelOnEveryHardware();
    void gpuTooFewDevices();
    void gpuConcurrencyTradesLatencyForThroughput();
    void gpuTensorParallelHelpsLessThanLinearly();
    void groqFitsItsMeasurements();
    void groqSeventyBChipCount();
    void shippedProfiles();
    void userProfileFits();
    void userGpuProfileDrivesPrediction();
    void lessDetailKeepsThePoint_data();
    void lessDetailKeepsThePoint();
    void rejectsNonsense_data();
    void rejectsNonsense();
};

void TestPredictor::everyModelOnEveryHardware_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("hardware");
    const QStringList models = wstest::presetIds("models");
    const QStringList hardware = wstest::presetIds("hardware");
    QVERIFY(models.size() >= 20 && hardware.size() >= 7);
    for (const QString& m : models)
        for (const QString& h : hardware)
            QTest::newRow(qPrintable(m + "@" + h)) << m << h;
}

void TestPredictor::everyModelOnEveryHardware()
{
    QFETCH(QString, model);
    QFETCH(QString, hardware);
    const ModelConfig m = wstest::modelPreset(model.toLatin1().constData());
    const HardwareSpec hw = wstest::hardwarePreset(hardware.toLatin1().constData());
    Workload w;
    w.contextTokens = 2048;
    auto p = predict(m, hw, w);
    QVERIFY2(p.hasValue(), p ? "" : p.error().message().c_str());
    QVERIFY(p->devices >= 1 && p->devices == p->devicesNeeded);
    QVERIFY(std::isfinite(p->tokensPerSecondPerUser) && p->tokensPerSecondPerUser > 0);
    QVERIFY(p->tokensPerSecondPerUserRange.low <= p->tokensPerSecondPerUser * (1 + 1e-12));
    QVERIFY(p->tokensPerSecondPerUserRange.high >= p->tokensPerSecondPerUser * (1 - 1e-12));
    QVERIFY(p->ttftSeconds > 0 && std::isfinite(p->ttftSeconds));
    QVERIFY(p->aggregateTokensPerSecond >= p->tokensPerSecondPerUser * (1 - 1e-12));
    double sum = 0;
    for (const auto& b : p->breakdown)
        sum += b.seconds;
    QVERIFY(std::abs(sum - p->secondsPerToken) < 1e-9 * p->secondsPerToken);
    QVERIFY(!p->profile.empty());
    QVERIFY(p->agentWorkflowSeconds > 0 && p->answerSeconds > 0);
    // TensorRT-LLM's min-latency profile is for mixture-of-experts models at batch 1 on H100, H200 and B200: it
    // predicts those and nothing else.
    if (hw.kind == HardwareKind::Gpu) {
        const bool moeProfile = p->profile == "gpu-trtllm-b200-latency";
        QCOMPARE(moeProfile, m.isMoe() && (hw.id == "h100" || hw.id == "h200" || hw.id == "b200"));
    }
}

void TestPredictor::gpuTooFewDevices()
{
    PredictOptions o;
    o.devices = 1;
    auto p = predict(wstest::modelPreset("llama-3.1-70b"), wstest::hardwarePreset("h100"), Workload{}, o);
    QVERIFY(!p.hasValue());
    QCOMPARE(p.error().code, ErrorCode::OutOfRange);
    // 141 GB of bf16 weights over 80 GB x 0.9 per GPU: 2 GPUs.
    QVERIFY2(p.error().text.find("needs 2 h100") != std::string::npos, p.error().text.c_str());
}

void TestPredictor::gpuConcurrencyTradesLatencyForThroughput()
{
    const ModelConfig m = wstest::modelPreset("llama-3.3-70b");
    const HardwareSpec hw = wstest::hardwarePreset("h100");
    Workload w;
    w.contextTokens = 630;
    PredictOptions o;
    o.devices = 8;
    auto p = predict(m, hw, w, o);
    QVERIFY(p.hasValue());
    const auto& curve = p->concurrencyCurve;
    QVERIFY(curve.size() > 5);
    for (size_t i = 1; i < curve.size(); ++i) {
        QVERIFY(curve[i].tokensPerSecondPerUser <= curve[i - 1].tokensPerSecondPerUser * (1 + 1e-12));
        if (curve[i].concurrency <= p->maxConcurrency)
            QVERIFY(curve[i].aggregateTokensPerSecond > curve[i - 1].aggregateTokensPerSecond);
    }
}

void TestPredictor::gpuTensorParallelHelpsLessThanLinearly()
{
    // WaferLLM §7.5: A100 decode scales only 3.3-3.6x from 1 to 8 GPUs.
    const ModelConfig m = wstest::modelPreset("llama-3-8b");
    const HardwareSpec hw = wstest::hardwarePreset("a100");
    PredictOptions one;
    one.devices = 1;
    PredictOptions eight;
    eight.devices = 8;
    auto a = predict(m, hw, Workload{}, one);
    auto b = predict(m, hw, Workload{}, eight);
    QVERIFY(a && b);
    const double speedup = b->tokensPerSecondPerUser / a->tokensPerSecondPerUser;
    QVERIFY2(speedup > 1.5 && speedup < 6.0, qPrintable(QString::number(speedup)));
}

void TestPredictor::groqFitsItsMeasurements()
{
    const auto& c = shippedLpuCalibration();
    QVERIFY2(c.hasValue(), c ? "" : c.error().message().c_str());
    for (const auto& r : c->profile.rows) {
        qInfo("%s: observed %.0f, predicted %.0f (%+.1f%%)", r.label.c_str(), r.observed, r.predicted,
              100 * r.relativeResidual);
        QVERIFY(std::abs(r.relativeResidual) < 0.15);
    }
    qInfo("fitted chip-to-chip exchange: %.2f us", 1e6 * c->efficiency.exchangeS);
    QVERIFY(c->efficiency.exchangeS > 0);
}

void TestPredictor::groqSeventyBChipCount()
{
    // Facts §4: 141 GB of bf16 70B weights / 230 MB = about 614 chips just for weights; 8-bit halves it.
    const ModelConfig m = wstest::modelPreset("llama-2-70b");
    const HardwareSpec hw = wstest::hardwarePreset("groq-lpu");
    Workload w;
    w.precision = Precision::Bf16;
    auto bf16 = predict(m, hw, w);
    w.precision = Precision::Fp8;
    auto fp8 = predict(m, hw, w);
    QVERIFY(bf16 && fp8);
    QVERIFY(bf16->devices >= 614 && bf16->devices < 760);
    QVERIFY(fp8->devices >= 307 && fp8->devices < 380);
}

void TestPredictor::shippedProfiles()
{
    const auto& all = ws::shippedProfiles();
    // wafer, 5 GPU (3 batched or per stack, 1 for current stacks at batch 1, 1 for B200's min-latency stack), LPU
    QCOMPARE(all.size(), size_t(7));
    for (const auto& p : all) {
        QVERIFY(!p.source.empty());
        QVERIFY(!p.constants.empty());
        QVERIFY(!p.rows.empty());
        for (const auto& c : p.constants)
            QVERIFY2(!c.source.empty(), c.name.c_str());
    }
}

void TestPredictor::userProfileFits()
{
    // A user's own GPU measurements: two batch-1 rows on H100 (numbers made up for the test, consistent
    // with 70 % of HBM bandwidth).
    const char* json = R"({"kind":"gpu","id":"my-h100","source":"my lab",
        "rows":[{"label":"8b","model":"llama-3.1-8b","hardware":"h100","gpus":1,"context":1024,"tokens_per_second_per_user":140},
                {"label":"70b","model":"llama-3.1-70b","hardware":"h100","gpus":2,"context":1024,"tokens_per_second_per_user":16}]})";
    auto p = fitProfile(json);
    QVERIFY2(p.hasValue(), p ? "" : p.error().message().c_str());
    QCOMPARE(p->id, std::string("my-h100"));
    QCOMPARE(p->rows.size(), size_t(2));
    QVERIFY(!fitProfile(R"({"kind":"tpu"})").hasValue());
}

void TestPredictor::userGpuProfileDrivesPrediction()
{
    // A lab whose H100 stack decodes about a third as fast as the shipped profiles expect (numbers made up
    // for the test): its fitted profile must slow the prediction down and be named in it.
    const char* json = R"({"kind":"gpu","id":"my-slow-h100","source":"my lab",
        "rows":[{"label":"8b","model":"llama-3.1-8b","hardware":"h100","gpus":1,"context":1024,"tokens_per_second_per_user":45},
                {"label":"70b","model":"llama-3.1-70b","hardware":"h100","gpus":2,"context":1024,"tokens_per_second_per_user":5}]})";
    auto fitted = fitGpuProfile(json);
    QVERIFY2(fitted.hasValue(), fitted ? "" : fitted.error().message().c_str());
    const ModelConfig m = wstest::modelPreset("llama-3.1-70b");
    const HardwareSpec hw = wstest::hardwarePreset("h100");
    Workload w;
    w.contextTokens = 1024;

    GpuPredictOptions shipped;
    shipped.devices = 2;
    auto base = predictGpu(m, hw, w, shipped);
    QVERIFY2(base.hasValue(), base ? "" : base.error().message().c_str());

    GpuPredictOptions mine = shipped;
    mine.profile = "gpu-a100-sglang"; // the fitted profile overrides a shipped id
    mine.calibration = std::make_shared<const GpuCalibration>(*fitted);
    auto p = predictGpu(m, hw, w, mine);
    QVERIFY2(p.hasValue(), p ? "" : p.error().message().c_str());
    QCOMPARE(p->profile, std::string("my-slow-h100"));
    qInfo("llama-3.1-70b on 2 x H100: %.1f tokens/s per user (profile %s), %.1f (profile %s)",
          base->tokensPerSecondPerUser, base->profile.c_str(), p->tokensPerSecondPerUser, p->profile.c_str());
    QVERIFY2(p->tokensPerSecondPerUser < 0.6 * base->tokensPerSecondPerUser,
             qPrintable(QString::number(p->tokensPerSecondPerUser)));
    QVERIFY(p->tokensPerSecondPerUserRange.low <= p->tokensPerSecondPerUser);
    QVERIFY(p->tokensPerSecondPerUserRange.high >= p->tokensPerSecondPerUser);

    // Shipped profiles behave as before: no calibration, same numbers.
    auto again = predictGpu(m, hw, w, shipped);
    QVERIFY(again.hasValue());
    QCOMPARE(again->tokensPerSecondPerUser, base->tokensPerSecondPerUser);
}

// A sweep's points (noRange) and the optimiser's (pointOnly) ask for less of each prediction: the same point,
// time to first token and breakdown as the whole prediction, without its range drivers.
void TestPredictor::lessDetailKeepsThePoint_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<bool>("speculative");
    QTest::newRow("llama-3.1-70b") << "llama-3.1-70b" << false;
    QTest::newRow("qwen3-32b") << "qwen3-32b" << false;
    QTest::newRow("llama-3.1-8b speculative") << "llama-3.1-8b" << true;
}

void TestPredictor::lessDetailKeepsThePoint()
{
    QFETCH(QString, model);
    QFETCH(bool, speculative);
    const ModelConfig m = wstest::modelPreset(model.toLatin1().constData());
    const HardwareSpec hw = wstest::hardwarePreset("wse3");
    Workload w;
    w.speculative.enabled = speculative;
    const auto whole = predict(m, hw, w);
    QVERIFY2(whole, whole ? "" : whole.error().message().c_str());
    QVERIFY(!whole->rangeDrivers.empty());
    QVERIFY(whole->tokensPerSecondPerUserRange.high > whole->tokensPerSecondPerUserRange.low);
    PredictOptions o;
    o.wafer.noRange = true;
    const auto noRange = predict(m, hw, w, o);
    QVERIFY(noRange);
    QCOMPARE(noRange->secondsPerToken, whole->secondsPerToken);
    QCOMPARE(noRange->ttftSeconds, whole->ttftSeconds);
    QCOMPARE(noRange->devices, whole->devices);
    QCOMPARE(noRange->kvCapacityTokens, whole->kvCapacityTokens);
    QCOMPARE(noRange->breakdown.size(), whole->breakdown.size());
    QCOMPARE(noRange->stack, whole->stack);
    QVERIFY(noRange->rangeDrivers.empty());
    o = {};
    o.wafer.pointOnly = true;
    const auto point = predict(m, hw, w, o);
    QVERIFY(point);
    QCOMPARE(point->secondsPerToken, whole->secondsPerToken);
    QCOMPARE(point->devices, whole->devices);
    QVERIFY(point->rangeDrivers.empty());
}

void TestPredictor::rejectsNonsense_data()
{
    QTest::addColumn<int>("batch");
    QTest::addColumn<int>("context");
    QTest::addColumn<int>("prompt");
    QTest::addColumn<double>("acceptance");
    QTest::newRow("zero-batch") << 0 << 100 << 10 << 0.5;
    QTest::newRow("zero-context") << 1 << 0 << 10 << 0.5;
    QTest::newRow("zero-prompt") << 1 << 100 << 0 << 0.5;
    QTest::newRow("acceptance-above-one") << 1 << 100 << 10 << 1.5;
}

void TestPredictor::rejectsNonsense()
{
    QFETCH(int, batch);
    QFETCH(int, context);
    QFETCH(int, prompt);
    QFETCH(double, acceptance);
    Workload w;
    w.concurrency = batch;
    w.contextTokens = context;
    w.promptTokens = prompt;
    w.speculative.enabled = true;
    w.speculative.acceptanceRate = acceptance;
    for (const char* hw : {"wse3", "h100", "groq-lpu"})
        QVERIFY(!predict(wstest::modelPreset("llama-3.1-8b"), wstest::hardwarePreset(hw), w).hasValue());
}

QTEST_GUILESS_MAIN(TestPredictor)
#include "tst_predictor.moc"
