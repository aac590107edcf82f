#include "engine/model/ggufmodelimporter.h"

#include <cctype>
#include <optional>

namespace ws {

namespace {
std::string architectureFromGguf(const std::string& arch)
{
    if (arch == "llama" || arch == "qwen2" || arch == "qwen3" || arch == "qwen3moe" || arch == "gemma3" ||
        arch == "llama4")
        return arch;
    if (arch == "gpt-oss" || arch == "gptoss")
        return "gpt-oss";
    return {};
}

std::optional<Precision> precisionOf(GgmlType type)
{
    switch (type) {
    case GgmlType::F32: return Precision::Fp32;
    case GgmlType::F16: return Precision::Fp16;
    case GgmlType::BF16: return Precision::Bf16;
    case GgmlType::Q8_0: return Precision::Int8;
    case GgmlType::Q4_0:
    case GgmlType::Q4_K: return Precision::Int4;
    default: return std::nullopt;
    }
}
} // namespace

Expected<ModelConfig> importGgufModel(const GgufFile& f)
{
    auto archName = f.getString("general.architecture");
    if (!archName)
        return archName.error();
    const std::string gguArch(archName.value());
    ModelConfig c;
    c.architecture = architectureFromGguf(gguArch);
    if (c.architecture.empty())
        return f.error(ErrorCode::Unsupported, "unsupported architecture '" + gguArch + "'", "general.architecture");
    const std::string p = gguArch + ".";
    auto u32 = [&](const std::string& key) -> Expected<uint32_t> { return f.getU32(key); };
    auto layers = u32(p + "block_count");
    auto hidden = u32(p + "embedding_length");
    auto heads = u32(p + "attention.head_count");
    if (!layers)
        return layers.error();
    if (!hidden)
        return hidden.error();
    if (!heads)
        return heads.error();
    auto kvHeads = f.getU32Or(p + "attention.head_count_kv", heads.value());
    auto ffn = f.getU32Or(p + "feed_forward_length", 0);
    auto headDim = f.getU32Or(p + "attention.key_length", 0);
    auto context = f.getU32Or(p + "context_length", 0);
    auto experts = f.getU32Or(p + "expert_count", 0);
    auto expertsUsed = f.getU32Or(p + "expert_used_count", 0);
    auto expertFfn = f.getU32Or(p + "expert_feed_forward_length", 0);
    auto shared = f.getU32Or(p + "expert_shared_count", 0);
    auto window = f.getU32Or(p + "attention.sliding_window", 0);
    auto eps = f.getF32Or(p + "attention.layer_norm_rms_epsilon", 1e-6f);
    auto theta = f.getF32Or(p + "rope.freq_base", 10000.0f);
    for (const Expected<uint32_t>* v : {&kvHeads, &ffn, &headDim, &context, &experts, &expertsUsed, &expertFfn, &shared, &window})
        if (!*v)
            return v->error();
    if (!eps)
        return eps.error();
    if (!theta)
        return theta.error();

    c.layers = int(layers.value());
    c.hiddenSize = int(hidden.value());
    c.headCount = int(heads.value());
    c.kvHeadCount = int(kvHeads.value());
    c.headDim = int(headDim.value());
    c.ffnSize = int(ffn.value());
    c.contextLength = context.value();
    c.expertCount = int(experts.value());
    c.expertsPerToken = int(expertsUsed.value());
    c.expertFfnSize = int(expertFfn.value() ? expertFfn.value() : (c.expertCount ? ffn.value() : 0));
    c.sharedExpertCount = int(shared.value());
    c.slidingWindow = int(window.value());
    c.rmsNormEps = double(eps.value());
    c.ropeTheta = double(theta.value());

    // Vocabulary: the explicit key, else the token list, else the embedding rows.
    auto vocab = f.getU32Or(p + "vocab_size", 0);
    if (!vocab)
        return vocab.error();
    c.vocabSize = int(vocab.value());
    if (c.vocabSize == 0 && f.has("tokenizer.ggml.tokens")) {
        auto n = f.arrayLength("tokenizer.ggml.tokens");
        if (!n)
            return n.error();
        c.vocabSize = int(n.value());
    }
    const GgufTensorInfo* embd = f.findTensor("token_embd.weight");
    if (c.vocabSize == 0 && embd)
        c.vocabSize = int(embd->rowCount());
    c.tiedEmbeddings = f.findTensor("output.weight") == nullptr;
    c.attentionBias = f.findTensor("blk.0.attn_q.bias") != nullptr;
    c.attentionOutputBias = f.findTensor("blk.0.attn_output.bias") != nullptr;
    c.qkNorm = f.findTensor("blk.0.attn_q_norm.weight") != nullptr;
    c.attentionSinks = f.findTensor("blk.0.attn_sinks.weight") != nullptr;
    if (c.architecture == "gemma3")
        c.normsPerLayer = 4;
    if (c.architecture == "llama" && c.expertCount > 0)
        c.architecture = "mixtral";
    if (const GgufTensorInfo* q = f.findTensor("blk.0.attn_q.weight"))
        if (auto prec = precisionOf(q->type))
            c.nativePrecision = *prec;

    const std::string name = f.has("general.name") ? std::string(f.getString("general.name").value()) : gguArch;
    c.name = name;
    std::string stem = f.path().substr(f.path().find_last_of('/') + 1);
    if (const auto dot = stem.rfind('.'); dot != std::string::npos)
        stem = stem.substr(0, dot);
    c.id = "import-";
    for (char ch : stem)
        c.id += (ch >= 'A' && ch <= 'Z') ? char(ch - 'A' + 'a') : ((std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '-') ? ch : '-');
    for (const char* field : {"layers", "hiddenSize", "ffnSize", "headCount", "kvHeadCount", "headDim", "vocabSize",
                              "tiedEmbeddings", "contextLength", "expertCount", "expertsPerToken", "expertFfnSize"})
        c.sources[field] = "GGUF header: " + f.path();
    if (auto s = validateModelConfig(c, f.path()); !s)
        return s.error();
    return c;
}

Expected<ModelConfig> importGgufModel(const std::string& path)
{
    auto f = GgufFile::open(path);
    if (!f)
        return f.error();
    return importGgufModel(f.value());
}

} // namespace ws
