#include "engine/decode/transformerconfig.h"

#include "engine/gguf/gguffile.h"
#include "engine/gguf/llama2ccheckpoint.h"

#include <cmath>

namespace ws {

namespace {
Error configError(const GgufFile& file, const std::string& field, std::string text)
{
    return file.error(ErrorCode::Format, std::move(text), field);
}
} // namespace

Expected<TransformerConfig> TransformerConfig::fromGguf(const GgufFile& file)
{
    TransformerConfig c;
    auto arch = file.getString("general.architecture");
    if (!arch)
        return arch.error();
    c.architecture = std::string(*arch);
    if (c.architecture == "qwen2") {
        c.qkvBias = true;
        c.ropeStyle = RopeStyle::Neox;
    } else if (c.architecture == "qwen3") {
        c.qkNorm = true;
        c.ropeStyle = RopeStyle::Neox;
    } else if (c.architecture != "llama") {
        return file.error(ErrorCode::Unsupported,
                          "architecture '" + c.architecture + "' is not supported (llama, qwen2 and qwen3 are)",
                          "general.architecture");
    }
    const std::string p = c.architecture + ".";
    auto u32 = [&](const std::string& key, int& out, uint32_t lo, uint32_t hi) -> std::optional<Error> {
        auto v = file.getU32(p + key);
        if (!v)
            return v.error();
        if (*v < lo || *v > hi)
            return configError(file, p + key, "value " + std::to_string(*v) + " is out of range");
        out = static_cast<int>(*v);
        return std::nullopt;
    };
    if (auto e = u32("embedding_length", c.dim, 1, 1 << 16))
        return *e;
    if (auto e = u32("feed_forward_length", c.hiddenDim, 1, 1 << 18))
        return *e;
    if (auto e = u32("block_count", c.layerCount, 1, 1024))
        return *e;
    if (auto e = u32("attention.head_count", c.headCount, 1, 1024))
        return *e;
    c.kvHeadCount = c.headCount;
    if (file.has(p + "attention.head_count_kv"))
        if (auto e = u32("attention.head_count_kv", c.kvHeadCount, 1, 1024))
            return *e;
    c.contextLength = 2048;
    if (file.has(p + "context_length"))
        if (auto e = u32("context_length", c.contextLength, 1, 1 << 24))
            return *e;
    if (file.has(p + "attention.key_length")) {
        if (auto e = u32("attention.key_length", c.headDim, 2, 1 << 12))
            return *e;
        int valueLength = c.headDim;
        if (file.has(p + "attention.value_length"))
            if (auto e = u32("attention.value_length", valueLength, 2, 1 << 12))
                return *e;
        if (valueLength != c.headDim)
            return file.error(ErrorCode::Unsupported, "key and value head sizes differ",
                              p + "attention.value_length");
    } else {
        if (c.dim % c.headCount != 0)
            return configError(file, p + "attention.head_count", "embedding length is not a multiple of the head count");
        c.headDim = c.dim / c.headCount;
    }
    if (c.headCount % c.kvHeadCount != 0)
        return configError(file, p + "attention.head_count_kv", "head count is not a multiple of the KV head count");
    c.ropeDims = c.headDim;
    if (file.has(p + "rope.dimension_count"))
        if (auto e = u32("rope.dimension_count", c.ropeDims, 2, static_cast<uint32_t>(c.headDim)))
            return *e;
    if (c.ropeDims % 2 != 0 || c.headDim % 2 != 0)
        return configError(file, p + "rope.dimension_count", "rotated dimensions must be even");
    auto eps = file.getF32Or(p + "attention.layer_norm_rms_epsilon", 1e-5f);
    if (!eps)
        return eps.error();
    if (!(*eps > 0.0f && *eps < 1.0f))
        return configError(file, p + "attention.layer_norm_rms_epsilon", "epsilon is out of range");
    c.rmsNormEps = *eps;
    auto theta = file.getF32Or(p + "rope.freq_base", 10000.0f);
    if (!theta)
        return theta.error();
    if (!(*theta > 1.0f && *theta < 1e12f))
        return configError(file, p + "rope.freq_base", "RoPE base is out of range");
    c.ropeTheta = *theta;
    if (file.has(p + "rope.scaling.type")) {
        auto type = file.getString(p + "rope.scaling.type");
        if (!type)
            return type.error();
        if (*type == "linear") {
            auto factor = file.getF32(p + "rope.scaling.factor");
            if (!factor)
                return factor.error();
            if (!(*factor > 0.0f))
                return configError(file, p + "rope.scaling.factor", "factor must be positive");
            c.ropeFreqScale = 1.0f / *factor;
        } else if (*type == "llama3") {
            auto factor = file.getF32(p + "rope.scaling.factor");
            if (!factor)
                return factor.error();
            auto low = file.getF32Or(p + "rope.scaling.low_freq_factor", 1.0f);
            auto high = file.getF32Or(p + "rope.scaling.high_freq_factor", 4.0f);
            auto original = file.getU32Or(p + "rope.scaling.original_context_length", 8192);
            if (!low || !high || !original)
                return !low ? low.error() : !high ? high.error() : original.error();
            if (!(*factor >= 1.0f) || !(*low > 0.0f) || !(*high > *low) || *original == 0)
                return configError(file, p + "rope.scaling.factor", "llama3 RoPE scaling parameters are out of range");
            c.ropeFreqFactors = llama3FreqFactors(c.ropeDims, c.ropeTheta, *factor, *low, *high, float(*original));
        } else if (*type != "none") {
            return file.error(ErrorCode::Unsupported, "RoPE scaling '" + std::string(*type) + "' is not supported",
                              p + "rope.scaling.type");
        }
    }
    auto scale = file.getF32Or(p + "attention.scale", 0.0f);
    if (!scale)
        return scale.error();
    c.attentionScale = *scale;
    // The vocabulary size is the embedding's row count (checked with the weights).
    if (const auto* emb = file.findTensor("token_embd.weight"))
        c.vocabSize = static_cast<int>(std::min<uint64_t>(emb->dims[1], 1 << 24));
    return c;
}

std::vector<float> TransformerConfig::llama3FreqFactors(int ropeDims, float theta, float factor, float lowFreqFactor,
                                                        float highFreqFactor, float originalContext)
{
    std::vector<float> out(size_t(ropeDims / 2));
    const double lowWavelength = double(originalContext) / lowFreqFactor;
    const double highWavelength = double(originalContext) / highFreqFactor;
    for (size_t i = 0; i < out.size(); ++i) {
        const double freq = 1.0 / std::pow(double(theta), double(2 * i) / ropeDims);
        const double wavelength = 2.0 * 3.14159265358979323846 / freq;
        if (wavelength < highWavelength) {
            out[i] = 1.0f;
        } else if (wavelength > lowWavelength) {
            out[i] = factor;
        } else {
            const double smooth = (originalContext / wavelength - lowFreqFactor) / (highFreqFactor - lowFreqFactor);
            out[i] = float(1.0 / ((1.0 - smooth) / factor + smooth));
        }
    }
    return out;
}

Expected<TransformerConfig> TransformerConfig::fromLlama2c(const Llama2cHeader& h)
{
    TransformerConfig c;
    c.architecture = "llama";
    c.dim = h.dim;
    c.hiddenDim = h.hiddenDim;
    c.layerCount = h.layerCount;
    c.headCount = h.headCount;
    c.kvHeadCount = h.kvHeadCount;
    c.headDim = h.headSize();
    c.vocabSize = h.vocabSize;
    c.contextLength = h.seqLen;
    c.rmsNormEps = 1e-5f; // run.c's constant
    c.ropeTheta = 10000.0f;
    c.ropeDims = c.headDim;
    c.ropeStyle = RopeStyle::Normal;
    return c;
}

} // namespace ws
