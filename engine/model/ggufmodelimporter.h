#pragma once
// Imports a transformer's shape from a GGUF file's header: the
// "<arch>.block_count", "<arch>.embedding_length", "<arch>.feed_forward_length",
// "<arch>.attention.head_count(_kv)", "<arch>.attention.key_length",
// "<arch>.context_length" and "<arch>.expert_*" metadata, the vocabulary size
// from the token list, tied embeddings from the absence of "output.weight",
// biases and q/k norms from the tensor index, and the stored precision from
// the type of the first attention matrix. Only metadata and the tensor index
// are read (GgufFile maps the file; no weights are touched).

#include "engine/core/error.h"
#include "engine/gguf/gguffile.h"
#include "engine/model/modelconfig.h"

#include <string>

namespace ws {

Expected<ModelConfig> importGgufModel(const GgufFile& file);
Expected<ModelConfig> importGgufModel(const std::string& path);

} // namespace ws
