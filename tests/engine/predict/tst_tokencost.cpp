// The cost curve over concurrency (engine/predict/tokencost.h) for every hardware preset: each point is the
// devices' hourly cost (the preset's figure x devices) over the tokens they produce in an hour at that
// concurrency, the chosen concurrency's point is the prediction's own cost, and the range brackets it. The
// shipped API prices read and match by model and hardware; a bad price file names the field. Speculative
// decoding: the defaults carry sources, the default draft shares the vocabulary, and the effect's numbers
// rebuild the prediction (plain time x (k c + v) / E = the speculative time).
#include "engine/predict/predictor.h"
#include "engine/predict/speculative.h"
#include "engine/predict/tokencost.h"
#include "tests/common/presetfixture.h"

#include <QTest>

#include <cmath>

using namespace ws;

class TestTokenCost : public QObject
{
    Q_OBJECT
private slots:
    void everyPointIsHourlyCostOverTokensPerHour_data()
    {
        QTest::addColumn<QString>("hardware");
        QTest::addColumn<int>("batch");
        for (const QString& h : wstest::presetIds("hardware"))
            for (int b : {1, 8})
                QTest::newRow(qPrintable(h + "/" + QString::number(b))) << h << b;
    }

    void everyPointIsHourlyCostOverTokensPerHour()
    {
        QFETCH(QString, hardware);
        QFETCH(int, batch);
        const HardwareSpec hw = wstest::hardwarePreset(qPrintable(hardware));
        Workload w;
        w.concurrency = batch;
        w.precision = Precision::Fp8;
        auto p = predict(wstest::modelPreset("llama-3.1-8b"), hw, w);
        QVERIFY(p);
        const std::vector<CostPoint> curve = costCurve(*p);
        QVERIFY(!curve.empty());
        const double hourly = hw.cost.usd * p->devices;
        bool sawChosen = false;
        for (const CostPoint& c : curve) {
            QVERIFY(c.concurrency <= p->maxConcurrency);
            const double expected = hourly / (c.aggregateTokensPerSecond * 3600.0) * 1e6;
            QVERIFY(std::abs(c.usdPerMillionTokens / expected - 1) < 1e-12);
            QVERIFY(c.usdPerMillionTokensRange.low <= c.usdPerMillionTokens);
            QVERIFY(c.usdPerMillionTokens <= c.usdPerMillionTokensRange.high);
            if (c.concurrency == p->concurrency) {
                sawChosen = true;
                QVERIFY(std::abs(c.usdPerMillionTokens / p->cost.usdPerMillionTokens - 1) < 1e-12);
                QVERIFY(std::abs(c.usdPerMillionTokensRange.low / p->cost.usdPerMillionTokensRange.low - 1) < 1e-9);
                QVERIFY(std::abs(c.usdPerMillionTokensRange.high / p->cost.usdPerMillionTokensRange.high - 1) < 1e-9);
            }
        }
        QVERIFY(sawChosen);
        // More users share the same hour: a token never gets dearer as concurrency grows.
        for (size_t i = 1; i < curve.size(); ++i)
            QVERIFY(curve[i].usdPerMillionTokens <= curve[i - 1].usdPerMillionTokens * (1 + 1e-12));
    }

    void noHourlyCostNoCurve()
    {
        Prediction p;
        p.tokensPerSecondPerUser = 100;
        p.concurrencyCurve = {{1, 100, 100}};
        QVERIFY(costCurve(p).empty());
    }

    void apiPrices()
    {
        const auto groq = apiPricesFor("llama-3.1-70b", "groq-lpu");
        QCOMPARE(groq.size(), size_t(1));
        QCOMPARE(groq[0].usdPerMillionOutputTokens, 0.99);
        QCOMPARE(groq[0].speculative, std::string("yes"));
        QVERIFY(groq[0].source.find("colinmcnamara.com") != std::string::npos);
        QVERIFY(apiPricesFor("llama-3.1-70b", "h100").empty());
        // gpt-oss-120b on Groq and on Cerebras, each with its web address and date.
        const auto groqOss = apiPricesFor("gpt-oss-120b", "groq-lpu");
        QCOMPARE(groqOss.size(), size_t(1));
        QCOMPARE(groqOss[0].usdPerMillionOutputTokens, 0.60);
        QVERIFY(groqOss[0].source.rfind("https://", 0) == 0 && !groqOss[0].date.empty());
        const auto cerebrasOss = apiPricesFor("gpt-oss-120b", "wse3");
        QCOMPARE(cerebrasOss.size(), size_t(1));
        QCOMPARE(cerebrasOss[0].usdPerMillionOutputTokens, 0.75);
        QVERIFY(cerebrasOss[0].source.rfind("https://", 0) == 0 && !cerebrasOss[0].date.empty());
        auto bad = readApiPrices(
            R"({"kind":"api-price","rows":[{"model":"m","hardware":"h","usd_per_million_output_tokens":1}]})");
        QVERIFY(!bad);
        QCOMPARE(bad.error().field, std::string("rows[0].source"));
        QVERIFY(!readApiPrices(R"({"kind":"reference","rows":[]})"));
        QVERIFY(!readApiPrices(R"({"kind":"api-price","rows":[{"model":[]}]})")); // a wrong type is an error, no throw
    }

    // Where a cost curve meets a price, by hand: $100, $50, $25 per million at 1, 2, 4 users. A $40 price lies
    // between 2 and 4 users, where the cost halves as the users double (slope -1 in log-log): 2 x 50 / 40 = 2.5
    // users, each at the speed interpolated the same way (20 -> 16 tokens/s: 20 x (16/20)^(log(50/40)/log 2));
    // at the cheapest point (4 users, $25) the devices need be busy 25 / 40 = 62.5 % of the hours.
    void meetPrice()
    {
        const std::vector<CostPoint> curve{
            {1, 25.0, 25.0, 100.0, {}}, {2, 20.0, 40.0, 50.0, {}}, {4, 16.0, 64.0, 25.0, {}}};
        const PriceMeet m = ws::meetPrice(curve, 40.0);
        QVERIFY(m.meets);
        QVERIFY(std::abs(m.concurrency - 2.5) < 1e-9);
        QVERIFY(std::abs(m.tokensPerSecondPerUser - 20.0 * std::pow(0.8, std::log(1.25) / std::log(2.0))) < 1e-9);
        QCOMPARE(m.cheapestConcurrency, 4);
        QCOMPARE(m.cheapestUsdPerMillionTokens, 25.0);
        QCOMPARE(m.utilisation, 0.625);
        // A price the first point already meets: one user.
        QCOMPARE(ws::meetPrice(curve, 150.0).concurrency, 1.0);
        // Below the cheapest cost: never at full use; the cost is 25 / 5 = 5x the price.
        const PriceMeet never = ws::meetPrice(curve, 5.0);
        QVERIFY(!never.meets);
        QCOMPARE(never.utilisation, 5.0);
        QVERIFY(!ws::meetPrice({}, 1.0).meets);
    }

    void speculativeDefaultsHaveSources()
    {
        for (const QString& h : wstest::presetIds("hardware")) {
            const SpeculativeDefaults d = speculativeDefaults(wstest::hardwarePreset(qPrintable(h)));
            QVERIFY(!d.vendorSource.empty() && !d.tokensPerStepSource.empty() && !d.acceptanceRateSource.empty());
            QVERIFY(d.tokensPerStep >= 1 && d.acceptanceRate > 0 && d.acceptanceRate < 1);
        }
        QVERIFY(speculativeDefaults(wstest::hardwarePreset("wse3")).vendorUses);
        QVERIFY(speculativeDefaults(wstest::hardwarePreset("groq-lpu")).vendorUses);
        QVERIFY(!speculativeDefaults(wstest::hardwarePreset("h100")).vendorUses);
    }

    void defaultDraftSharesTheVocabulary()
    {
        std::vector<ModelConfig> all;
        for (const QString& id : wstest::presetIds("models"))
            all.push_back(wstest::modelPreset(qPrintable(id)));
        const ModelConfig* qwen = defaultDraftModel(wstest::modelPreset("qwen3-32b"), all);
        QVERIFY(qwen);
        QCOMPARE(qwen->id, std::string("qwen3-0.6b"));
        const ModelConfig* llama = defaultDraftModel(wstest::modelPreset("llama-3.1-70b"), all);
        QVERIFY(llama);
        QCOMPARE(llama->id, std::string("llama-3.1-8b")); // not Llama 3 8B, the same size and vocabulary
        QCOMPARE(llama->vocabSize, wstest::modelPreset("llama-3.1-70b").vocabSize);
        QVERIFY(!defaultDraftModel(wstest::modelPreset("qwen3-0.6b"), all)); // nothing smaller in its family
    }

    void effectRebuildsThePrediction_data()
    {
        QTest::addColumn<QString>("hardware");
        for (const char* h : {"wse3", "h100", "groq-lpu"})
            QTest::newRow(h) << QString::fromLatin1(h);
    }

    void effectRebuildsThePrediction()
    {
        QFETCH(QString, hardware);
        const HardwareSpec hw = wstest::hardwarePreset(qPrintable(hardware));
        const ModelConfig target = wstest::modelPreset("qwen3-32b");
        Workload plainWork;
        auto plain = predict(target, hw, plainWork);
        Workload w = plainWork;
        w.speculative.enabled = true;
        w.speculative.draftModel = wstest::modelPreset("qwen3-0.6b");
        auto spec = predict(target, hw, w);
        QVERIFY(plain && spec);
        const SpeculativeEffect e = speculativeEffect(*spec, *plain, w.speculative);
        QCOMPARE(e.expectedTokensPerStep, w.speculative.expectedTokensPerStep());
        QVERIFY(e.draftTargetTokens > 0 && e.verifyTargetTokens > 0);
        QVERIFY(std::abs(plain->secondsPerToken * (e.draftTargetTokens + e.verifyTargetTokens) /
                             e.expectedTokensPerStep / spec->secondsPerToken -
                         1) < 1e-9);
        QVERIFY(std::abs(e.speedup - plain->secondsPerToken / spec->secondsPerToken) < 1e-12);
        QCOMPARE(e.slower(), e.draftTargetTokens + e.verifyTargetTokens > e.expectedTokensPerStep);
        std::printf("%s: E %.2f, drafts %.2f + verify %.2f target tokens, x%.2f\n", qPrintable(hardware),
                    e.expectedTokensPerStep, e.draftTargetTokens, e.verifyTargetTokens, e.speedup);
    }
};

QTEST_APPLESS_MAIN(TestTokenCost)
#include "tst_tokencost.moc"
