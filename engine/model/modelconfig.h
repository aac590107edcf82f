#pragma once
// Transformer architecture, as read from a preset, a Hugging Face config.json
// or a GGUF header. Shapes only: no weights. Parameter and byte counts per
// tensor come from ModelShape (engine/model/modelshape.h).

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>

#include "engine/core/error.h"
#include "engine/model/precision.h"

namespace ws {

struct ModelConfig
{
    std::string id;           // preset id, e.g. "qwen3-32b"
    std::string name;         // display name, e.g. "Qwen3-32B"
    std::string architecture; // "llama", "qwen2", "qwen3", "qwen3moe", "gemma3", "mixtral", "gpt-oss", "llama4",
                              // "deepseek2" (DeepSeek-V3/R1, Kimi K2), "glm4moe"
    int layers = 0;
    int hiddenSize = 0;  // d_model
    int ffnSize = 0;     // dense FFN intermediate size
    int headCount = 0;   // query heads
    int kvHeadCount = 0; // key/value heads (GQA)
    int headDim = 0;     // per head; may differ from hiddenSize / headCount (MLA: qkNopeHeadDim + qkRopeHeadDim)
    // Multi-head latent attention (DeepSeek-V2/V3 [DeepSeek-V3-config]; kvLoraRank == 0: ordinary attention).
    // K and V are rebuilt from one compressed latent per token (kvLoraRank values) plus a decoupled RoPE key
    // shared by every head (qkRopeHeadDim values): the KV cache keeps kvLoraRank + qkRopeHeadDim values per
    // token per layer. Decode runs the absorbed form: the up-projections fold into the query and the output,
    // and every head attends over the cached latent itself.
    int kvLoraRank = 0;    // compressed KV latent (kv_lora_rank)
    int qLoraRank = 0;     // query down-projection (q_lora_rank); 0 = one full-rank query projection
    int qkNopeHeadDim = 0; // per head: query/key dims without RoPE
    int qkRopeHeadDim = 0; // per head query RoPE dims; one shared RoPE key of this width per token
    int vHeadDim = 0;      // per head value width
    int vocabSize = 0;
    bool tiedEmbeddings = false;
    bool attentionBias = false;       // Q/K/V biases (qwen2, gpt-oss)
    bool attentionOutputBias = false; // O projection bias (gpt-oss)
    bool qkNorm = false;              // per-head RMSNorm weights on q and k (qwen3, gemma3)
    bool attentionSinks = false;      // one learned sink logit per head (gpt-oss)
    int normsPerLayer = 2;            // RMSNorm weight vectors per layer (gemma3: 4)
    // Mixture of experts (expertCount == 0 for dense models).
    int expertCount = 0;
    int expertsPerToken = 0;
    int expertFfnSize = 0;
    int sharedExpertCount = 0;   // always-active experts (llama4)
    int sharedExpertFfnSize = 0; // 0 = expertFfnSize
    int moeLayerStep = 1;        // layer i is MoE when (i + 1) % moeLayerStep == 0 (llama4: 2)
    int denseLayersFirst = 0;    // the first N layers keep a dense FFN (first_k_dense_replace; DeepSeek-V3: 3)
    // Multi-token prediction modules shipped beside the model (num_nextn_predict_layers): each is one more
    // decoder layer plus a projection, used only as a speculative draft. Counted in mtpParameters(), not in
    // the decoder's tensors (serving stacks load it only with MTP speculation on).
    int mtpLayers = 0;
    bool expertBias = false; // biases on expert projections (gpt-oss)
    bool routerBias = false; // bias on the router (gpt-oss)
    // Attention window: 0 = full attention on every layer. Otherwise layers use a
    // window of slidingWindow tokens except every globalLayerPeriod-th layer
    // ((i + 1) % period == 0), which attends to the full context (0 = none global).
    int slidingWindow = 0;
    int globalLayerPeriod = 0;
    int64_t contextLength = 0;
    double ropeTheta = 10000.0;
    double rmsNormEps = 1e-6;
    Precision nativePrecision = Precision::Bf16; // precision of the released weights
    std::map<std::string, std::string> sources;  // field -> citation

    bool isMoe() const { return expertCount > 0; }
    bool isMoeLayer(int layer) const
    {
        return expertCount > 0 && layer >= denseLayersFirst && (layer + 1) % std::max(1, moeLayerStep) == 0;
    }
    bool isMla() const { return kvLoraRank > 0; }
    // Tokens of KV a layer keeps for a given context (the window caps local layers).
    int64_t kvTokens(int layer, int64_t context) const;
    int64_t qDim() const { return int64_t(headCount) * headDim; }
    int64_t kvDim() const { return int64_t(kvHeadCount) * headDim; }
    // Values one token adds to one layer's KV cache: K and V (2 x kvDim), or MLA's latent and RoPE key.
    int64_t kvValuesPerTokenPerLayer() const { return isMla() ? int64_t(kvLoraRank) + qkRopeHeadDim : 2 * kvDim(); }
    int64_t mlaValueDim() const { return int64_t(headCount) * vHeadDim; } // MLA: attention output width
    int sharedFfn() const { return sharedExpertFfnSize > 0 ? sharedExpertFfnSize : expertFfnSize; }

    bool operator==(const ModelConfig&) const = default; // every field (a cache key: engine/predict/placementcache.h)
};

// Checks the shape for nonsense (zero or negative sizes, heads that do not
// divide, top-k above the expert count). `file` names the source in the error.
// When headDim is 0 it is derived as hiddenSize / headCount (which must divide).
Status validateModelConfig(ModelConfig& config, const std::string& file = {});

// The id of a model imported from a file: "import-" and the file's name
// without its extension, lower case, anything but letters, digits, '.' and
// '-' as '-'.
std::string importedModelId(const std::string& path);

// The name a model imported from a file is shown by everywhere (title, inspector, comparison, chat, CLI): the name
// the file gives itself (GGUF general.name; empty: `fallback`, e.g. the architecture), followed by the file's name
// in parentheses when it does not contain that name ("llama (stories260K.gguf)": names such as "llama" say little).
std::string importedModelName(const std::string& ownName, const std::string& path, const std::string& fallback = {});

// Architectures the engine knows: llama, mistral, mixtral, qwen2, qwen3, qwen3moe, gemma3, gpt-oss, llama4,
// deepseek2 and glm4moe (presets only: the decoder does not run them).
bool isKnownArchitecture(const std::string& architecture);

} // namespace ws
