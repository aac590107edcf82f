#include "engine/model/ggufmodelimporter.h"

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
    case GgmlType::F32:
        return Precision::Fp32;
    case GgmlType::F16:
        return Precision::Fp16;
    case GgmlType::BF16:
        return Precision::Bf16;
    case GgmlType::Q8_0:
    case GgmlType::Q5_0: // 5- and 6-bit types take the nearest wider integer precision the placement knows
    case GgmlType::Q5_1:
    case GgmlType::Q5_K:
    case GgmlType::Q6_K:
        return Precision::Int8;
    case GgmlType::Q4_0:
    case GgmlType::Q4_1:
    case GgmlType::Q2_K: // narrower than 4 bits: counted as 4-bit
    case GgmlType::Q3_K:
    case GgmlType::Q4_K:
    case GgmlType::IQ4_NL:
    case GgmlType::IQ4_XS:
        return Precision::Int4;
    case GgmlType::MXFP4:
        return Precision::Fp4; // 17 bytes per 32, the same block as fp4
    default:
        return std::nullopt;
    }
}
} // namespace

Expected<ModelConfig> importGgufModel(const GgufFile& f)
{
    auto params = GgufHyperParams::read(f);
    if (!params)
        return params.error();
    return importGgufModel(*params, f);
}

Expected<ModelConfig> importGgufModel(const GgufHyperParams& h, const GgufFile& f)
{
    const std::string& gguArch = h.architecture;
    ModelConfig c;
    c.architecture = architectureFromGguf(gguArch);
    if (c.architecture.empty())
        return f.error(ErrorCode::Unsupported, "unsupported architecture '" + gguArch + "'", "general.architecture");
    c.layers = int(h.blockCount);
    c.hiddenSize = int(h.embeddingLength);
    c.headCount = int(h.headCount);
    c.kvHeadCount = int(h.headCountKv);
    c.headDim = int(h.keyLength);
    c.ffnSize = int(h.feedForwardLength);
    c.contextLength = h.contextLength;
    c.expertCount = int(h.expertCount);
    c.expertsPerToken = int(h.expertUsedCount);
    c.expertFfnSize =
        int(h.expertFeedForwardLength ? h.expertFeedForwardLength : (c.expertCount ? h.feedForwardLength : 0));
    c.sharedExpertCount = int(h.expertSharedCount);
    c.slidingWindow = int(h.slidingWindow);
    c.rmsNormEps = double(h.rmsNormEps);
    c.ropeTheta = double(h.ropeFreqBase);

    // Vocabulary: the explicit key, else the token list, else the embedding rows.
    c.vocabSize = int(h.vocabSize);
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

    c.name = importedModelName(h.name, f.path(), gguArch);
    c.id = importedModelId(f.path());
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
