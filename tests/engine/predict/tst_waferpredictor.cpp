// Wafer predictions for 8B-, 70B- and 405B-class presets on WSE-3: the devices
// come from the layer regions, the time per token is explained by phase, and
// concurrency, speculative decoding and bad inputs behave.
#include "engine/predict/waferpredictor.h"
#include "engine/wafer/placement/placer.h"
#include "engine/wafer/redundancy/defectplacement.h"
#include "tests/common/presetfixture.h"

#include <QTest>

#include <cmath>

using namespace ws;

class TestWaferPredictor : public QObject
{
    Q_OBJECT
private slots:
    void presetsOnWse3_data();
    void presetsOnWse3();
    void seventyBNeedsAboutFourWafers();
    void tooFewDevicesSaysHowMany();
    void concurrencyFillsThePipeline();
    void speculativeDecoding();
    void defectsStretchHops();
    void defectsPerWaferAsPlaced();
    void contextThatCannotFit();
};

void TestWaferPredictor::presetsOnWse3_data()
{
    QTest::addColumn<QString>("model");
    QTest::newRow("8b") << "llama-3.1-8b";
    QTest::newRow("70b") << "llama-3.1-70b";
    QTest::newRow("405b") << "llama-3.1-405b";
    QTest::newRow("moe-30b") << "qwen3-30b-a3b";
}

void TestWaferPredictor::presetsOnWse3()
{
    QFETCH(QString, model);
    const ModelConfig m = wstest::modelPreset(model.toLatin1().constData());
    const HardwareSpec hw = wstest::hardwarePreset("wse3");
    Workload w;
    auto p = predictWafer(m, hw, w);
    QVERIFY2(p.hasValue(), p ? "" : p.error().message().c_str());
    // The devices are the ones the placement chose.
    PlacementOptions po;
    po.contextTokens = w.contextTokens;
    auto placement = placeModel(m, hw.wafer, po);
    QVERIFY(placement.hasValue());
    QCOMPARE(p->devices, placement->deviceCount);
    QVERIFY(p->devicesChosen);
    // The breakdown explains the whole token.
    double sum = 0;
    bool hasQkv = false;
    bool hasWaferHop = false;
    for (const auto& b : p->breakdown) {
        sum += b.seconds;
        hasQkv |= b.id == "qkv_gemv";
        hasWaferHop |= b.id == "wafer_hop";
    }
    QVERIFY(std::abs(sum - p->secondsPerToken) < 1e-9 * p->secondsPerToken);
    QVERIFY(hasQkv);
    QCOMPARE(hasWaferHop, p->devices > 1);
    QVERIFY(p->tokensPerSecondPerUserRange.low <= p->tokensPerSecondPerUser);
    QVERIFY(p->tokensPerSecondPerUserRange.high >= p->tokensPerSecondPerUser);
    QVERIFY(p->ttftSeconds > 0);
    QVERIFY(p->answerSecondsRange.low <= p->answerSeconds && p->answerSeconds <= p->answerSecondsRange.high);
    qInfo("%s on wse3: %d wafers, %.0f tok/s per user [%.0f, %.0f], TTFT %.2f ms", qPrintable(model), p->devices,
          p->tokensPerSecondPerUser, p->tokensPerSecondPerUserRange.low, p->tokensPerSecondPerUserRange.high,
          1e3 * p->ttftSeconds);
}

void TestWaferPredictor::seventyBNeedsAboutFourWafers()
{
    // Facts §6.7 item 6: 70B in BF16 needs at least 4 WSE-3 wafers; "as few as four systems" [C6-q].
    auto p = predictWafer(wstest::modelPreset("llama-3.1-70b"), wstest::hardwarePreset("wse3"), Workload{});
    QVERIFY(p.hasValue());
    QCOMPARE(p->devices, 4);
}

void TestWaferPredictor::tooFewDevicesSaysHowMany()
{
    WaferPredictOptions o;
    o.devices = 1;
    auto p = predictWafer(wstest::modelPreset("llama-3.1-70b"), wstest::hardwarePreset("wse3"), Workload{}, o);
    QVERIFY(!p.hasValue());
    QCOMPARE(p.error().code, ErrorCode::OutOfRange);
    QVERIFY(p.error().text.find("needs") != std::string::npos);
}

void TestWaferPredictor::concurrencyFillsThePipeline()
{
    const ModelConfig m = wstest::modelPreset("llama-3.1-8b");
    const HardwareSpec hw = wstest::hardwarePreset("wse3");
    Workload w;
    w.contextTokens = 1024;
    auto one = predictWafer(m, hw, w);
    w.concurrency = 16; // fewer than the 32 layer stages: per-user speed unchanged
    auto sixteen = predictWafer(m, hw, w);
    w.concurrency = 256;
    auto many = predictWafer(m, hw, w);
    QVERIFY(one && sixteen && many);
    QCOMPARE(sixteen->tokensPerSecondPerUser, one->tokensPerSecondPerUser);
    QCOMPARE(sixteen->aggregateTokensPerSecond, 16 * one->tokensPerSecondPerUser);
    QVERIFY(many->tokensPerSecondPerUser < one->tokensPerSecondPerUser);
    QVERIFY(many->aggregateTokensPerSecond > sixteen->aggregateTokensPerSecond);
    QVERIFY(!one->concurrencyCurve.empty());
}

void TestWaferPredictor::speculativeDecoding()
{
    const ModelConfig m = wstest::modelPreset("llama-3.1-70b");
    const HardwareSpec hw = wstest::hardwarePreset("wse3");
    Workload w;
    auto plain = predictWafer(m, hw, w);
    w.speculative.enabled = true;
    w.speculative.tokensPerStep = 4;
    w.speculative.acceptanceRate = 0.0; // nothing accepted: pure overhead
    auto none = predictWafer(m, hw, w);
    // On a wafer the verify step of k+1 tokens costs nearly k+1 tokens of local work (decode is
    // largely compute on the busiest core), so speculation pays only with few, likely drafts.
    w.speculative.tokensPerStep = 2;
    w.speculative.acceptanceRate = 0.95;
    w.speculative.draftCostFraction = 0.01;
    auto good = predictWafer(m, hw, w);
    // A draft model is predicted on the same hardware: an 8B draft costs more than 5 % of a 70B token here.
    w.speculative.draftModel = wstest::modelPreset("llama-3.1-8b");
    auto bigDraft = predictWafer(m, hw, w);
    QVERIFY(plain && none && good && bigDraft);
    QVERIFY(none->tokensPerSecondPerUser < plain->tokensPerSecondPerUser);
    QVERIFY(good->tokensPerSecondPerUser > plain->tokensPerSecondPerUser);
    QVERIFY(bigDraft->tokensPerSecondPerUser < good->tokensPerSecondPerUser);
    double sum = 0;
    for (const auto& b : good->breakdown)
        sum += b.seconds;
    QVERIFY(std::abs(sum - good->secondsPerToken) < 1e-9 * good->secondsPerToken);
}

void TestWaferPredictor::defectsStretchHops()
{
    const ModelConfig m = wstest::modelPreset("llama-3.1-8b");
    const HardwareSpec hw = wstest::hardwarePreset("wse3");
    WaferPredictOptions o;
    auto clean = predictWafer(m, hw, Workload{}, o);
    o.hopStretch = 1.2;
    auto stretched = predictWafer(m, hw, Workload{}, o);
    QVERIFY(clean && stretched);
    QVERIFY(stretched->secondsPerToken > clean->secondsPerToken);
    o.hopStretch = 0.5;
    QVERIFY(!predictWafer(m, hw, Workload{}, o).hasValue());
}

// With a defect rate the predictor places through placeWithDefects: every wafer its own
// seeded map, so dead cores, devices, usable mesh and hop stretch are the placement's.
void TestWaferPredictor::defectsPerWaferAsPlaced()
{
    const ModelConfig m = wstest::modelPreset("llama-3.1-70b");
    const HardwareSpec hw = wstest::hardwarePreset("wse3");
    Workload w;
    WaferPredictOptions o;
    o.defects.rate = 0.002;
    o.defects.seed = 5;
    auto p = predictWafer(m, hw, w, o);
    QVERIFY2(p, p ? "" : p.error().message().c_str());
    PlacementOptions po;
    po.precision = w.precision;
    po.contextTokens = w.contextTokens;
    po.weightFill = o.weightFill;
    auto placed = placeWithDefects(m, hw.wafer, po, o.defects.rate, o.defects.seed);
    QVERIFY(placed);
    QVERIFY(placed->placement.deviceCount > 1);
    QVERIFY(p->defects.applied);
    QCOMPARE(p->devices, placed->placement.deviceCount);
    QCOMPARE(p->defects.deadCores, placed->totals.deadCores);
    QCOMPARE(p->defects.sparesUsed, placed->totals.sparesUsed);
    QCOMPARE(p->defects.unrepairableSegments, placed->totals.unrepairableSegments);
    QCOMPARE(p->defects.usableCores, placed->totals.usableCores);
    QCOMPARE(p->defects.hopStretch, placed->hopStretch());
    // More than one wafer's worth: wafer 1 draws its own map.
    auto wafer0 = remapDevice(hw.wafer, o.defects.rate, o.defects.seed, 0);
    QVERIFY(wafer0);
    QVERIFY(p->defects.deadCores > wafer0->summary().deadCores);
    // The stretch costs time against the same mesh with no stretch.
    WaferPredictOptions flat;
    flat.usableCols = placed->usableMesh.cols;
    flat.usableRows = placed->usableMesh.rows;
    auto unstretched = predictWafer(m, hw, w, flat);
    QVERIFY(unstretched);
    QVERIFY(p->secondsPerToken >= unstretched->secondsPerToken);
}

void TestWaferPredictor::contextThatCannotFit()
{
    Workload w;
    w.contextTokens = 100000000; // far beyond any SRAM
    auto p = predictWafer(wstest::modelPreset("llama-3.1-8b"), wstest::hardwarePreset("wse3"), w);
    QVERIFY(!p.hasValue());
}

QTEST_GUILESS_MAIN(TestWaferPredictor)
#include "tst_waferpredictor.moc"
