#pragma once
// The hyper-parameters the forward pass needs, derived from a GGUF header's
// one read (GgufHyperParams: the key table and its defaults, shared with the
// placement's ModelConfig) or from a llama2.c checkpoint header. Supported architectures: llama (Llama 2/3,
// Mistral, and Mixtral-style MoE), qwen2 (Q/K/V biases), qwen3 (per-head RMSNorm on q and k), qwen3moe (qwen3
// with a routed mixture-of-experts FFN) and gemma3 (q/k norms, post-attention and post-FFN norms, embedding
// scaled by sqrt(dim), GELU-tanh FFN, sliding-window and global layers with their own RoPE bases, query
// pre-scaling, final logit softcapping) and gpt-oss (Q/K/V/O biases, learned attention sinks, alternating
// sliding-window and global layers, YaRN RoPE, a biased router with a softmax over the selected experts' logits,
// biased experts, the clamped SwiGLU of swiglu_oai).
// Everything that differs between them is a field here, so the forward pass
// has no per-architecture branches beyond these flags.

#include "engine/core/error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ws {

class GgufFile;
struct GgufHyperParams;
struct Llama2cHeader;

enum class RopeStyle
{
    Normal, // rotate adjacent pairs (x[2i], x[2i+1]): llama, llama2.c
    Neox,   // rotate split halves (x[i], x[i + n/2]): qwen2, qwen3, gemma3
};

enum class FfnActivation
{
    Silu,     // SwiGLU: SiLU(gate) * up (llama, qwen2, qwen3)
    GeluTanh, // GeGLU: GELU(gate) * up with GELU's tanh approximation, as ggml tabulates it (gemma3)
    // ggml_swiglu_oai (gpt-oss): x = min(gate, limit), y = clamp(up, -limit, limit),
    // x * sigmoid(alpha * x) * (y + 1) with swigluAlpha, swigluLimit.
    SwigluOai,
};

// How the router's logits become the selected experts' weights (llama.cpp's expert gating function).
enum class ExpertGating
{
    Softmax,       // softmax over all experts, the top k of those probabilities (llama, qwen3moe)
    SoftmaxWeight, // the top k logits, then a softmax over those k alone (gpt-oss)
};

struct TransformerConfig
{
    std::string architecture; // "llama", "qwen2", "qwen3", "qwen3moe", "gemma3", "gpt-oss"
    int dim = 0;              // residual width (n_embd)
    int hiddenDim = 0;        // FFN width; MoE: one expert's FFN width
    // Mixture of experts (expertCount > 0): the router (ffn_gate_inp) scores expertCount experts per
    // token, the expertUsedCount best run; their outputs are summed with the router's weights.
    int expertCount = 0;
    int expertUsedCount = 0;
    bool expertWeightsNorm = false; // the selected weights are divided by their sum (llama, qwen3moe)
    ExpertGating expertGating = ExpertGating::Softmax;
    bool moeBiases = false; // router (ffn_gate_inp.bias) and stacked expert biases (ffn_{gate,up,down}_exps.bias)
    int layerCount = 0;
    int headCount = 0;
    int kvHeadCount = 0;
    int headDim = 0; // attention.key_length when present, else dim / headCount
    int vocabSize = 0;
    int contextLength = 0; // trained context (the KV cache may be smaller)
    float rmsNormEps = 1e-5f;
    float ropeTheta = 10000.0f;
    float ropeFreqScale = 1.0f; // linear RoPE scaling (1 / factor)
    int ropeDims = 0;           // rotated dims per head (rope.dimension_count), <= headDim
    RopeStyle ropeStyle = RopeStyle::Normal;
    bool qkvBias = false;
    bool outputBias = false; // attn_output.bias (gpt-oss)
    // gpt-oss: one learned logit per head (attn_sinks) joins each softmax's denominator, as ggml_soft_max_add_sinks.
    bool attentionSinks = false;
    bool qkNorm = false;
    float attentionScale = 0.0f; // 0: 1 / sqrt(headDim)
    // gemma3: q is multiplied by this after RoPE, before attention (whose own scale is then 1); 0: none.
    float queryScale = 0.0f;
    float embeddingScale = 0.0f; // the embedding rows are multiplied by this (gemma3: sqrt(dim)); 0: none
    bool postNorms = false;      // RMSNorm of the attention and FFN outputs before each residual add (gemma3)
    FfnActivation ffnActivation = FfnActivation::Silu;
    float swigluAlpha = 1.702f; // SwigluOai's constants (llama.cpp build_moe_ffn, LLM_FFN_SWIGLU_OAI_MOE)
    float swigluLimit = 7.0f;
    // The name of the FFN's input norm in a layer (gpt-oss: "post_attention_norm", which it applies there).
    std::string ffnNormTensor = "ffn_norm";
    float finalLogitSoftcap = 0.0f; // logits = cap * tanh(logits / cap); 0: none
    // Per layer: 0 a global layer, else the number of most recent positions a query attends to, itself
    // included (sliding-window attention); empty: every layer global.
    std::vector<int> layerWindow;
    // The RoPE of the layers with a window, where it differs (gemma3: rope.freq_base_swa, 10000 by default,
    // and no scaling); slidingRopeTheta 0: the same RoPE as the global layers.
    float slidingRopeTheta = 0.0f;
    float slidingRopeFreqScale = 1.0f;
    // Llama-3.1 style per-pair frequency divisors (ropeDims / 2), from rope.scaling.* metadata; empty: none.
    // A rope_freqs.weight tensor in the file takes precedence (see TransformerWeights).
    std::vector<float> ropeFreqFactors;
    // YaRN (rope.scaling.type "yarn"), ggml_rope_ext's parameters as llama.cpp's context sets them: ext_factor 1
    // (0: no YaRN), attn_factor (the cos/sin magnitude), beta_fast 32, beta_slow 1, the original context.
    float ropeExtFactor = 0.0f;
    float ropeAttnFactor = 1.0f;
    float ropeBetaFast = 32.0f;
    float ropeBetaSlow = 1.0f;
    int ropeOriginalContext = 0;

    int qDim() const { return headCount * headDim; }
    bool isMoe() const { return expertCount > 0; }
    int kvDim() const { return kvHeadCount * headDim; }
    int window(int layer) const { return layerWindow.empty() ? 0 : layerWindow[size_t(layer)]; }
    // Whether `layer` rotates with the sliding layers' RoPE tables.
    bool slidingRope(int layer) const { return slidingRopeTheta > 0.0f && window(layer) > 0; }

    static Expected<TransformerConfig> fromGguf(const GgufFile& file);
    // Checks the header's values for what this decoder supports; `file` names the source in errors.
    static Expected<TransformerConfig> fromHyperParams(const GgufHyperParams& params, const GgufFile& file);
    // Llama 3.1's rule: pairs whose wavelength exceeds originalContext / lowFreqFactor are divided by
    // `factor`, those below originalContext / highFreqFactor are kept, the band between is blended.
    // llama.cpp's YaRN attn_factor for a scaling factor (llama_context: get_mscale(factor, 1) times
    // 1 / (1 + 0.1 ln factor), which cancels the magnitude ggml's rope multiplies in again).
    static float yarnAttnFactor(float factor);
    static std::vector<float> llama3FreqFactors(int ropeDims, float theta, float factor, float lowFreqFactor,
                                                float highFreqFactor, float originalContext);
    static Expected<TransformerConfig> fromLlama2c(const Llama2cHeader& header);
};

} // namespace ws
