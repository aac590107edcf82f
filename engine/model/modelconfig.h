#pragma once
// Transformer architecture, as read from a preset, a Hugging Face config.json
// or a GGUF header. Shapes only: no weights. Parameter and byte counts per
// tensor come from ModelShape (engine/model/modelshape.h).

#include <cstdint>
#include <map>
#include <string>

namespace ws {

struct ModelConfig
{
    std::string id;           // preset id, e.g. "qwen3-32b"
    std::string name;         // display name, e.g. "Qwen3-32B"
    std::string architecture; // "llama", "qwen2", "qwen3", "qwen3moe", "gemma3", "mixtral", "gpt-oss", "llama4"
    int layers = 0;
    int hiddenSize = 0;       // d_model
    int ffnSize = 0;          // dense FFN intermediate size
    int headCount = 0;        // query heads
    int kvHeadCount = 0;      // key/value heads (GQA)
    int headDim = 0;          // per head; may differ from hiddenSize / headCount
    int vocabSize = 0;
    bool tiedEmbeddings = false;
    bool attentionBias = false; // Q/K/V biases (qwen2)
    bool qkNorm = false;        // per-head RMSNorm on q and k (qwen3)
    // Mixture of experts (expertCount == 0 for dense models).
    int expertCount = 0;
    int expertsPerToken = 0;
    int expertFfnSize = 0;
    int sharedExpertCount = 0; // always-active experts (llama4)
    int moeLayerStep = 1;      // every n-th layer is MoE (llama4 interleaves dense and MoE)
    int64_t contextLength = 0;
    double ropeTheta = 10000.0;
    double rmsNormEps = 1e-6;
    std::map<std::string, std::string> sources; // field -> citation

    bool isMoe() const { return expertCount > 0; }
};

} // namespace ws
