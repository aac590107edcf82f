#pragma once
// Read-only views of a model's weights, pointing into the memory-mapped file
// (GGUF or llama2.c). Nothing is copied or dequantised at load: a matrix is
// its element type, shape and a pointer to its rows, and the matmul kernels
// read it in its stored form. The views keep the mapping alive.
//
// Shapes: a matrix with `rows` outputs and `cols` inputs is stored row by row
// (ggml dims {cols, rows}); norms and biases are F32 vectors.

#include "engine/core/error.h"
#include "engine/decode/transformerconfig.h"
#include "engine/gguf/ggmltype.h"
#include "engine/gguf/mappedfile.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace ws {

class GgufFile;
class Llama2cCheckpoint;

struct WeightMatrix
{
    GgmlType type = GgmlType::F32;
    int rows = 0; // outputs
    int cols = 0; // inputs (row length)
    size_t rowBytes = 0;
    const uint8_t* data = nullptr;
    // llama.cpp's CPU backend repacks this matrix into its 8-row interleaved layout (a matmul weight of
    // type Q4_K, IQ4_NL or MXFP4 with a multiple of 8 rows), which sums the dot products in another order.
    bool interleaved = false;
    // One expert's slice of a stacked expert tensor ([cols, rows, experts]): llama.cpp multiplies those
    // with mul_mat_id, which takes ggml_vec_dot for every length (never the tinyBLAS lane order).
    bool expertSlice = false;
    // Its Q4_K blocks are in the packed layout (kernels::packQ4_KBlocks), set by
    // TransformerWeights::packForKernels: read rows through dequantizeMatrixRow, never as plain blocks.
    bool packed = false;

    const uint8_t* row(int r) const { return data + rowBytes * static_cast<size_t>(r); }
    size_t sizeBytes() const { return rowBytes * static_cast<size_t>(rows); }
};

struct LayerWeights
{
    const float* attnNorm = nullptr;     // (dim)
    WeightMatrix wq;                     // (qDim, dim)
    WeightMatrix wk;                     // (kvDim, dim)
    WeightMatrix wv;                     // (kvDim, dim)
    WeightMatrix wo;                     // (dim, qDim)
    const float* bq = nullptr;           // (qDim), qwen2 and gpt-oss
    const float* bk = nullptr;           // (kvDim)
    const float* bv = nullptr;           // (kvDim)
    const float* bo = nullptr;           // (dim), attn_output.bias (gpt-oss)
    const float* sinks = nullptr;        // (headCount), attn_sinks (gpt-oss)
    const float* qNorm = nullptr;        // (headDim), qwen3 and gemma3
    const float* kNorm = nullptr;        // (headDim)
    const float* attnPostNorm = nullptr; // (dim), gemma3 only: the attention output's norm
    const float* ffnPostNorm = nullptr;  // (dim), gemma3 only: the FFN output's norm
    const float* ffnNorm = nullptr;      // (dim), the tensor config.ffnNormTensor names
    WeightMatrix gate;                   // (hiddenDim, dim)  w1
    WeightMatrix up;                     // (hiddenDim, dim)  w3
    WeightMatrix down;                   // (dim, hiddenDim)  w2
    // MoE layers (config.expertCount > 0) have these instead of gate, up and down:
    WeightMatrix router;                  // (expertCount, dim) ffn_gate_inp
    std::vector<WeightMatrix> expertGate; // per expert (hiddenDim, dim): slices of ffn_gate_exps
    std::vector<WeightMatrix> expertUp;   // per expert (hiddenDim, dim): ffn_up_exps
    std::vector<WeightMatrix> expertDown; // per expert (dim, hiddenDim): ffn_down_exps
    // config.moeBiases (gpt-oss): the router's (expertCount) and the experts' stacked biases, expert e's at e * width.
    const float* routerBias = nullptr;     // (expertCount)
    const float* expertGateBias = nullptr; // (expertCount, hiddenDim)
    const float* expertUpBias = nullptr;   // (expertCount, hiddenDim)
    const float* expertDownBias = nullptr; // (expertCount, dim)
};

struct TransformerWeights
{
    WeightMatrix tokenEmbedding; // (vocab, dim)
    std::vector<LayerWeights> layers;
    const float* outputNorm = nullptr; // (dim)
    WeightMatrix output;               // (vocab, dim); the embedding itself when tied
    bool tiedOutput = false;
    const float* ropeFreqFactors = nullptr; // (ropeDims / 2), Llama-3.1 style scaling, or null
    int usedExperts = 0;                    // MoE: experts each token runs per layer
    std::shared_ptr<const MappedFile> mapping;

    // Bytes of weights one decode step reads (every matrix once; of a MoE layer the router and
    // expertUsedCount experts, an average expert's bytes each).
    uint64_t bytesPerToken() const;

    // Rearranges the interleaved Q4_K matrices (of at most 64 super-blocks a row) of a resident file into the
    // packed layout their faster kernel reads (kernels.h), in place; a mapped file is left as it is. Every
    // product keeps its bits. Once only (packed matrices are skipped).
    Status packForKernels();

    static Expected<TransformerWeights> fromGguf(const GgufFile& file, const TransformerConfig& config);
    static Expected<TransformerWeights> fromLlama2c(const Llama2cCheckpoint& checkpoint,
                                                    const TransformerConfig& config);
};

// Row r of w as floats (w.cols of them), in whichever layout w is stored.
void dequantizeMatrixRow(const WeightMatrix& w, int r, float* out);

} // namespace ws
