#include "engine/decode/transformerconfig.h"

#include "engine/gguf/gguffile.h"
#include "engine/gguf/llama2ccheckpoint.h"
#include "engine/model/ggufhyperparams.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace ws {

namespace {
Error configError(const GgufFile& file, const std::string& field, std::string text)
{
    return file.error(ErrorCode::Format, std::move(text), field);
}

// llama.cpp's set_swa_pattern(pattern) (dense_first false): layer il slides when il % pattern < pattern - 1.
void slidingLayers(TransformerConfig& c, uint32_t window, uint32_t patternKey, int defaultPattern)
{
    const int pattern = patternKey ? static_cast<int>(std::min(patternKey, 1u << 16)) : defaultPattern;
    c.layerWindow.assign(size_t(c.layerCount), 0);
    for (int il = 0; il < c.layerCount; ++il)
        if (il % pattern < pattern - 1)
            c.layerWindow[size_t(il)] = static_cast<int>(window);
}

// gemma3's rules, as llama.cpp reads a gemma3 header (src/models/gemma3.cpp):
// - the embedding is multiplied by sqrt(n_embd), q by the attention scale before attention (scale 1 then):
//   1 / sqrt(key_length), except the 27B (62 layers: query_pre_attn_scalar = n_embd / n_head), 1 / sqrt(that);
// - with attention.sliding_window > 0, layer il slides when il % pattern < pattern - 1
//   (attention.sliding_window_pattern, 6 when absent: five sliding layers, then a global one);
//   sliding layers rotate with rope.freq_base_swa (10000 when absent) and no RoPE scaling;
// - final_logit_softcapping when present.
std::optional<Error> applyGemma3(const GgufHyperParams& h, const GgufFile& file, TransformerConfig& c)
{
    const std::string p = c.architecture + ".";
    c.embeddingScale = std::sqrt(static_cast<float>(c.dim));
    const float scaled = c.layerCount == 62 ? static_cast<float>(c.dim / c.headCount) : static_cast<float>(c.headDim);
    c.queryScale = 1.0f / std::sqrt(scaled);
    c.attentionScale = 1.0f;
    if (h.finalLogitSoftcapping < 0.0f || !std::isfinite(h.finalLogitSoftcapping))
        return configError(file, p + "final_logit_softcapping", "softcapping must be positive");
    c.finalLogitSoftcap = h.finalLogitSoftcapping;
    if (h.slidingWindow == 0)
        return std::nullopt;
    if (h.slidingWindow > (1u << 24))
        return configError(file, p + "attention.sliding_window", "window is out of range");
    slidingLayers(c, h.slidingWindow, h.slidingWindowPattern, 6);
    const float swaBase = h.ropeFreqBaseSwa != 0.0f ? h.ropeFreqBaseSwa : 10000.0f;
    if (!(swaBase > 1.0f && swaBase < 1e12f))
        return configError(file, p + "rope.freq_base_swa", "RoPE base is out of range");
    c.slidingRopeTheta = swaBase;
    c.slidingRopeFreqScale = 1.0f;
    return std::nullopt;
}

// gpt-oss's rules, as llama.cpp reads a gpt-oss header (src/models/openai-moe.cpp, llama-graph.cpp build_moe_ffn):
// - attention.sliding_window is required; layer il slides when il % pattern < pattern - 1
//   (attention.sliding_window_pattern, 2 when absent: even layers slide, odd layers are global);
//   the sliding layers keep the global RoPE scaling and take rope.freq_base_swa when present;
// - the attention scale is 1 / sqrt(rope dims), whatever attention.scale says;
// - Q/K/V and output biases, one sink logit per head, post_attention_norm as the FFN's input norm;
// - the router and the experts have biases, SOFTMAX_WEIGHT gating (softmax over the selected logits, no
//   renormalisation), swiglu_oai with alpha 1.702 and limit 7.
std::optional<Error> applyGptOss(const GgufHyperParams& h, const GgufFile& file, TransformerConfig& c)
{
    const std::string p = c.architecture + ".";
    if (h.slidingWindow == 0 || h.slidingWindow > (1u << 24))
        return configError(file, p + "attention.sliding_window", "gpt-oss needs a sliding window in range");
    slidingLayers(c, h.slidingWindow, h.slidingWindowPattern, 2);
    if (h.ropeFreqBaseSwa != 0.0f) {
        if (!(h.ropeFreqBaseSwa > 1.0f && h.ropeFreqBaseSwa < 1e12f))
            return configError(file, p + "rope.freq_base_swa", "RoPE base is out of range");
        c.slidingRopeTheta = h.ropeFreqBaseSwa;
        c.slidingRopeFreqScale = c.ropeFreqScale;
    }
    c.attentionScale = 1.0f / std::sqrt(static_cast<float>(c.ropeDims));
    return std::nullopt;
}

// The expert keys, as llama.cpp reads them (llama-model.cpp load_hparams; models/llama.cpp, qwen3moe.cpp):
// one expert or none is a dense model; qwen3moe requires experts; its expert FFN width is
// expert_feed_forward_length, else feed_forward_length / expert_used_count; llama's experts are
// feed_forward_length wide. Both architectures normalise the selected weights (build_moe_ffn's norm_w).
std::optional<Error> experts(const GgufHyperParams& h, const GgufFile& file, TransformerConfig& c)
{
    const std::string p = c.architecture + ".";
    const bool moe = h.expertCount > 1;
    const bool alwaysMoe = c.architecture == "qwen3moe" || c.architecture == "gpt-oss";
    if (alwaysMoe && (!moe || h.expertUsedCount == 0))
        return configError(file, p + "expert_count", c.architecture + " needs experts and a used-expert count");
    if (!moe)
        return std::nullopt;
    if (h.expertCount > 512)
        return configError(file, p + "expert_count", "value " + std::to_string(h.expertCount) + " is out of range");
    if (h.expertUsedCount == 0 || h.expertUsedCount > h.expertCount)
        return configError(file, p + "expert_used_count", "used experts must be between 1 and the expert count");
    if (h.expertSharedCount != 0)
        return file.error(ErrorCode::Unsupported, "shared experts are not supported", p + "expert_shared_count");
    c.expertCount = int(h.expertCount);
    c.expertUsedCount = int(h.expertUsedCount);
    c.expertWeightsNorm = c.expertGating == ExpertGating::Softmax;
    if (c.architecture == "gpt-oss" && h.expertFeedForwardLength == 0)
        return configError(file, p + "expert_feed_forward_length", "gpt-oss needs the expert FFN width");
    if (alwaysMoe) {
        const uint32_t width =
            h.expertFeedForwardLength ? h.expertFeedForwardLength : h.feedForwardLength / h.expertUsedCount;
        if (width == 0 || width > (1u << 18))
            return configError(file, p + "expert_feed_forward_length", "expert FFN width is out of range");
        c.hiddenDim = int(width);
    }
    return std::nullopt;
}
} // namespace

Expected<TransformerConfig> TransformerConfig::fromGguf(const GgufFile& file)
{
    auto params = GgufHyperParams::read(file);
    if (!params)
        return params.error();
    return fromHyperParams(*params, file);
}

Expected<TransformerConfig> TransformerConfig::fromHyperParams(const GgufHyperParams& h, const GgufFile& file)
{
    TransformerConfig c;
    c.architecture = h.architecture;
    if (c.architecture == "qwen2") {
        c.qkvBias = true;
        c.ropeStyle = RopeStyle::Neox;
    } else if (c.architecture == "qwen3" || c.architecture == "qwen3moe") {
        c.qkNorm = true;
        c.ropeStyle = RopeStyle::Neox;
    } else if (c.architecture == "gemma3") {
        c.qkNorm = true;
        c.ropeStyle = RopeStyle::Neox;
        c.postNorms = true;
        c.ffnActivation = FfnActivation::GeluTanh;
    } else if (c.architecture == "gpt-oss") {
        c.qkvBias = true;
        c.outputBias = true;
        c.attentionSinks = true;
        c.ropeStyle = RopeStyle::Neox;
        c.ffnActivation = FfnActivation::SwigluOai;
        c.ffnNormTensor = "post_attention_norm";
        c.expertGating = ExpertGating::SoftmaxWeight;
        c.moeBiases = true;
    } else if (c.architecture != "llama") {
        return file.error(ErrorCode::Unsupported,
                          "architecture '" + c.architecture +
                              "' is not supported (llama, qwen2, qwen3, qwen3moe, gemma3 and gpt-oss are)",
                          "general.architecture");
    }
    const std::string p = c.architecture + ".";
    if (auto e = experts(h, file, c))
        return *e;
    auto inRange = [&](const char* key, uint32_t value, uint32_t lo, uint32_t hi, int& out) -> std::optional<Error> {
        if (value < lo || value > hi)
            return configError(file, p + key, "value " + std::to_string(value) + " is out of range");
        out = static_cast<int>(value);
        return std::nullopt;
    };
    if (auto e = inRange("embedding_length", h.embeddingLength, 1, 1 << 16, c.dim))
        return *e;
    if (!c.isMoe() || c.hiddenDim == 0)
        if (auto e = inRange("feed_forward_length", h.feedForwardLength, 1, 1 << 18, c.hiddenDim))
            return *e;
    if (auto e = inRange("block_count", h.blockCount, 1, 1024, c.layerCount))
        return *e;
    if (auto e = inRange("attention.head_count", h.headCount, 1, 1024, c.headCount))
        return *e;
    if (auto e = inRange("attention.head_count_kv", h.headCountKv, 1, 1024, c.kvHeadCount))
        return *e;
    if (auto e = inRange("context_length", h.contextLength, 1, 1 << 24, c.contextLength))
        return *e;
    if (h.keyLength != 0) {
        if (auto e = inRange("attention.key_length", h.keyLength, 2, 1 << 12, c.headDim))
            return *e;
    } else {
        if (c.dim % c.headCount != 0)
            return configError(file, p + "attention.head_count",
                               "embedding length is not a multiple of the head count");
        c.headDim = c.dim / c.headCount;
    }
    if (h.valueLength != 0 && int(h.valueLength) != c.headDim)
        return file.error(ErrorCode::Unsupported, "key and value head sizes differ", p + "attention.value_length");
    if (c.headCount % c.kvHeadCount != 0)
        return configError(file, p + "attention.head_count_kv", "head count is not a multiple of the KV head count");
    c.ropeDims = c.headDim;
    if (h.ropeDimensionCount != 0)
        if (auto e = inRange("rope.dimension_count", h.ropeDimensionCount, 2, uint32_t(c.headDim), c.ropeDims))
            return *e;
    if (c.ropeDims % 2 != 0 || c.headDim % 2 != 0)
        return configError(file, p + "rope.dimension_count", "rotated dimensions must be even");
    if (!(h.rmsNormEps > 0.0f && h.rmsNormEps < 1.0f))
        return configError(file, p + "attention.layer_norm_rms_epsilon", "epsilon is out of range");
    c.rmsNormEps = h.rmsNormEps;
    if (!(h.ropeFreqBase > 1.0f && h.ropeFreqBase < 1e12f))
        return configError(file, p + "rope.freq_base", "RoPE base is out of range");
    c.ropeTheta = h.ropeFreqBase;
    if (h.ropeScalingType == "linear") {
        if (!(h.ropeScalingFactor > 0.0f))
            return configError(file, p + "rope.scaling.factor", "factor must be positive");
        c.ropeFreqScale = 1.0f / h.ropeScalingFactor;
    } else if (h.ropeScalingType == "llama3") {
        if (!(h.ropeScalingFactor >= 1.0f) || !(h.ropeLowFreqFactor > 0.0f) ||
            !(h.ropeHighFreqFactor > h.ropeLowFreqFactor))
            return configError(file, p + "rope.scaling.factor", "llama3 RoPE scaling parameters are out of range");
        const uint32_t original = h.ropeOriginalContext ? h.ropeOriginalContext : 8192; // Llama 3.1's config
        c.ropeFreqFactors = llama3FreqFactors(c.ropeDims, c.ropeTheta, h.ropeScalingFactor, h.ropeLowFreqFactor,
                                              h.ropeHighFreqFactor, float(original));
    } else if (h.ropeScalingType == "yarn") {
        // llama.cpp: freq_scale 1 / factor (1 when the factor is absent), ext_factor 1, the original context
        // rope.scaling.original_context_length, else the trained context.
        const float factor = h.ropeScalingFactor == 0.0f ? 1.0f : h.ropeScalingFactor;
        if (!(factor >= 1.0f && factor < 1e6f))
            return configError(file, p + "rope.scaling.factor", "YaRN factor is out of range");
        if (h.ropeOriginalContext > (1u << 24))
            return configError(file, p + "rope.scaling.original_context_length", "value is out of range");
        c.ropeFreqScale = 1.0f / factor;
        c.ropeExtFactor = 1.0f;
        c.ropeAttnFactor = yarnAttnFactor(1.0f / c.ropeFreqScale);
        c.ropeOriginalContext = h.ropeOriginalContext ? int(h.ropeOriginalContext) : c.contextLength;
    } else if (h.hasRopeScaling()) {
        return file.error(ErrorCode::Unsupported, "RoPE scaling '" + h.ropeScalingType + "' is not supported",
                          p + "rope.scaling.type");
    }
    c.attentionScale = h.attentionScale;
    if (c.architecture == "gemma3")
        if (auto e = applyGemma3(h, file, c))
            return *e;
    if (c.architecture == "gpt-oss")
        if (auto e = applyGptOss(h, file, c))
            return *e;
    // The vocabulary size is the embedding's row count (checked with the weights).
    if (const auto* emb = file.findTensor("token_embd.weight"))
        c.vocabSize = static_cast<int>(std::min<uint64_t>(emb->dims[1], 1 << 24));
    return c;
}

float TransformerConfig::yarnAttnFactor(float factor)
{
    // Built with -ffp-contract=off: libllama's x86-64 build has no FMA, so each product here is rounded.
    if (factor <= 1.0f)
        return 1.0f;
    float attn = 0.1f * 1.0f * std::log(factor) + 1.0f;
    attn *= 1.0f / (1.0f + 0.1f * std::log(factor));
    return attn;
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
    c.rmsNormEps = GgufHyperParams{}.rmsNormEps; // run.c's constant, the GGUF default
    c.ropeTheta = 10000.0f;
    c.ropeDims = c.headDim;
    c.ropeStyle = RopeStyle::Normal;
    return c;
}

} // namespace ws
