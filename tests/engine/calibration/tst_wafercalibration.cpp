// WaferLLM's WSE-2 decode figures (Table 4) reproduced by the schedule with the
// fitted constants, and the least-squares fitter itself.
#include "engine/calibration/leastsquares.h"
#include "engine/calibration/measurementdata.h"
#include "engine/calibration/wafercalibration.h"

#include <QTest>

#include <cmath>

using namespace ws;

class TestWaferCalibration : public QObject
{
    Q_OBJECT
private slots:
    void fitterRecoversKnownLine();
    void fitterRejectsTooFewRows();
    void shippedFileParses();
    void reproducesTable4_data();
    void reproducesTable4();
    void decodeSlowsAsGridGrows();
    void constantsArePhysical();
    void parserRejectsBadRows_data();
    void parserRejectsBadRows();
};

void TestWaferCalibration::fitterRecoversKnownLine()
{
    // y = 3 + 2x exactly: the fit must give back 3 and 2 with zero residuals.
    std::vector<std::vector<double>> x{{1, 1}, {1, 2}, {1, 5}, {1, 9}};
    std::vector<double> y{5, 7, 13, 21};
    auto fit = fitLeastSquares(x, y);
    QVERIFY(fit.hasValue());
    QCOMPARE(fit->coefficients.size(), size_t(2));
    QVERIFY(std::abs(fit->coefficients[0] - 3) < 1e-9);
    QVERIFY(std::abs(fit->coefficients[1] - 2) < 1e-9);
    QVERIFY(fit->maxAbsRelativeResidual < 1e-12);
}

void TestWaferCalibration::fitterRejectsTooFewRows()
{
    QVERIFY(!fitLeastSquares({{1, 2, 3}}, {1}).hasValue());
    QVERIFY(!fitLeastSquares({{1, 2}, {2, 4}}, {1, 2}).hasValue()); // dependent columns
    QVERIFY(!fitLeastSquares({{1}, {2}}, {1, -2}).hasValue());      // relative weighting needs positive values
}

void TestWaferCalibration::shippedFileParses()
{
    const auto text = embeddedMeasurement("waferllm-wse2-decode.json");
    QVERIFY(!text.empty());
    auto set = parseWaferKernelSet(std::string(text));
    QVERIFY2(set.hasValue(), set ? "" : set.error().message().c_str());
    QCOMPARE(set->rows.size(), size_t(6));
}

void TestWaferCalibration::reproducesTable4_data()
{
    // Published figures typed from the paper (facts §1.6), not from the measurement file.
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("grid");
    QTest::addColumn<double>("published");
    QTest::newRow("llama3-8b-420") << "LLaMA3-8B" << 420 << 2699.9;
    QTest::newRow("llama3-8b-540") << "LLaMA3-8B" << 540 << 2501.5;
    QTest::newRow("llama3-8b-660") << "LLaMA3-8B" << 660 << 2243.3;
    QTest::newRow("qwen2-72b-420") << "QWen2-72B" << 420 << 839.7;
    QTest::newRow("qwen2-72b-540") << "QWen2-72B" << 540 << 824.3;
    QTest::newRow("qwen2-72b-660") << "QWen2-72B" << 660 << 787.1;
}

void TestWaferCalibration::reproducesTable4()
{
    QFETCH(QString, model);
    QFETCH(int, grid);
    QFETCH(double, published);
    const auto& cal = shippedWaferCalibration();
    QVERIFY2(cal.hasValue(), cal ? "" : cal.error().message().c_str());
    WaferKernelMeasurement row;
    row.model = model.toStdString();
    row.hidden = model == "LLaMA3-8B" ? 4096 : 8192;
    row.ffn = model == "LLaMA3-8B" ? 14336 : 29568;
    row.layers = model == "LLaMA3-8B" ? 32 : 80;
    row.context = 4096;
    row.grid = grid;
    const double cycles = waferKernelLayerCycles(row, cal->params);
    const double tps = cal->params.clockHz / (cycles * row.layers);
    qInfo("%s P=%d: predicted %.1f tok/s, published %.1f (%+.2f%%)", qPrintable(model), grid, tps, published,
          100 * (tps - published) / published);
    QVERIFY(std::abs(tps - published) / published < 0.10);
}

void TestWaferCalibration::decodeSlowsAsGridGrows()
{
    // WaferLLM: decode throughput falls as the region grows (communication grows).
    const auto& cal = shippedWaferCalibration();
    QVERIFY(cal.hasValue());
    WaferKernelMeasurement row{"LLaMA3-8B", 4096, 14336, 32, 4096, 420, 0};
    double previous = 0;
    for (int p : {420, 540, 660, 720}) {
        row.grid = p;
        const double cycles = waferKernelLayerCycles(row, cal->params);
        QVERIFY(cycles > previous);
        previous = cycles;
    }
}

void TestWaferCalibration::constantsArePhysical()
{
    const auto& cal = shippedWaferCalibration();
    QVERIFY(cal.hasValue());
    const TimingParams& p = cal->params;
    qInfo("fitted: c_mac=%.4f cycles/MAC, c_0=%.1f cycles/allreduce, beta=%.2f cycles/stage; rms %.2f%%, max %.2f%%",
          p.macCycles, p.allreduceFixedCycles, p.routingStageCycles, 100 * cal->fit.rmsRelativeResidual,
          100 * cal->fit.maxAbsRelativeResidual);
    // WaferLLM §3.1: a software routing stage costs more than a hop (beta > alpha).
    QVERIFY(p.routingStageCycles > p.hopCycles);
    // A WSE-2 core does about one 16-bit MAC per cycle (WLLM §7): c_mac within a factor of 2 of 1.
    QVERIFY(p.macCycles > 0.5 && p.macCycles < 2.0);
    QCOMPARE(cal->fit.relativeResiduals.size(), size_t(6));
}

void TestWaferCalibration::parserRejectsBadRows_data()
{
    QTest::addColumn<QString>("json");
    QTest::newRow("not-json") << "{nope";
    QTest::newRow("wrong-kind") << R"({"kind":"gpu","id":"a","source":"s","rows":[]})";
    QTest::newRow("no-source") << R"({"kind":"wafer-kernel","id":"a","rows":[]})";
    QTest::newRow("negative-speed")
        << R"({"kind":"wafer-kernel","id":"a","source":"s","rows":[{"model":"m","hidden":8,"ffn":8,"layers":1,"context":8,"grid":4,"tokens_per_second":-1}]})";
    QTest::newRow("missing-grid")
        << R"({"kind":"wafer-kernel","id":"a","source":"s","rows":[{"model":"m","hidden":8,"ffn":8,"layers":1,"context":8,"tokens_per_second":1}]})";
    QTest::newRow("string-hidden")
        << R"({"kind":"wafer-kernel","id":"a","source":"s","rows":[{"model":"m","hidden":"x","ffn":8,"layers":1,"context":8,"grid":4,"tokens_per_second":1}]})";
}

void TestWaferCalibration::parserRejectsBadRows()
{
    QFETCH(QString, json);
    QVERIFY(!parseWaferKernelSet(json.toStdString()).hasValue());
}

QTEST_GUILESS_MAIN(TestWaferCalibration)
#include "tst_wafercalibration.moc"
