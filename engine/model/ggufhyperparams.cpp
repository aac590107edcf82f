#include "engine/model/ggufhyperparams.h"

#include "engine/gguf/gguffile.h"

namespace ws {

Expected<GgufHyperParams> GgufHyperParams::read(const GgufFile& file)
{
    GgufHyperParams h;
    auto arch = file.getString("general.architecture");
    if (!arch)
        return arch.error();
    h.architecture = std::string(*arch);
    if (file.has("general.name")) {
        auto name = file.getString("general.name");
        if (!name)
            return name.error();
        h.name = std::string(*name);
    }
    const std::string p = h.architecture + ".";

    // The key table: every integer key, whether it is required, and where it goes.
    struct IntegerKey
    {
        const char* key;
        bool required;
        uint32_t GgufHyperParams::*field;
    };
    static constexpr IntegerKey kIntegers[] = {
        {"block_count", true, &GgufHyperParams::blockCount},
        {"embedding_length", true, &GgufHyperParams::embeddingLength},
        {"attention.head_count", true, &GgufHyperParams::headCount},
        {"feed_forward_length", false, &GgufHyperParams::feedForwardLength},
        {"attention.head_count_kv", false, &GgufHyperParams::headCountKv},
        {"attention.key_length", false, &GgufHyperParams::keyLength},
        {"attention.value_length", false, &GgufHyperParams::valueLength},
        {"context_length", false, &GgufHyperParams::contextLength},
        {"rope.dimension_count", false, &GgufHyperParams::ropeDimensionCount},
        {"rope.scaling.original_context_length", false, &GgufHyperParams::ropeOriginalContext},
        {"expert_count", false, &GgufHyperParams::expertCount},
        {"expert_used_count", false, &GgufHyperParams::expertUsedCount},
        {"expert_feed_forward_length", false, &GgufHyperParams::expertFeedForwardLength},
        {"expert_shared_count", false, &GgufHyperParams::expertSharedCount},
        {"attention.sliding_window", false, &GgufHyperParams::slidingWindow},
        {"attention.sliding_window_pattern", false, &GgufHyperParams::slidingWindowPattern},
        {"vocab_size", false, &GgufHyperParams::vocabSize},
    };
    for (const IntegerKey& k : kIntegers) {
        const std::string key = p + k.key;
        if (!k.required && !file.has(key))
            continue;
        // llama.cpp reads the sliding-window pattern as a scalar and, finding an array (one flag per layer, as
        // gemma3n writes it), keeps its default: so does this table.
        if (k.field == &GgufHyperParams::slidingWindowPattern && file.find(key)->type == GgufValueType::Array)
            continue;
        auto v = file.getU32(key);
        if (!v)
            return v.error();
        h.*k.field = *v;
    }
    if (!file.has(p + "attention.head_count_kv"))
        h.headCountKv = h.headCount;

    struct FloatKey
    {
        const char* key;
        float GgufHyperParams::*field;
    };
    static constexpr FloatKey kFloats[] = {
        {"attention.layer_norm_rms_epsilon", &GgufHyperParams::rmsNormEps},
        {"rope.freq_base", &GgufHyperParams::ropeFreqBase},
        {"attention.scale", &GgufHyperParams::attentionScale},
        {"rope.scaling.factor", &GgufHyperParams::ropeScalingFactor},
        {"rope.scaling.low_freq_factor", &GgufHyperParams::ropeLowFreqFactor},
        {"rope.scaling.high_freq_factor", &GgufHyperParams::ropeHighFreqFactor},
        {"rope.freq_base_swa", &GgufHyperParams::ropeFreqBaseSwa},
        {"final_logit_softcapping", &GgufHyperParams::finalLogitSoftcapping},
    };
    for (const FloatKey& k : kFloats) {
        auto v = file.getF32Or(p + k.key, h.*k.field);
        if (!v)
            return v.error();
        h.*k.field = *v;
    }
    if (file.has(p + "rope.scaling.type")) {
        auto type = file.getString(p + "rope.scaling.type");
        if (!type)
            return type.error();
        if (*type != "none")
            h.ropeScalingType = std::string(*type);
    }
    return h;
}

} // namespace ws
