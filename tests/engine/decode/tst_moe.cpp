// Mixture-of-experts decoding (llama Mixtral-style, qwen3moe): the router's order against a hand
// computation, only the routed experts computed (each once per batch), batched prompts equal to one
// token at a time, and the routing the generator reports. The llama.cpp agreement itself is
// tst_ggmltypes' (reference-moe.json).
#include "engine/decode/blocks.h"
#include "engine/decode/decodemodel.h"
#include "engine/decode/forward.h"
#include "engine/decode/generator.h"
#include "engine/decode/moeblock.h"
#include "tests/common/testmodels.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <algorithm>
#include <fstream>

#include <cmath>
#include <map>
#include <set>
#include <vector>

using namespace ws;

namespace {

std::string dataFile(const char* name)
{
    return wstest::sourcePath(QStringLiteral("tests/engine/decode/data/ggmltypes/") + QString::fromLatin1(name))
        .toStdString();
}

// The dense products, recording which matrices each call multiplies and for how many tokens.
class RecordingProjection final : public Projection
{
public:
    std::vector<std::pair<const WeightMatrix*, int>> calls;
    void project(const MatmulJob* jobs, int jobCount, const float* x, int tokens, RunState& state,
                 ThreadPool& pool) override
    {
        for (int i = 0; i < jobCount; ++i)
            calls.emplace_back(jobs[i].w, tokens);
        matmulShared(jobs, jobCount, x, tokens, state, pool);
    }
};

// The expert each recorded call belongs to in layer 0 (-1: not an expert matrix).
int expertOf(const LayerWeights& L, const WeightMatrix* w)
{
    for (size_t e = 0; e < L.expertUp.size(); ++e)
        if (w == &L.expertGate[e] || w == &L.expertUp[e] || w == &L.expertDown[e])
            return int(e);
    return -1;
}

} // namespace

class TestMoe : public QObject
{
    Q_OBJECT
private slots:
    // The router's order against hand computations (double precision, to 1e-6):
    // - logits {1, 3, 2, 0.5}: softmax = e^(x-3) / sum = {0.0853689, 0.6307955, 0.2320567, 0.0517789};
    //   top 2 = experts 1, 2; normalised: 1 / (1 + e^-1) = 0.7310586 and e^-1 / (1 + e^-1) = 0.2689414;
    // - ten experts (the first eight through ggml's vector exp): the three largest logits 0.83, 0.52,
    //   0.35 (experts 9, 8, 5) have probabilities 0.2000036, 0.1466920, 0.1237589 over all ten;
    // - equal probabilities: the lower expert first, each half after normalisation.
    void routerSoftmaxThenTopKThenNormalise_data()
    {
        QTest::addColumn<std::vector<float>>("logits");
        QTest::addColumn<bool>("normalise");
        QTest::addColumn<std::vector<int>>("ids");
        QTest::addColumn<std::vector<float>>("weights");
        const std::vector<float> four = {1.0f, 3.0f, 2.0f, 0.5f};
        QTest::newRow("4 experts") << four << false << std::vector<int>{1, 2}
                                   << std::vector<float>{0.6307955f, 0.2320567f};
        QTest::newRow("4 experts, normalised")
            << four << true << std::vector<int>{1, 2} << std::vector<float>{0.7310586f, 0.2689414f};
        QTest::newRow("10 experts") << std::vector<float>{0.0f,  -0.27f, 0.02f,  -0.43f, -0.32f,
                                                          0.35f, 0.28f,  -0.53f, 0.52f,  0.83f}
                                    << false << std::vector<int>{9, 8, 5}
                                    << std::vector<float>{0.2000036f, 0.1466920f, 0.1237589f};
        QTest::newRow("ties") << std::vector<float>{0.5f, 2.0f, 2.0f, 2.0f} << true << std::vector<int>{1, 2}
                              << std::vector<float>{0.5f, 0.5f};
    }
    void routerSoftmaxThenTopKThenNormalise()
    {
        QFETCH(std::vector<float>, logits);
        QFETCH(bool, normalise);
        QFETCH(std::vector<int>, ids);
        QFETCH(std::vector<float>, weights);
        std::vector<int> gotIds(ids.size(), -1);
        std::vector<float> gotWeights(ids.size(), 0.0f);
        blocks::routeExperts(logits.data(), int(logits.size()), int(ids.size()), normalise, gotIds.data(),
                             gotWeights.data());
        QCOMPARE(gotIds, ids);
        for (size_t j = 0; j < ids.size(); ++j)
            QVERIFY2(std::fabs(gotWeights[j] - weights[j]) < 1e-6f, qPrintable(QString::number(double(gotWeights[j]))));
    }

    // gpt-oss's SOFTMAX_WEIGHT gating: the top 2 logits (experts 2 and 3: 1.5, 1.4), then a softmax over those
    // two alone: 1 / (1 + e^-0.1) = 0.5249792 and 1 / (1 + e^0.1) = 0.4750208.
    void softmaxWeightGatingTakesTheTopLogits()
    {
        const float logits[5] = {0.2f, -1.0f, 1.5f, 1.4f, 1.0f};
        int ids[2] = {-1, -1};
        float weights[2] = {0, 0};
        blocks::routeExperts(logits, 5, 2, false, ids, weights, ExpertGating::SoftmaxWeight);
        QCOMPARE(ids[0], 2);
        QCOMPARE(ids[1], 3);
        QVERIFY2(std::fabs(weights[0] - 0.5249792f) < 1e-6f, qPrintable(QString::number(double(weights[0]))));
        QVERIFY2(std::fabs(weights[1] - 0.4750208f) < 1e-6f, qPrintable(QString::number(double(weights[1]))));
    }

    // ggml_swiglu_oai (alpha 1.702, limit 7) against hand computations, sigmoid(z) = 1 / (1 + e^-z):
    // (gate 1, up 0.5): 1 sigmoid(1.702) 1.5 = 1.268694; (10, 9) clamps to (7, 7): 7 sigmoid(11.914) 8 = 55.99963;
    // (-2, -9): up clamps to -7: -2 sigmoid(-3.404) (-6) = 0.3860483; (-10, 0): the gate is not clamped below:
    // -10 sigmoid(-17.02) = -4.057961e-7; (7.5, -7.5): 7 sigmoid(11.914) (-6) = -41.99972.
    void swigluOaiClampsGateAndUp()
    {
        float gate[5] = {1.0f, 10.0f, -2.0f, -10.0f, 7.5f};
        const float up[5] = {0.5f, 9.0f, -9.0f, 0.0f, -7.5f};
        const double want[5] = {1.268694, 55.99963, 0.3860483, -4.057961e-7, -41.99972};
        blocks::swigluOai(gate, up, 5, 1, 1.702f, 7.0f);
        for (int i = 0; i < 5; ++i)
            QVERIFY2(std::fabs(gate[i] - want[i]) <= 2e-6 * std::max(1.0, std::fabs(want[i])),
                     qPrintable(QStringLiteral("%1: %2 vs %3").arg(i).arg(double(gate[i])).arg(want[i])));
    }

    // gpt-oss: the router and expert biases are read, the selected weights are not renormalised.
    void configReadsGptOssExperts()
    {
        auto m = DecodeModel::load(dataFile("gptoss-random-F32.gguf"));
        QVERIFY2(m, m ? "" : m.error().message().c_str());
        QCOMPARE(m->config().expertCount, 4);
        QCOMPARE(m->config().expertUsedCount, 2);
        QCOMPARE(m->config().hiddenDim, 256);
        QVERIFY(!m->config().expertWeightsNorm);
        QCOMPARE(m->config().expertGating, ExpertGating::SoftmaxWeight);
        const LayerWeights& L = m->weights().layers[1];
        QVERIFY(L.routerBias && L.expertGateBias && L.expertUpBias && L.expertDownBias && L.sinks && L.bo);
    }

    void configReadsTheExperts()
    {
        for (const char* file : {"qwen3moe-random-F32.gguf", "llamamoe-random-F32.gguf"}) {
            auto m = DecodeModel::load(dataFile(file));
            QVERIFY2(m, m ? "" : m.error().message().c_str());
            QCOMPARE(m->config().expertCount, 4);
            QCOMPARE(m->config().expertUsedCount, 2);
            QCOMPARE(m->config().hiddenDim, 256);
            QVERIFY(m->config().expertWeightsNorm);
            QCOMPARE(int(m->weights().layers[0].expertUp.size()), 4);
        }
    }

    // One token: the router and exactly its two experts' gate, up and down run, and the routing
    // recorded is the router's choice for that token.
    void onlyTheRoutedExpertsRun()
    {
        auto m = DecodeModel::load(dataFile("qwen3moe-random-F32.gguf"));
        QVERIFY2(m, m ? "" : m.error().message().c_str());
        const LayerWeights& L = m->weights().layers[0];
        ThreadPool pool(1);
        RunState state(m->config(), 64, 16, 1);
        RecordingProjection projection;
        const TokenId token = 403;
        QVERIFY(forward(m->config(), m->weights(), state, pool, {&token, 1}, 0, projection));
        std::map<int, int> matricesPerExpert;
        for (const auto& [w, tokens] : projection.calls)
            if (int e = expertOf(L, w); e >= 0)
                ++matricesPerExpert[e];
        const std::vector<int> routed(state.routedExperts.begin(), state.routedExperts.begin() + 2);
        QCOMPARE(int(matricesPerExpert.size()), 2);
        for (int e : routed)
            QCOMPARE(matricesPerExpert[e], 3);
        // The recorded routing is the router's own: its logits through routeExperts.
        int ids[2];
        float weights[2];
        blocks::routeExperts(state.routerLogits.data(), 4, 2, true, ids, weights);
        QCOMPARE(ids[0], routed[0]);
        QCOMPARE(ids[1], routed[1]);
    }

    // A prompt in one batch routes as one token at a time and gives the same logits (quantised: to the
    // bit), and each expert's matrices run once over the group of tokens routed to it.
    void batchGroupsTokensPerExpert_data()
    {
        QTest::addColumn<QString>("file");
        for (const char* f : {"qwen3moe-random-F32.gguf", "qwen3moe-random-Q4_K_M.gguf", "llamamoe-random-Q8_0.gguf"})
            QTest::newRow(f) << QString::fromLatin1(f);
    }
    void batchGroupsTokensPerExpert()
    {
        QFETCH(QString, file);
        auto m = DecodeModel::load(dataFile(qPrintable(file)));
        QVERIFY2(m, m ? "" : m.error().message().c_str());
        const std::vector<TokenId> prompt = {1, 403, 407, 261, 378, 291, 280, 294};
        ThreadPool pool(1);
        RunState batch(m->config(), 64, 16, 1);
        RecordingProjection projection;
        QVERIFY(forward(m->config(), m->weights(), batch, pool, prompt, 0, projection));
        const LayerWeights& L = m->weights().layers[0];
        std::map<int, int> tokensPerExpert, callsPerExpert;
        for (int slot = 0; slot < int(prompt.size()) * 2; ++slot)
            ++tokensPerExpert[batch.routedExperts[size_t(slot)]];
        for (const auto& [w, tokens] : projection.calls) {
            if (int e = expertOf(L, w); e >= 0) {
                ++callsPerExpert[e];
                QCOMPARE(tokens, tokensPerExpert[e]);
            }
        }
        for (const auto& [e, calls] : callsPerExpert)
            QCOMPARE(calls, 3);
        QCOMPARE(callsPerExpert.size(), tokensPerExpert.size());

        RunState single(m->config(), 64, 16, 1);
        std::vector<int> routedOneByOne;
        for (size_t i = 0; i < prompt.size(); ++i) {
            QVERIFY(forward(m->config(), m->weights(), single, pool, {&prompt[i], 1}, int(i)));
            routedOneByOne.insert(routedOneByOne.end(), single.routedExperts.begin(), single.routedExperts.begin() + 2);
        }
        const std::vector<int> routedBatch(batch.routedExperts.begin(),
                                           batch.routedExperts.begin() + std::ptrdiff_t(prompt.size() * 2));
        QCOMPARE(routedBatch, routedOneByOne);
        if (!file.contains(QLatin1String("F32"))) {
            QCOMPARE(batch.logits, single.logits);
        } else {
            // F32 products of a batch take tinyBLAS's lane order, one token's ggml_vec_dot's (matmul.h), as
            // in llama.cpp: equal to rounding.
            float diff = 0.0f;
            for (size_t i = 0; i < batch.logits.size(); ++i)
                diff = std::max(diff, std::fabs(batch.logits[i] - single.logits[i]));
            QVERIFY2(diff < 1e-4f, qPrintable(QString::number(double(diff))));
        }
    }

    // Beyond the ids (tst_ggmltypes): at every step that tst_ggmltypes compares (fed llama.cpp's greedy
    // ids), the top logit is llama.cpp's to 1e-4 (the largest difference is printed).
    void topLogitsMatchLlamaCpp()
    {
        std::ifstream in(dataFile("reference-moe.json"));
        const auto json = nlohmann::json::parse(in, nullptr, false);
        QVERIFY(!json.is_discarded());
        double worst = 0.0;
        int steps = 0;
        for (const auto& model : json["models"]) {
            auto m = DecodeModel::load(dataFile(model["file"].get<std::string>().c_str()));
            QVERIFY2(m, m ? "" : m.error().message().c_str());
            for (const auto& run : model["runs"]) {
                const auto ids = run["prompt_ids"].get<std::vector<TokenId>>();
                const auto top = run["top_logits"].get<std::vector<float>>();
                const auto margins = run["margins"].get<std::vector<float>>();
                const auto generated = run["generated_ids"].get<std::vector<TokenId>>();
                ThreadPool pool(1);
                RunState state(m->config(), 512, 64, 1);
                QVERIFY(forward(m->config(), m->weights(), state, pool, ids, 0));
                int pos = int(ids.size());
                for (size_t i = 0; i < top.size() && margins[i] >= 1e-3f; ++i, ++steps) {
                    const double diff =
                        std::fabs(double(*std::max_element(state.logits.begin(), state.logits.end())) - double(top[i]));
                    worst = std::max(worst, diff);
                    QVERIFY(forward(m->config(), m->weights(), state, pool, {&generated[i], 1}, pos++));
                }
            }
        }
        qInfo("%d steps, largest |top logit - llama.cpp's| %.3g", steps, worst);
        QVERIFY(steps > 0);
        QVERIFY2(worst < 1e-4, qPrintable(QString::number(worst)));
    }
};

QTEST_APPLESS_MAIN(TestMoe)
#include "tst_moe.moc"
