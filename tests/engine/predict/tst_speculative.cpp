// Speculative decoding on a wafer, with the numbers: why Qwen3-32B with a
// Llama-3.1-8B draft once predicted slower than plain decoding, and the fix.
//
// A step drafts k tokens one at a time and verifies k + 1 in one pass:
//   seconds per token = (k x t_draft + t_verify(k + 1)) / E,  E = (1 - a^(k+1)) / (1 - a),
// so it pays only when k x c + v < E, with c = t_draft / t_target and v = t_verify(k + 1) / t_target.
// On a GPU v is close to 1 (the step streams the weights once for all k + 1 tokens). The wafer's timing
// model charged each core its full fitted cycles per MAC for every verified token (v = 3.8 target tokens for
// 5 tokens of Qwen3-32B, more than E = 2.77 at k = 4, a = 0.7). But at batch 1 the wafer is far from its
// compute roof (64 GFLOP per token at 671 tokens/s is 43 TFLOP/s, well under 1 % of 900,000 cores x 8 MACs x
// 2 x 1.1 GHz), and the fitted 0.86 cycles per MAC is mostly operand fetch, 3.4x WSE-2's SIMD time: each core
// reads a weight once and multiplies it with every verified token. So the verify pays the latencies and
// fixed costs once, the payloads per token, and per further token only the SIMD's 1/8 cycle per MAC:
// v = 1.45, and with the Qwen3-0.6B draft timed on a whole wafer it gave 1.36x. The draft then got cores of
// its own (engine/wafer/placement/draftplacement.h): on the narrowest strip that holds it, its token cost
// about 0.42 target tokens instead of 0.15, so k c + v exceeded E (0.88x). Now the home is chosen by the
// predicted step (engine/predict/speculative.h chooseDraftHome: fewest wafers, then the fastest): a wafer of
// its own would take a third wafer, so the draft keeps a strip on the 2 wafers, the fastest width that leaves
// the target on 2 (1.25 x the narrowest), where its token costs about 0.35 target tokens: still k c + v > E
// (0.95x), and the prediction's note says so and what the third wafer would bring (the draft alone on it,
// about 1.36x). A wider strip trades the target's cores for the draft's speed: from 1.5x the narrowest
// (54 columns) on, the target no longer fits the rest of 2 wafers.
// Besides, Llama-3.1-8B cannot draft for Qwen3-32B at all: verification compares token ids and the two
// vocabularies differ (128,256 vs 151,936 tokens), so the predictor now refuses the pair.
#include "engine/calibration/stackprofile.h"
#include "engine/calibration/wafercalibration.h"
#include "engine/predict/predictor.h"
#include "engine/predict/waferpredictor.h"
#include "engine/spec/workload.h"
#include "tests/common/presetfixture.h"

#include <QTest>

#include <cmath>
#include <cstdio>

using namespace ws;

class TestSpeculative : public QObject
{
    Q_OBJECT
private slots:
    void aDraftWithAnotherVocabularyIsRefused()
    {
        const ModelConfig target = wstest::modelPreset("qwen3-32b");
        Workload w;
        w.speculative.enabled = true;
        w.speculative.draftModel = wstest::modelPreset("llama-3.1-8b");
        for (const char* hw : {"wse3", "h100", "groq-lpu"}) {
            auto p = predict(target, wstest::hardwarePreset(hw), w);
            QVERIFY2(!p, hw);
            QCOMPARE(p.error().field, std::string("draft"));
            QVERIFY(p.error().text.find("vocabulary") != std::string::npos);
        }
    }

    void unknownSpansOffToOnWhereTheVendorUsesIt()
    {
        const ModelConfig m = wstest::modelPreset("llama-3.1-70b");
        Workload off;
        Workload unknown;
        unknown.speculativeUnknown = true;
        auto driverOf = [](const Prediction& p, const std::string& input) -> const RangeDriver* {
            for (const RangeDriver& d : p.rangeDrivers)
                if (d.input == input)
                    return &d;
            return nullptr;
        };
        // Cerebras runs it (its October 2024 release). On the launch stack (engine/calibration/stackprofile.h),
        // which does not: the point stays off, the range reaches on.
        const HardwareSpec wse3 = wstest::hardwarePreset("wse3");
        PredictOptions launch;
        launch.asOf = parseYearMonth("2024-09");
        auto a = predict(m, wse3, off, launch);
        auto b = predict(m, wse3, unknown, launch);
        QVERIFY(a && b);
        QCOMPARE(b->tokensPerSecondPerUser, a->tokensPerSecondPerUser);
        const RangeDriver* d = driverOf(*b, "speculative_decoding");
        QVERIFY(d && !d->source.empty());
        QCOMPARE(d->tokensPerSecondAtLow, a->tokensPerSecondPerUser);
        Workload on;
        on.speculative.enabled = true;
        on.speculative.draftModel = wstest::modelPreset("llama-3.1-8b"); // the default draft: smallest Llama 3.1
        auto c = predict(m, wse3, on, launch);
        QVERIFY(c);
        QVERIFY(std::abs(d->tokensPerSecondAtHigh - c->tokensPerSecondPerUser) < 1e-9 * c->tokensPerSecondPerUser);
        // The range spans both ends: plain decoding and decoding with the draft on its own strip of cores
        // (with the 8B on a wafer of its own after the target's: engine/predict/speculative.h chooseDraftHome).
        const double onTps = c->tokensPerSecondPerUser;
        QVERIFY(b->tokensPerSecondPerUserRange.low <= std::min(a->tokensPerSecondPerUser, onTps) * (1 + 1e-9));
        QVERIFY(b->tokensPerSecondPerUserRange.high >= std::max(a->tokensPerSecondPerUser, onTps) * (1 - 1e-9));
        std::printf("\nLlama-3.1-70B on WSE-3: plain %.0f tokens/s, with the Llama-3.1-8B draft %.0f; range with "
                    "speculative decoding unknown %.0f-%.0f\n",
                    a->tokensPerSecondPerUser, onTps, b->tokensPerSecondPerUserRange.low,
                    b->tokensPerSecondPerUserRange.high);
        QVERIFY(!driverOf(*a, "speculative_decoding"));
        // The stack of the October 2024 release runs it: not known whether on is on there, with its acceptance
        // as the range driver.
        auto later = predict(m, wse3, unknown);
        QVERIFY(later);
        QCOMPARE(later->stack, std::string("cerebras-inference-2024-10"));
        QVERIFY(driverOf(*later, "speculative_acceptance") && !driverOf(*later, "speculative_decoding"));
        // Groq serves it under endpoints of their own name, and no source says a GPU provider runs it: off.
        for (const char* hw : {"groq-lpu", "h100"}) {
            auto g = predict(m, wstest::hardwarePreset(hw), unknown);
            QVERIFY(g);
            QVERIFY2(!driverOf(*g, "speculative_decoding"), hw);
        }
        // With it on, the acceptance rate is a driver over 0.5-0.9: more accepted tokens, faster.
        const RangeDriver* acc = driverOf(*c, "speculative_acceptance");
        QVERIFY(acc);
        QCOMPARE(acc->low, 0.5);
        QCOMPARE(acc->high, 0.9);
        QVERIFY(acc->tokensPerSecondAtLow < c->tokensPerSecondPerUser);
        QVERIFY(acc->tokensPerSecondAtHigh > c->tokensPerSecondPerUser);
    }

    void qwen3_32bOnTheWaferWithTheNumbers()
    {
        const ModelConfig target = wstest::modelPreset("qwen3-32b");
        const HardwareSpec wse3 = wstest::hardwarePreset("wse3");
        // The launch stack: the WaferLLM profile's constants as fitted (kernel factor 1), as predictWafer below.
        PredictOptions launch;
        launch.asOf = parseYearMonth("2024-09");
        Workload plainWork;
        auto plain = predict(target, wse3, plainWork, launch);
        QVERIFY(plain);
        const double tTarget = plain->secondsPerToken;

        // The Llama-3.1-8B draft's own token on the same wafer type, as the predictor times the draft.
        auto llama = predict(wstest::modelPreset("llama-3.1-8b"), wse3, plainWork, launch);
        auto small = predict(wstest::modelPreset("qwen3-0.6b"), wse3, plainWork, launch);
        QVERIFY(llama && small);
        Workload w = plainWork;
        w.speculative.enabled = true;
        w.speculative.tokensPerStep = 4;
        w.speculative.acceptanceRate = 0.7;
        const double e = w.speculative.expectedTokensPerStep();
        QVERIFY(std::abs(e - (1 - std::pow(0.7, 5)) / 0.3) < 1e-12);
        w.speculative.draftModel = wstest::modelPreset("qwen3-0.6b");
        auto spec = predict(target, wse3, w, launch);
        QVERIFY2(spec, spec ? "" : spec.error().message().c_str());

        // t_verify(5) from the breakdown: everything but the draft share and the hand-off between the draft's
        // strip and the target's first layer, times E.
        QCOMPARE(spec->draftHome, std::string("strip"));
        double verify = 0;
        double handoff = 0;
        for (const PhaseTime& ph : spec->breakdown)
            if (ph.id == "speculative_handoff")
                handoff += ph.seconds * e;
            else if (ph.id != "speculative_draft")
                verify += ph.seconds * e;
        // The draft decodes on its own strip of cores beside the target (engine/wafer/placement/draftplacement.h),
        // not on the whole wafer: its token on that strip, predicted here from the strip's width.
        QVERIFY(spec->draftCores > 0 && spec->draftCores % wse3.wafer.usableRows() == 0);
        WaferPredictOptions onStrip;
        onStrip.usableCols = int(spec->draftCores / wse3.wafer.usableRows());
        onStrip.devices = 1;
        auto smallOnStrip = predictWafer(wstest::modelPreset("qwen3-0.6b"), wse3, plainWork, onStrip);
        QVERIFY(smallOnStrip);
        QVERIFY(smallOnStrip->secondsPerToken >= small->secondsPerToken);
        const double draft = smallOnStrip->secondsPerToken;
        QVERIFY(std::abs(spec->secondsPerToken - (4 * draft + verify + handoff) / e) < 1e-9 * spec->secondsPerToken);
        QVERIFY(handoff > 0 && handoff < 1e-3 * verify);

        const double cLlama = llama->secondsPerToken / tTarget;
        const double cSmall = draft / tTarget;
        const double v = verify / tTarget;
        std::printf("\nQwen3-32B on WSE-3: %.0f tokens/s plain (%.3f ms); verify of 5 tokens = %.2f target tokens; "
                    "E(k=4, a=0.7) = %.2f\n",
                    plain->tokensPerSecondPerUser, 1e3 * tTarget, v, e);
        std::printf("Llama-3.1-8B draft token = %.2f target tokens: k c + v = %.2f %s E, %.0f tokens/s (%.2fx)\n",
                    cLlama, 4 * cLlama + v, 4 * cLlama + v > e ? ">" : "<", e / ((4 * cLlama + v) * tTarget),
                    e / (4 * cLlama + v));
        std::printf("Qwen3-0.6B draft token on its %d-column strip = %.2f target tokens: k c + v = %.2f, %.0f "
                    "tokens/s (%.2fx)\n",
                    spec->draftColumns, cSmall, 4 * cSmall + v, spec->tokensPerSecondPerUser,
                    spec->tokensPerSecondPerUser / plain->tokensPerSecondPerUser);
        for (const std::string& n : spec->notes)
            if (n.find("does not pay") != std::string::npos)
                std::printf("note: %s\n", n.c_str());
        // The verify reads each core's weights once for the 5 tokens: it costs at least one plain token and at
        // most one plus, for each further token, the SIMD's share of the fitted cycles per MAC (1 / (8 x c_mac):
        // WSE-3's 8-wide FP16 SIMD, hardware-and-models.md §1.1), the bound were the token all local compute.
        const auto& cal = shippedWaferCalibration();
        QVERIFY(cal);
        const double perFurtherToken = 1.0 / (wse3.wafer.macsPerCyclePerCore * cal->params.macCycles);
        QVERIFY(perFurtherToken < 1);
        QVERIFY2(v >= 1 - 1e-9 && v <= 1 + 4 * perFurtherToken + 1e-9, std::to_string(v).c_str());
        // So the verify pays (v < E), and a draft pays when k c + v < E. On a whole wafer the smaller draft's
        // token is the cheaper; on its narrowest strip (the draft's own cores) it is slower than on a whole
        // wafer, and whether speculative decoding then pays is k c + v against E, as the prediction says.
        QVERIFY(v < e);
        QVERIFY(cLlama > small->secondsPerToken / tTarget);
        QCOMPARE(spec->tokensPerSecondPerUser > plain->tokensPerSecondPerUser, 4 * cSmall + v + handoff / tTarget < e);
    }
};

QTEST_APPLESS_MAIN(TestSpeculative)
#include "tst_speculative.moc"
