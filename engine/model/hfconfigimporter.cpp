#include "engine/model/hfconfigimporter.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cmath>
#include <map>

namespace ws {

namespace {
using nlohmann::json;

class ConfigReader
{
public:
    ConfigReader(const json& doc, std::string file) : m_doc(doc), m_file(std::move(file)) {}

    bool ok() const { return !m_failed; }
    const Error& error() const { return m_error; }

    void fail(const std::string& key, const std::string& text)
    {
        if (m_failed)
            return;
        m_failed = true;
        m_error = makeError(ErrorCode::Format, text, key);
        m_error.file = m_file;
    }

    bool has(const char* key) const { return m_doc.contains(key) && !m_doc[key].is_null(); }

    // Integer keys: required (fallback < 0) or optional with a fallback.
    int integer(const char* key, int fallback = -1)
    {
        if (m_failed)
            return 0;
        if (!has(key)) {
            if (fallback < 0)
                fail(key, "missing");
            return std::max(fallback, 0);
        }
        const json& v = m_doc[key];
        // Both signs bounded: int(-1e300) is undefined behaviour, not a negative count for the validator to refuse.
        if (!v.is_number() || std::floor(v.get<double>()) != v.get<double>() || std::fabs(v.get<double>()) > 2.0e9) {
            fail(key, "must be an integer, got " + v.dump());
            return 0;
        }
        return int(v.get<double>());
    }
    double number(const char* key, double fallback)
    {
        if (m_failed || !has(key))
            return fallback;
        const json& v = m_doc[key];
        if (!v.is_number()) {
            fail(key, "must be a number, got " + v.dump());
            return fallback;
        }
        return v.get<double>();
    }
    bool boolean(const char* key, bool fallback)
    {
        if (m_failed || !has(key))
            return fallback;
        const json& v = m_doc[key];
        if (!v.is_boolean()) {
            fail(key, "must be true or false, got " + v.dump());
            return fallback;
        }
        return v.get<bool>();
    }
    std::string text(const char* key)
    {
        if (m_failed || !has(key))
            return {};
        const json& v = m_doc[key];
        if (!v.is_string()) {
            fail(key, "must be a string, got " + v.dump());
            return {};
        }
        return v.get<std::string>();
    }

private:
    const json& m_doc;
    std::string m_file;
    bool m_failed = false;
    Error m_error;
};

const std::map<std::string, std::string>& modelTypes()
{
    static const std::map<std::string, std::string> types{
        {"llama", "llama"},           {"mistral", "mistral"},    {"mixtral", "mixtral"},
        {"qwen2", "qwen2"},           {"qwen3", "qwen3"},        {"qwen3_moe", "qwen3moe"},
        {"gemma3", "gemma3"},         {"gemma3_text", "gemma3"}, {"gpt_oss", "gpt-oss"},
        {"llama4", "llama4"},         {"llama4_text", "llama4"}, {"deepseek_v3", "deepseek2"},
        {"deepseek_v2", "deepseek2"}, {"kimi_k2", "deepseek2"},  {"glm4_moe", "glm4moe"},
    };
    return types;
}

std::string stem(const std::string& path)
{
    std::string name = path.substr(path.find_last_of('/') + 1);
    const auto dot = name.rfind('.');
    return dot == std::string::npos ? name : name.substr(0, dot);
}
} // namespace

Expected<ModelConfig> importHfConfig(std::string_view jsonText, const std::string& fileName)
{
    json doc;
    try {
        doc = json::parse(jsonText.begin(), jsonText.end());
    } catch (const json::exception& e) { // a syntax error, or a number too large for a double (out_of_range)
        Error err = makeError(ErrorCode::Format, std::string("not valid JSON: ") + e.what());
        err.file = fileName;
        if (const auto* syntax = dynamic_cast<const json::parse_error*>(&e))
            err.offset = syntax->byte;
        return err;
    }
    if (!doc.is_object()) {
        Error err = makeError(ErrorCode::Format, "a config.json must be a JSON object");
        err.file = fileName;
        return err;
    }
    // Multimodal configs (gemma3, llama4) keep the decoder under text_config.
    const json* textConfig = &doc;
    if (doc.contains("text_config") && doc["text_config"].is_object())
        textConfig = &doc["text_config"];
    ConfigReader top(doc, fileName);
    ConfigReader r(*textConfig, fileName);
    std::string modelType = top.text("model_type");
    if (modelType.empty())
        modelType = r.text("model_type");
    if (!top.ok())
        return top.error();
    const auto type = modelTypes().find(modelType);
    if (type == modelTypes().end()) {
        Error err = makeError(ErrorCode::Unsupported,
                              modelType.empty()
                                  ? std::string("missing model_type")
                                  : "unsupported model_type '" + modelType +
                                        "' (llama, mistral, mixtral, qwen2, qwen3, qwen3_moe, gemma3, gpt_oss, llama4)",
                              "model_type");
        err.file = fileName;
        return err;
    }

    ModelConfig c;
    c.architecture = type->second;
    const std::string& a = c.architecture;
    const std::string nameOrPath = top.text("_name_or_path");
    c.name = nameOrPath.empty() ? stem(fileName) : nameOrPath.substr(nameOrPath.find_last_of('/') + 1);
    c.id = "import-" + stem(fileName);
    for (char& ch : c.id)
        ch = (ch >= 'A' && ch <= 'Z')
                 ? char(ch - 'A' + 'a')
                 : ((std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '-') ? ch : '-');

    c.layers = r.integer("num_hidden_layers");
    c.hiddenSize = r.integer("hidden_size");
    c.headCount = r.integer("num_attention_heads");
    c.kvHeadCount = r.has("num_key_value_heads") ? r.integer("num_key_value_heads") : c.headCount;
    c.headDim = r.integer("head_dim", 0);
    c.vocabSize = r.integer("vocab_size");
    c.contextLength = r.integer("max_position_embeddings", 0);
    c.tiedEmbeddings = r.boolean("tie_word_embeddings", top.boolean("tie_word_embeddings", a == "gemma3"));
    c.ropeTheta = r.number("rope_theta", c.ropeTheta);
    c.rmsNormEps = r.number("rms_norm_eps", c.rmsNormEps);
    const bool attentionBias = r.boolean("attention_bias", false);
    c.attentionBias = a == "qwen2" || attentionBias;
    c.attentionOutputBias = attentionBias && a != "qwen2" && a != "glm4moe"; // glm4_moe: Q, K and V only
    c.qkNorm = a == "qwen3" || a == "qwen3moe" || a == "gemma3" || (a == "glm4moe" && r.boolean("use_qk_norm", false));
    c.normsPerLayer = a == "gemma3" ? 4 : 2;
    c.ffnSize = r.integer("intermediate_size", 0);

    if (a == "mixtral" || a == "gpt-oss" || a == "llama4") {
        c.expertCount = r.integer("num_local_experts");
        c.expertsPerToken =
            r.has("num_experts_per_tok") ? r.integer("num_experts_per_tok") : r.integer("experts_per_token");
        c.expertFfnSize = c.ffnSize;
    } else if (a == "qwen3moe") {
        c.expertCount = r.integer("num_experts");
        c.expertsPerToken = r.integer("num_experts_per_tok");
        c.expertFfnSize = r.integer("moe_intermediate_size");
        c.moeLayerStep = r.integer("decoder_sparse_step", 1);
    }
    if (a == "deepseek2" || a == "glm4moe") { // DeepSeek-V3 and GLM-4.5 style: dense layers first, shared experts
        c.expertCount = r.integer("n_routed_experts");
        c.expertsPerToken = r.integer("num_experts_per_tok");
        c.expertFfnSize = r.integer("moe_intermediate_size");
        c.sharedExpertCount = r.integer("n_shared_experts", 0);
        c.moeLayerStep = r.integer("moe_layer_freq", 1);
        c.denseLayersFirst = r.integer("first_k_dense_replace", 0);
        c.mtpLayers = r.integer("num_nextn_predict_layers", 0);
        c.routerBias = r.has("topk_method") ? r.text("topk_method") == "noaux_tc" : a == "glm4moe";
    }
    if (a == "deepseek2") { // multi-head latent attention; q_lora_rank is null where q is one projection
        c.kvLoraRank = r.integer("kv_lora_rank");
        c.qLoraRank = r.integer("q_lora_rank", 0);
        c.qkNopeHeadDim = r.integer("qk_nope_head_dim");
        c.qkRopeHeadDim = r.integer("qk_rope_head_dim");
        c.vHeadDim = r.integer("v_head_dim");
        c.headDim = c.qkNopeHeadDim + c.qkRopeHeadDim;
    }
    if (a == "gpt-oss") {
        c.expertBias = true;
        c.routerBias = true;
        c.attentionSinks = true;
        c.slidingWindow = r.integer("sliding_window", 0);
        c.globalLayerPeriod = c.slidingWindow > 0 ? 2 : 0; // layer_types alternate sliding, full
    }
    if (a == "llama4") {
        c.ffnSize = r.integer("intermediate_size_mlp", c.ffnSize);
        c.moeLayerStep = r.integer("interleave_moe_layer_step", 1);
        c.sharedExpertCount = 1;
        c.sharedExpertFfnSize = c.expertFfnSize;
        c.slidingWindow = r.integer("attention_chunk_size", 0);
        c.globalLayerPeriod = c.slidingWindow > 0 ? r.integer("no_rope_layer_interval", 4) : 0;
    }
    if (a == "gemma3") {
        c.slidingWindow = r.integer("sliding_window", 0);
        c.globalLayerPeriod = r.integer("sliding_window_pattern", 6);
    }
    if (a == "mistral" || a == "mixtral")
        c.slidingWindow = r.integer("sliding_window", 0);
    if ((a == "qwen2" || a == "qwen3") && r.boolean("use_sliding_window", false))
        c.slidingWindow = r.integer("sliding_window", 0);
    const std::string dtype = r.has("torch_dtype") ? r.text("torch_dtype") : top.text("torch_dtype");
    if (dtype == "float32")
        c.nativePrecision = Precision::Fp32;
    else if (dtype == "float16")
        c.nativePrecision = Precision::Fp16;
    if (!r.ok())
        return r.error();
    if (!top.ok())
        return top.error();
    if (c.contextLength == 0)
        c.contextLength = 4096;
    for (const char* field :
         {"layers",          "hiddenSize",    "ffnSize",           "headCount",        "kvHeadCount",
          "headDim",         "vocabSize",     "tiedEmbeddings",    "contextLength",    "expertCount",
          "expertsPerToken", "expertFfnSize", "sharedExpertCount", "denseLayersFirst", "mtpLayers",
          "kvLoraRank",      "qLoraRank",     "qkNopeHeadDim",     "qkRopeHeadDim",    "vHeadDim"})
        c.sources[field] = "Hugging Face config.json: " + fileName;
    if (auto s = validateModelConfig(c, fileName); !s)
        return s.error();
    return c;
}

} // namespace ws
