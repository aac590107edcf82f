#pragma once
// The architecture of a model file that holds weights: a GGUF file (its
// header, through importGgufModel) or a llama2.c checkpoint (its seven-int
// header: a llama with run.c's constants, RMS epsilon 1e-5 and RoPE base
// 10000, F32 weights, tied when the classifier shares the embedding). The
// kind is recognised by content, as DecodeModel does: GGUF files start with
// "GGUF".

#include "engine/core/error.h"
#include "engine/model/modelconfig.h"

#include <string>

namespace ws {

struct Llama2cHeader;

Expected<ModelConfig> importLlama2cModel(const Llama2cHeader& header, const std::string& path);
Expected<ModelConfig> importModelFile(const std::string& path);

} // namespace ws
