#include "engine/decode/transformerconfig.h"
#include "engine/gguf/gguffile.h"
#include "engine/gguf/ggufwriter.h"
#include "tests/common/testmodels.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <functional>

using namespace ws;

using Editor = std::function<void(GgufWriter&)>;
Q_DECLARE_METATYPE(Editor)

namespace {
Expected<TransformerConfig> configOf(const QTemporaryDir& dir, const std::string& arch, const Editor& edit,
                                     uint32_t layers = 2)
{
    GgufWriter w;
    w.addString("general.architecture", arch);
    w.addU32(arch + ".embedding_length", 64);
    w.addU32(arch + ".feed_forward_length", 128);
    w.addU32(arch + ".block_count", layers);
    w.addU32(arch + ".attention.head_count", 4);
    edit(w);
    const std::string path = dir.filePath("c.gguf").toStdString();
    if (auto s = w.writeFile(path); !s)
        return s.error();
    auto f = GgufFile::open(path);
    if (!f)
        return f.error();
    return TransformerConfig::fromGguf(*f);
}
// The expert keys every gpt-oss header needs (4 experts, 2 used); `window` > 0 adds the sliding window.
void gptOssKeys(GgufWriter& w, uint32_t window)
{
    w.addU32("gpt-oss.expert_count", 4);
    w.addU32("gpt-oss.expert_used_count", 2);
    if (window > 0)
        w.addU32("gpt-oss.attention.sliding_window", window);
}
} // namespace

class TestTransformerConfig : public QObject
{
    Q_OBJECT
private slots:
    void readsSharedModels_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("headDim");
        QTest::addColumn<int>("kvHeads");
        QTest::addColumn<float>("theta");
        QTest::addColumn<float>("eps");
        QTest::addColumn<bool>("neox");
        QTest::addColumn<bool>("bias");
        QTest::newRow("stories260K") << "stories260K/stories260K.gguf" << 8 << 4 << 10000.0f << 1e-5f << false << false;
        QTest::newRow("qwen2 random") << "random/qwen2-tiny-random.gguf" << 16 << 2 << 1e6f << 1e-6f << true << true;
        QTest::newRow("llama3 random: head_dim from key_length")
            << "random/llama3-tiny-random.gguf" << 16 << 2 << 500000.0f << 1e-5f << false << false;
    }
    void readsSharedModels()
    {
        QFETCH(QString, file);
        QFETCH(int, headDim);
        QFETCH(int, kvHeads);
        QFETCH(float, theta);
        QFETCH(float, eps);
        QFETCH(bool, neox);
        QFETCH(bool, bias);
        const QString path = wstest::testModelPath(file);
        WS_REQUIRE_MODEL_FILE(path);
        auto f = GgufFile::open(path.toStdString());
        QVERIFY(f);
        auto c = TransformerConfig::fromGguf(*f);
        QVERIFY2(c, c ? "" : c.error().message().c_str());
        QCOMPARE(c->headDim, headDim);
        QCOMPARE(c->kvHeadCount, kvHeads);
        QCOMPARE(c->ropeTheta, theta);
        QCOMPARE(c->rmsNormEps, eps);
        QCOMPARE(c->ropeStyle == RopeStyle::Neox, neox);
        QCOMPARE(c->qkvBias, bias);
    }

    void llama3FrequencyScaling()
    {
        QTemporaryDir dir;
        auto c = configOf(dir, "llama", [](GgufWriter& w) {
            w.addU32("llama.attention.key_length", 128);
            w.addF32("llama.rope.freq_base", 500000.0f);
            w.addString("llama.rope.scaling.type", "llama3");
            w.addF32("llama.rope.scaling.factor", 8.0f);
            w.addF32("llama.rope.scaling.low_freq_factor", 1.0f);
            w.addF32("llama.rope.scaling.high_freq_factor", 4.0f);
            w.addU32("llama.rope.scaling.original_context_length", 8192);
        });
        QVERIFY2(c, c ? "" : c.error().message().c_str());
        QCOMPARE(c->ropeFreqFactors.size(), size_t(64));
        QCOMPARE(c->ropeFreqFactors.front(), 1.0f); // highest frequency: unchanged
        QCOMPARE(c->ropeFreqFactors.back(), 8.0f);  // lowest: divided by the factor
        for (size_t i = 1; i < c->ropeFreqFactors.size(); ++i)
            QVERIFY(c->ropeFreqFactors[i] >= c->ropeFreqFactors[i - 1]);
        // Pair 30: wavelength 2*pi*500000^(60/128) = 2947 is between 2048 and 8192: blended.
        const double wavelength = 2 * M_PI * std::pow(500000.0, 60.0 / 128.0);
        const double smooth = (8192.0 / wavelength - 1.0) / 3.0;
        QVERIFY(smooth > 0.0 && smooth < 1.0);
        QVERIFY(std::fabs(c->ropeFreqFactors[30] - 1.0 / ((1.0 - smooth) / 8.0 + smooth)) < 1e-5);
    }

    // gemma3 as llama.cpp reads it (src/models/gemma3.cpp); 8 layers so the default pattern (every 6th layer
    // global) shows.
    void gemma3Rules()
    {
        QTemporaryDir dir;
        auto c = configOf(
            dir, "gemma3",
            [](GgufWriter& w) {
                w.addU32("gemma3.attention.key_length", 32);
                w.addU32("gemma3.attention.sliding_window", 512);
                w.addF32("gemma3.rope.freq_base", 1000000.0f);
                w.addString("gemma3.rope.scaling.type", "linear");
                w.addF32("gemma3.rope.scaling.factor", 8.0f);
            },
            8);
        QVERIFY2(c, c ? "" : c.error().message().c_str());
        QCOMPARE(c->layerWindow, (std::vector<int>{512, 512, 512, 512, 512, 0, 512, 512}));
        QCOMPARE(c->window(5), 0);
        QVERIFY(c->slidingRope(0) && !c->slidingRope(5));
        QCOMPARE(c->ropeTheta, 1000000.0f); // global layers
        QCOMPARE(c->ropeFreqScale, 0.125f);
        QCOMPARE(c->slidingRopeTheta, 10000.0f); // rope.freq_base_swa absent: llama.cpp's 10000
        QCOMPARE(c->slidingRopeFreqScale, 1.0f);
        QCOMPARE(c->embeddingScale, 8.0f); // sqrt(64)
        QCOMPARE(c->queryScale, 1.0f / std::sqrt(32.0f));
        QCOMPARE(c->attentionScale, 1.0f);
        QVERIFY(c->qkNorm && c->postNorms && !c->qkvBias);
        QCOMPARE(c->ropeStyle, RopeStyle::Neox);
        QCOMPARE(c->ffnActivation, FfnActivation::GeluTanh);
        QCOMPARE(c->finalLogitSoftcap, 0.0f);

        auto p = configOf(dir, "gemma3", [](GgufWriter& w) {
            w.addU32("gemma3.attention.sliding_window", 4);
            w.addU32("gemma3.attention.sliding_window_pattern", 2);
            w.addF32("gemma3.rope.freq_base_swa", 20000.0f);
            w.addF32("gemma3.final_logit_softcapping", 30.0f);
        });
        QVERIFY2(p, p ? "" : p.error().message().c_str());
        QCOMPARE(p->layerWindow, (std::vector<int>{4, 0}));
        QCOMPARE(p->slidingRopeTheta, 20000.0f);
        QCOMPARE(p->finalLogitSoftcap, 30.0f);
        QCOMPARE(p->queryScale, 1.0f / std::sqrt(16.0f)); // head size 64 / 4 heads

        // A pattern stored as an array (one flag per layer) is not read, as llama.cpp does not: the default 6.
        auto a = configOf(
            dir, "gemma3",
            [](GgufWriter& w) {
                w.addU32("gemma3.attention.sliding_window", 4);
                w.addI32Array("gemma3.attention.sliding_window_pattern", {1, 1, 0, 1, 1, 1, 1});
            },
            7);
        QVERIFY2(a, a ? "" : a.error().message().c_str());
        QCOMPARE(a->layerWindow, (std::vector<int>{4, 4, 4, 4, 4, 0, 4}));

        // Without a window every layer is global and shares one RoPE.
        auto g = configOf(dir, "gemma3", [](GgufWriter&) {});
        QVERIFY2(g, g ? "" : g.error().message().c_str());
        QVERIFY(g->layerWindow.empty());
        QCOMPARE(g->window(1), 0);
        QVERIFY(!g->slidingRope(0));
        // The other architectures: nothing of this.
        auto q = configOf(dir, "qwen3", [](GgufWriter& w) { w.addU32("qwen3.attention.sliding_window", 4); });
        QVERIFY2(q, q ? "" : q.error().message().c_str());
        QVERIFY(q->layerWindow.empty() && !q->postNorms && q->embeddingScale == 0.0f && q->queryScale == 0.0f);
        QCOMPARE(q->ffnActivation, FfnActivation::Silu);
    }

    // gpt-oss as llama.cpp reads it (src/models/openai-moe.cpp, llama_context's YaRN set-up): 4 layers, default
    // pattern 2 (even layers slide), YaRN factor 32 over 4096 positions: freq_scale 1/32, ext_factor 1, attn_factor
    // (1 + 0.1 ln 32) / (1 + 0.1 ln 32) = 1; attention scale 1 / sqrt(rope dims 16) = 0.25 (key_length is 32).
    void gptOssRules()
    {
        QTemporaryDir dir;
        auto c = configOf(
            dir, "gpt-oss",
            [](GgufWriter& w) {
                w.addU32("gpt-oss.attention.key_length", 32);
                w.addU32("gpt-oss.rope.dimension_count", 16);
                gptOssKeys(w, 128);
                w.addU32("gpt-oss.expert_feed_forward_length", 96);
                w.addF32("gpt-oss.rope.freq_base", 150000.0f);
                w.addString("gpt-oss.rope.scaling.type", "yarn");
                w.addF32("gpt-oss.rope.scaling.factor", 32.0f);
                w.addU32("gpt-oss.rope.scaling.original_context_length", 4096);
            },
            4);
        QVERIFY2(c, c ? "" : c.error().message().c_str());
        QCOMPARE(c->layerWindow, (std::vector<int>{128, 0, 128, 0}));
        QVERIFY(!c->slidingRope(0)); // no rope.freq_base_swa: the sliding layers rotate as the global ones
        QCOMPARE(c->ropeFreqScale, 0.03125f);
        QCOMPARE(c->ropeExtFactor, 1.0f);
        QVERIFY(std::fabs(c->ropeAttnFactor - 1.0f) < 1e-6f);
        QCOMPARE(c->ropeOriginalContext, 4096);
        QCOMPARE(c->ropeTheta, 150000.0f);
        QCOMPARE(c->attentionScale, 0.25f);
        QCOMPARE(c->hiddenDim, 96);
        QCOMPARE(c->expertGating, ExpertGating::SoftmaxWeight);
        QVERIFY(!c->expertWeightsNorm && c->moeBiases && c->qkvBias && c->outputBias && c->attentionSinks);
        QCOMPARE(c->ffnNormTensor, std::string("post_attention_norm"));
        QCOMPARE(c->ffnActivation, FfnActivation::SwigluOai);
        QCOMPARE(c->ropeStyle, RopeStyle::Neox);

        // rope.freq_base_swa, when present, rotates the sliding layers with the global scaling; YaRN without
        // original_context_length takes the trained context.
        auto s = configOf(
            dir, "gpt-oss",
            [](GgufWriter& w) {
                gptOssKeys(w, 8);
                w.addU32("gpt-oss.expert_feed_forward_length", 96);
                w.addU32("gpt-oss.attention.sliding_window_pattern", 3);
                w.addU32("gpt-oss.context_length", 8192);
                w.addF32("gpt-oss.rope.freq_base_swa", 10000.0f);
                w.addString("gpt-oss.rope.scaling.type", "yarn");
                w.addF32("gpt-oss.rope.scaling.factor", 4.0f);
            },
            3);
        QVERIFY2(s, s ? "" : s.error().message().c_str());
        QCOMPARE(s->layerWindow, (std::vector<int>{8, 8, 0}));
        QVERIFY(s->slidingRope(0) && !s->slidingRope(2));
        QCOMPARE(s->slidingRopeTheta, 10000.0f);
        QCOMPARE(s->slidingRopeFreqScale, 0.25f);
        QCOMPARE(s->ropeOriginalContext, 8192);
    }

    void rejectsBadHeaders_data()
    {
        QTest::addColumn<QString>("arch");
        QTest::addColumn<Editor>("edit");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown architecture") << "gpt2" << Editor([](GgufWriter&) {}) << "not supported";
        QTest::newRow("kv heads do not divide heads")
            << "llama" << Editor([](GgufWriter& w) { w.addU32("llama.attention.head_count_kv", 3); })
            << "KV head count";
        QTest::newRow("zero epsilon") << "llama" << Editor([](GgufWriter& w) {
            w.addF32("llama.attention.layer_norm_rms_epsilon", 0.0f);
        }) << "epsilon";
        QTest::newRow("rope dims above head dim")
            << "llama" << Editor([](GgufWriter& w) { w.addU32("llama.rope.dimension_count", 64); }) << "out of range";
        QTest::newRow("unknown rope scaling")
            << "llama" << Editor([](GgufWriter& w) { w.addString("llama.rope.scaling.type", "longrope"); })
            << "longrope";
        QTest::newRow("gpt-oss without a sliding window") << "gpt-oss" << Editor([](GgufWriter& w) {
            gptOssKeys(w, 0);
            w.addU32("gpt-oss.expert_feed_forward_length", 96);
        }) << "sliding window";
        QTest::newRow("gpt-oss without the expert FFN width")
            << "gpt-oss" << Editor([](GgufWriter& w) { gptOssKeys(w, 128); }) << "expert FFN width";
        QTest::newRow("wrong value type")
            << "qwen3" << Editor([](GgufWriter& w) { w.addString("qwen3.attention.head_count_kv", "two"); })
            << "expected an integer";
        QTest::newRow("key and value sizes differ") << "qwen3" << Editor([](GgufWriter& w) {
            w.addU32("qwen3.attention.key_length", 128);
            w.addU32("qwen3.attention.value_length", 64);
        }) << "differ";
    }
    void rejectsBadHeaders()
    {
        QFETCH(QString, arch);
        QFETCH(Editor, edit);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        auto c = configOf(dir, arch.toStdString(), edit);
        QVERIFY(!c);
        const std::string msg = c.error().message();
        QVERIFY2(msg.find(expected.toStdString()) != std::string::npos, msg.c_str());
        QVERIFY2(msg.find("c.gguf") != std::string::npos, msg.c_str());
    }
};

QTEST_GUILESS_MAIN(TestTransformerConfig)
#include "tst_transformerconfig.moc"
