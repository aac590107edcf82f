#pragma once
// Random-weight GGUF models of any supported architecture and shape, written
// with GgufWriter, for tests and benchmarks that need a model the shared test
// models do not cover (qwen3 q/k norms, K-quant and BF16 matrices, a model
// larger than the CPU caches). The weights are random numbers from a seeded
// generator: the files exercise the arithmetic, not language.
//
// Quantised matrices are written as random valid blocks (random quants, a
// scale chosen so values have roughly the requested standard deviation).
// Rows are generated and written one at a time, so multi-GB files are fine.

#include "engine/core/error.h"
#include "engine/gguf/ggmltype.h"

#include <cstdint>
#include <string>

namespace ws {

struct SyntheticModelSpec
{
    std::string architecture = "llama"; // llama, qwen2 (adds Q/K/V biases), qwen3 (adds q/k norms)
    int dim = 64;
    int hiddenDim = 128;
    int layerCount = 2;
    int headCount = 4;
    int kvHeadCount = 2;
    int headDim = 0; // 0: dim / headCount (then attention.key_length is not written)
    int vocabSize = 256;
    int contextLength = 256;
    float ropeTheta = 10000.0f;
    float rmsNormEps = 1e-6f;
    GgmlType matrixType = GgmlType::F32;    // attention and FFN matrices
    GgmlType embeddingType = GgmlType::F32; // token_embd (and output when tied)
    bool tiedOutput = true;
    int eosTokenId = -1; // written as tokenizer.ggml.eos_token_id when >= 0
    uint64_t seed = 1;
};

Status writeSyntheticModel(const std::string& path, const SyntheticModelSpec& spec);

// Encodes `n` floats as a row of `type` (F32, F16, BF16, Q8_0, Q4_0 by round-to-nearest
// quantisation; K-quants are not supported here). dst must hold the row's bytes.
void encodeRow(GgmlType type, const float* src, uint8_t* dst, int n);

} // namespace ws
