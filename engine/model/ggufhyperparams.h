#pragma once
// The transformer hyper-parameters of a GGUF header, read once through one
// key table: "<arch>.block_count", "<arch>.embedding_length",
// "<arch>.attention.head_count(_kv)", "<arch>.attention.key_length", the
// RoPE and expert keys and "general.name". Both architecture configs derive
// from this one read: the decoder's TransformerConfig (what the forward pass
// needs) and the placement's ModelConfig (importGgufModel). A key that is
// absent gets the default below, the same for both; where llama.cpp has a
// default it is llama.cpp's (llama-model.cpp load_hparams), where llama.cpp
// requires the key the value says what a file without it gets.

#include "engine/core/error.h"

#include <cstdint>
#include <string>

namespace ws {

class GgufFile;

struct GgufHyperParams
{
    std::string architecture;       // general.architecture as written ("llama", "qwen2", ...)
    std::string name;               // general.name; empty when absent
    uint32_t blockCount = 0;        // required
    uint32_t embeddingLength = 0;   // required
    uint32_t headCount = 0;         // required
    uint32_t feedForwardLength = 0; // 0: absent (a decoder needs it; MoE files may leave it out)
    uint32_t headCountKv = 0;       // absent: headCount (llama.cpp: n_head_kv = n_head)
    uint32_t keyLength = 0;         // 0: absent, embeddingLength / headCount (llama.cpp: n_embd_head_k)
    uint32_t valueLength = 0;       // 0: absent, keyLength
    // llama.cpp requires <arch>.context_length; a file without it is given
    // 2048, the trained context of Llama 1 and 2.
    uint32_t contextLength = 2048;
    uint32_t ropeDimensionCount = 0; // 0: absent, the whole head (llama.cpp: n_rot = n_embd_head_k)
    // llama.cpp requires the epsilon for llama, qwen2 and qwen3; a file
    // without it gets 1e-5, the value llama.cpp's llama2.c converter writes
    // (examples/convert-llama2c-to-ggml: KV_ATTENTION_LAYERNORM_RMS_EPS, 1e-5f)
    // and run.c uses.
    float rmsNormEps = 1e-5f;
    float ropeFreqBase = 10000.0f;  // llama.cpp: rope_freq_base_train = 10000.0f
    float attentionScale = 0.0f;    // 0: 1 / sqrt(head size)
    std::string ropeScalingType;    // empty: none
    float ropeScalingFactor = 0.0f; // 0: absent
    float ropeLowFreqFactor = 1.0f; // llama3 scaling defaults (Llama 3.1's config)
    float ropeHighFreqFactor = 4.0f;
    uint32_t ropeOriginalContext = 0; // 0: absent (llama3 scaling: 8192; YaRN: the context length, as llama.cpp)
    uint32_t expertCount = 0;
    uint32_t expertUsedCount = 0;
    uint32_t expertFeedForwardLength = 0;
    uint32_t expertSharedCount = 0;
    uint32_t slidingWindow = 0;
    uint32_t slidingWindowPattern = 0; // 0: absent (gemma3's llama.cpp default: every 6th layer global)
    // Sliding layers' RoPE base (llama.cpp: rope_freq_base_train_swa); 0: absent (gemma3: 10000, gpt-oss:
    // rope.freq_base).
    float ropeFreqBaseSwa = 0.0f;
    float finalLogitSoftcapping = 0.0f; // 0: absent, no softcapping
    uint32_t vocabSize = 0;             // <arch>.vocab_size; 0: absent (then the token list or the embedding rows)

    uint32_t headSize() const { return keyLength ? keyLength : (headCount ? embeddingLength / headCount : 0); }
    bool hasRopeScaling() const { return !ropeScalingType.empty(); }

    // Format errors (a key of the wrong type) name the file and the key.
    static Expected<GgufHyperParams> read(const GgufFile& file);
};

} // namespace ws
