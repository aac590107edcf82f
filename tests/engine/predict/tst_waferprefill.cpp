// Wafer prefill calibrated on WaferLLM's measured prefill: the fit recovers
// known factors from rows built with them, the shipped fit reproduces its
// rows within its stated residual, and predictions carry the factor.
#include "engine/calibration/measurementdata.h"
#include "engine/predict/predictor.h"
#include "engine/predict/waferprefill.h"
#include "tests/common/presetfixture.h"

#include <QTest>

#include <cmath>
#include <string>

using namespace ws;

namespace {
// A wafer-prefill file whose rows take exactly computeFactor x the model's compute + otherFactor x the rest.
std::string syntheticFile(double computeFactor, double otherFactor)
{
    const HardwareSpec* hw = shippedHardware("wse2");
    std::string rows;
    for (const char* id : {"llama-3-8b", "qwen2-72b"}) {
        for (int grid : {480, 720}) {
            const ModelConfig* m = shippedModel(id);
            Workload w;
            w.contextTokens = 4096;
            w.promptTokens = 4096;
            auto g = waferGridLayout(*m, *hw, w, grid);
            if (!g)
                return {};
            const PrefillCycles c = gridPrefillCycles(*m, *g, 4096);
            const double seconds =
                (computeFactor * c.computeCycles + otherFactor * (c.cycles - c.computeCycles)) / g->params.clockHz;
            rows += std::string(rows.empty() ? "" : ",") + R"({"preset":")" + id + R"(","grid":)" +
                    std::to_string(grid) + R"(,"prompt":4096,"prefill_tokens_per_second":)" +
                    std::to_string(4096.0 / seconds) + "}";
        }
    }
    return R"({"id":"synthetic","kind":"wafer-prefill","source":"test","hardware":"wse2","rows":[)" + rows + "]}";
}
} // namespace

class TestWaferPrefill : public QObject
{
    Q_OBJECT
private slots:
    void fitRecoversKnownFactors()
    {
        const std::string text = syntheticFile(2.0, 3.0);
        QVERIFY(!text.empty());
        auto fit = fitWaferPrefill(text);
        QVERIFY2(fit, fit ? "" : fit.error().message().c_str());
        QVERIFY(std::abs(fit->computeFactor - 2.0) < 1e-4);
        QVERIFY(std::abs(fit->otherFactor - 3.0) < 1e-4);
        QVERIFY(fit->worstResidual < 1e-4);
        QCOMPARE(fit->promptTokens, int64_t(4096));
    }

    void badFilesAreRefused()
    {
        QVERIFY(!fitWaferPrefill(R"({"id":"x","kind":"wafer-kernel","source":"s","hardware":"wse2","rows":[]})"));
        QVERIFY(!fitWaferPrefill(R"({"id":"x","kind":"wafer-prefill","source":"s","hardware":"h100","rows":[]})"));
        QVERIFY(!fitWaferPrefill(R"({"id":"x","kind":"wafer-prefill","source":"s","hardware":"wse2","rows":[
            {"preset":"llama-3-8b","grid":480,"prompt":4096,"prefill_tokens_per_second":-1}]})"));
        QVERIFY(!fitWaferPrefill(R"({"id":"x","kind":"wafer-prefill","source":"s","hardware":"wse2","rows":[
            {"preset":"llama-3-8b","grid":480,"prompt":4096,"prefill_tokens_per_second":20000},
            {"preset":"llama-3-8b","grid":720,"prompt":2048,"prefill_tokens_per_second":20000}]})"));
        QVERIFY(!fitWaferPrefill(R"({"id":"x","kind":"wafer-prefill","source":"s","hardware":"wse2","rows":[
            {"preset":"llama-3-8b","grid":"big","prompt":4096,"prefill_tokens_per_second":20000}]})"));
    }

    void shippedFitReproducesTable3WithinItsResidual()
    {
        const auto& fit = shippedWaferPrefill();
        QVERIFY2(fit, fit ? "" : fit.error().message().c_str());
        QCOMPARE(fit->rows.size(), size_t(4));
        std::printf("compute x %.3f, rest x %.3f, worst residual %.3f\n", fit->computeFactor, fit->otherFactor,
                    fit->worstResidual);
        QVERIFY(fit->computeFactor > 0 && fit->otherFactor > 0);
        QVERIFY(fit->worstResidual < 0.25);
        for (const WaferPrefillRow& r : fit->rows) {
            const double measured = double(r.promptTokens) / r.measuredTokensPerSecond;
            // The decode-fitted model alone runs prefill faster than WaferLLM measured it, on every row.
            QVERIFY(measured > r.modelComputeSeconds + r.modelOtherSeconds);
            const double residual = std::abs(r.fittedSeconds - measured) / measured;
            QVERIFY(residual <= fit->worstResidual + 1e-12);
            std::printf("%s %d x %d: measured %.1f tokens/s, fitted %.1f (%+.0f%%)\n", r.modelId.c_str(), r.grid,
                        r.grid, r.measuredTokensPerSecond, double(r.promptTokens) / r.fittedSeconds,
                        100 * (measured / r.fittedSeconds - 1));
        }
        // Table 3's prefill speeds grow with the cores (480 -> 720): the fit keeps that order per model.
        QVERIFY(fit->rows[1].fittedSeconds < fit->rows[0].fittedSeconds);
        QVERIFY(fit->rows[3].fittedSeconds < fit->rows[2].fittedSeconds);
    }

    void predictionsCarryTheFactor()
    {
        const ModelConfig m = wstest::modelPreset("llama-3.1-8b");
        const HardwareSpec hw = wstest::hardwarePreset("wse3");
        Workload w;
        w.promptTokens = 4096;
        auto p = predict(m, hw, w);
        QVERIFY(p);
        QVERIFY(p->ttftRange.low <= p->ttftSeconds && p->ttftSeconds <= p->ttftRange.high);
        bool noted = false;
        for (const std::string& n : p->notes)
            noted = noted || n.rfind("prefill: ", 0) == 0;
        QVERIFY(noted);
        // A longer prompt takes longer.
        Workload longer = w;
        longer.promptTokens = 8192;
        auto q = predict(m, hw, longer);
        QVERIFY(q && q->ttftSeconds > p->ttftSeconds);
    }
};

QTEST_APPLESS_MAIN(TestWaferPrefill)
#include "tst_waferprefill.moc"
