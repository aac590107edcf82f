#pragma once
// The Qwen3-0.6B shape the decode and prompt benchmarks time with random weights (1024 wide, 28 layers,
// 16 query and 8 KV heads of 128, a 151,936-token vocabulary, tied output): the matrices of `type`, the
// embedding Q6_K unless the matrices are Q8_0 or F16 (as llama-quantize's K-quant mixes keep it).

#include "engine/gguf/syntheticmodel.h"

namespace wstest {

inline ws::SyntheticModelSpec qwen3SmallShape(ws::GgmlType type)
{
    ws::SyntheticModelSpec spec;
    spec.architecture = "qwen3";
    spec.dim = 1024;
    spec.hiddenDim = 3072;
    spec.layerCount = 28;
    spec.headCount = 16;
    spec.kvHeadCount = 8;
    spec.headDim = 128;
    spec.vocabSize = 151936;
    spec.contextLength = 4096;
    spec.ropeTheta = 1000000.0f;
    spec.matrixType = type;
    spec.embeddingType = type == ws::GgmlType::Q8_0 || type == ws::GgmlType::F16 ? type : ws::GgmlType::Q6_K;
    spec.tiedOutput = true;
    return spec;
}

} // namespace wstest
