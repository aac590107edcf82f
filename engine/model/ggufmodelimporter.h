#pragma once
// Imports a transformer's shape from a GGUF file's header: the hyper-parameters
// of the one header read (GgufHyperParams, the key table shared with the
// decoder's TransformerConfig, with the same defaults), the vocabulary size
// from the token list, tied embeddings from the absence of "output.weight",
// biases and q/k norms from the tensor index, and the stored precision from
// the type of the first attention matrix. Only metadata and the tensor index
// are read (GgufFile maps the file; no weights are touched).

#include "engine/core/error.h"
#include "engine/gguf/gguffile.h"
#include "engine/model/ggufhyperparams.h"
#include "engine/model/modelconfig.h"

#include <string>

namespace ws {

Expected<ModelConfig> importGgufModel(const GgufFile& file);
// From a header already read (DecodeModel reads it once for both configs).
Expected<ModelConfig> importGgufModel(const GgufHyperParams& params, const GgufFile& file);
Expected<ModelConfig> importGgufModel(const std::string& path);

} // namespace ws
