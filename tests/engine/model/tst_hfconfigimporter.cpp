#include "engine/model/hfconfigimporter.h"
#include "engine/model/modelpresetparser.h"
#include "engine/model/modelshape.h"

#include "tests/common/testmodels.h"

#include <QFile>
#include <QTest>

Q_DECLARE_METATYPE(std::string)

namespace {
ws::Expected<ws::ModelConfig> importText(const QByteArray& text)
{
    return ws::importHfConfig(std::string_view(text.constData(), size_t(text.size())), "config.json");
}

ws::ModelConfig preset(const QString& id)
{
    QFile file(wstest::sourcePath(QStringLiteral("resources/presets/models/%1.json").arg(id)));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing preset");
    const QByteArray text = file.readAll();
    return *ws::parseModelPreset(std::string_view(text.constData(), size_t(text.size())), id.toStdString());
}

// config.json texts as the published repositories write them (trimmed to the shape keys).
const QByteArray kLlama31_8b = R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
  "intermediate_size": 14336, "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8,
  "vocab_size": 128256, "max_position_embeddings": 131072, "rope_theta": 500000.0, "rms_norm_eps": 1e-05,
  "tie_word_embeddings": false, "torch_dtype": "bfloat16", "attention_bias": false})";
const QByteArray kQwen3_32b = R"({"model_type": "qwen3", "hidden_size": 5120, "intermediate_size": 25600,
  "num_attention_heads": 64, "num_hidden_layers": 64, "num_key_value_heads": 8, "head_dim": 128,
  "vocab_size": 151936, "max_position_embeddings": 40960, "tie_word_embeddings": false, "attention_bias": false})";
const QByteArray kQwen2_72b = R"({"model_type": "qwen2", "hidden_size": 8192, "intermediate_size": 29568,
  "num_attention_heads": 64, "num_hidden_layers": 80, "num_key_value_heads": 8, "vocab_size": 152064,
  "max_position_embeddings": 131072, "tie_word_embeddings": false, "use_sliding_window": false, "sliding_window": 131072})";
const QByteArray kQwen3_30b = R"({"model_type": "qwen3_moe", "hidden_size": 2048, "intermediate_size": 6144,
  "num_attention_heads": 32, "num_hidden_layers": 48, "num_key_value_heads": 4, "head_dim": 128,
  "vocab_size": 151936, "num_experts": 128, "num_experts_per_tok": 8, "moe_intermediate_size": 768,
  "decoder_sparse_step": 1, "max_position_embeddings": 40960, "tie_word_embeddings": false})";
const QByteArray kMistral = R"({"model_type": "mistral", "hidden_size": 4096, "intermediate_size": 14336,
  "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8, "vocab_size": 32000,
  "max_position_embeddings": 32768, "sliding_window": 4096, "tie_word_embeddings": false})";
const QByteArray kMixtral = R"({"model_type": "mixtral", "hidden_size": 4096, "intermediate_size": 14336,
  "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8, "vocab_size": 32000,
  "num_local_experts": 8, "num_experts_per_tok": 2, "max_position_embeddings": 32768, "sliding_window": null})";
const QByteArray kGemma3 = R"({"model_type": "gemma3", "architectures": ["Gemma3ForConditionalGeneration"],
  "text_config": {"model_type": "gemma3_text", "hidden_size": 5376, "intermediate_size": 21504,
  "num_attention_heads": 32, "num_hidden_layers": 62, "num_key_value_heads": 16, "head_dim": 128,
  "vocab_size": 262208, "sliding_window": 1024, "sliding_window_pattern": 6, "max_position_embeddings": 131072},
  "vision_config": {"hidden_size": 1152}})";
const QByteArray kGptOss = R"({"model_type": "gpt_oss", "hidden_size": 2880, "intermediate_size": 2880,
  "num_attention_heads": 64, "num_hidden_layers": 36, "num_key_value_heads": 8, "head_dim": 64,
  "vocab_size": 201088, "num_local_experts": 128, "num_experts_per_tok": 4, "sliding_window": 128,
  "attention_bias": true, "max_position_embeddings": 131072, "tie_word_embeddings": false})";
const QByteArray kLlama4 = R"({"model_type": "llama4", "text_config": {"model_type": "llama4_text",
  "hidden_size": 5120, "intermediate_size": 8192, "intermediate_size_mlp": 16384, "num_attention_heads": 40,
  "num_hidden_layers": 48, "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 202048,
  "num_local_experts": 128, "num_experts_per_tok": 1, "interleave_moe_layer_step": 2,
  "attention_chunk_size": 8192, "max_position_embeddings": 1048576, "tie_word_embeddings": false}})";
// DeepSeek-V3 and Kimi K2 (multi-head latent attention, dense layers first) and GLM-4.5-style glm4_moe, as their
// config.json files write them [DeepSeek-V3-config] [Kimi-K2-config] [GLM-4.x-config] (docs/sources.md).
const QByteArray kDeepSeekV3 = R"({"model_type": "deepseek_v3", "hidden_size": 7168, "intermediate_size": 18432,
  "moe_intermediate_size": 2048, "num_attention_heads": 128, "num_key_value_heads": 128, "num_hidden_layers": 61,
  "vocab_size": 129280, "n_routed_experts": 256, "n_shared_experts": 1, "num_experts_per_tok": 8,
  "moe_layer_freq": 1, "first_k_dense_replace": 3, "kv_lora_rank": 512, "q_lora_rank": 1536,
  "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128, "topk_method": "noaux_tc",
  "num_nextn_predict_layers": 1, "max_position_embeddings": 163840, "tie_word_embeddings": false})";
const QByteArray kKimiK2 = R"({"model_type": "kimi_k2", "hidden_size": 7168, "intermediate_size": 18432,
  "moe_intermediate_size": 2048, "num_attention_heads": 64, "num_key_value_heads": 64, "num_hidden_layers": 61,
  "vocab_size": 163840, "n_routed_experts": 384, "n_shared_experts": 1, "num_experts_per_tok": 8,
  "moe_layer_freq": 1, "first_k_dense_replace": 1, "kv_lora_rank": 512, "q_lora_rank": 1536,
  "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128, "topk_method": "noaux_tc",
  "num_nextn_predict_layers": 0, "max_position_embeddings": 131072, "tie_word_embeddings": false})";
const QByteArray kGlm4Moe = R"({"model_type": "glm4_moe", "hidden_size": 5120, "intermediate_size": 12288,
  "moe_intermediate_size": 1536, "num_attention_heads": 96, "num_key_value_heads": 8, "head_dim": 128,
  "num_hidden_layers": 92, "vocab_size": 151552, "n_routed_experts": 160, "n_shared_experts": 1,
  "num_experts_per_tok": 8, "first_k_dense_replace": 3, "num_nextn_predict_layers": 1, "attention_bias": true,
  "use_qk_norm": true, "max_position_embeddings": 202752, "tie_word_embeddings": false})";
} // namespace

class TestHfConfigImporter : public QObject
{
    Q_OBJECT
private slots:
    // An imported config describes the same tensors as the shipped preset of that model.
    void matchesPreset_data()
    {
        QTest::addColumn<QByteArray>("config");
        QTest::addColumn<QString>("presetId");
        QTest::addColumn<QString>("architecture");
        QTest::newRow("llama") << kLlama31_8b << "llama-3.1-8b"
                               << "llama";
        QTest::newRow("qwen3 (head_dim != hidden/heads)") << kQwen3_32b << "qwen3-32b"
                                                          << "qwen3";
        QTest::newRow("qwen2 (q/k/v biases)") << kQwen2_72b << "qwen2-72b"
                                              << "qwen2";
        QTest::newRow("qwen3_moe") << kQwen3_30b << "qwen3-30b-a3b"
                                   << "qwen3moe";
        QTest::newRow("mistral (sliding window)") << kMistral << "mistral-7b"
                                                  << "mistral";
        QTest::newRow("mixtral") << kMixtral << "mixtral-8x7b"
                                 << "mixtral";
        QTest::newRow("gemma3 (text_config)") << kGemma3 << "gemma-3-27b"
                                              << "gemma3";
        QTest::newRow("gpt_oss") << kGptOss << "gpt-oss-120b"
                                 << "gpt-oss";
        QTest::newRow("llama4 (text_config, interleaved MoE)") << kLlama4 << "llama-4-maverick"
                                                               << "llama4";
        QTest::newRow("deepseek_v3 (latent attention)") << kDeepSeekV3 << "deepseek-r1"
                                                        << "deepseek2";
        QTest::newRow("kimi_k2") << kKimiK2 << "kimi-k2"
                                 << "deepseek2";
        QTest::newRow("glm4_moe") << kGlm4Moe << "glm-4.7"
                                  << "glm4moe";
    }
    void matchesPreset()
    {
        QFETCH(QByteArray, config);
        QFETCH(QString, presetId);
        QFETCH(QString, architecture);
        auto imported = importText(config);
        QVERIFY2(imported.hasValue(), imported.hasValue() ? "" : imported.error().message().c_str());
        QCOMPARE(QString::fromStdString(imported->architecture), architecture);
        const ws::ModelConfig expected = preset(presetId);
        const ws::ModelShape a(*imported);
        const ws::ModelShape b(expected);
        QCOMPARE(a.totalParameters(), b.totalParameters());
        QCOMPARE(a.activeParameters(), b.activeParameters());
        QCOMPARE(a.kvBytes(65536, 2), b.kvBytes(65536, 2));
        QCOMPARE(imported->layers, expected.layers);
        QCOMPARE(imported->headDim, expected.headDim);
        QCOMPARE(imported->kvLoraRank, expected.kvLoraRank);
        QCOMPARE(imported->denseLayersFirst, expected.denseLayersFirst);
        QCOMPARE(imported->mtpLayers, expected.mtpLayers);
        QCOMPARE(a.mtpParameters(), b.mtpParameters());
    }

    void bad_data()
    {
        QTest::addColumn<QByteArray>("config");
        QTest::addColumn<QString>("expectInError");
        QTest::newRow("corrupt json") << QByteArray(R"({"model_type": "llama", "hidden_size": 40)") << "not valid JSON";
        QTest::newRow("not an object") << QByteArray("[]") << "JSON object";
        QTest::newRow("unknown model_type")
            << QByteArray(R"({"model_type": "rwkv", "hidden_size": 64})") << "unsupported model_type";
        QTest::newRow("missing layers") << QByteArray(kLlama31_8b).replace(R"("num_hidden_layers": 32,)", "")
                                        << "num_hidden_layers";
        QTest::newRow("string size")
            << QByteArray(kLlama31_8b).replace(R"("hidden_size": 4096)", R"("hidden_size": "4096")") << "hidden_size";
        QTest::newRow("negative vocab")
            << QByteArray(kLlama31_8b).replace(R"("vocab_size": 128256)", R"("vocab_size": -5)") << "vocabSize";
        QTest::newRow("heads do not divide hidden")
            << QByteArray(kLlama31_8b).replace(R"("num_attention_heads": 32)", R"("num_attention_heads": 24)")
            << "do not divide";
        QTest::newRow("size of -1e300") // int(-1e300) was undefined behaviour (fuzz_hfconfig)
            << QByteArray(kLlama31_8b).replace(R"("hidden_size": 4096)", R"("hidden_size": -1e300)") << "hidden_size";
        QTest::newRow("two billion layers") // a tensor list of gigabytes (fuzz_hfconfig: out of memory)
            << QByteArray(kLlama31_8b).replace(R"("num_hidden_layers": 32)", R"("num_hidden_layers": 2000000000)")
            << "layers: must be at most 10000";
        QTest::newRow("hidden size of two billion")
            << QByteArray(kLlama31_8b).replace(R"("hidden_size": 4096)", R"("hidden_size": 2000000000)")
            << "parameters; at most 1e15";
        QTest::newRow("moe without experts per token")
            << QByteArray(kMixtral).replace(R"("num_experts_per_tok": 2,)", "") << "experts_per_token";
    }
    void bad()
    {
        QFETCH(QByteArray, config);
        QFETCH(QString, expectInError);
        auto imported = importText(config);
        QVERIFY(!imported.hasValue());
        const QString message = QString::fromStdString(imported.error().message());
        QVERIFY2(message.startsWith(QLatin1String("config.json: ")), qPrintable(message));
        QVERIFY2(message.contains(expectInError), qPrintable(message));
    }
};

QTEST_GUILESS_MAIN(TestHfConfigImporter)
#include "tst_hfconfigimporter.moc"
