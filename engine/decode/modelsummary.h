#pragma once
// What a model file is and what running it costs, from the header read that
// loads it (DecodeModel::load): architecture, parameter count, the tensor
// types with their share of the file, the trained context, and the memory a
// conversation needs: the mapped weights (the file) plus the KV cache at the
// chosen context and cache type. The loader shows it before the first token
// and refuses a file whose need exceeds the memory available, with both
// figures in the message.

#include "engine/decode/kvcachetype.h"
#include "engine/decode/transformerconfig.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ws {

class GgufFile;

struct TensorTypeShare
{
    std::string type; // ggml type name ("Q8_0", "F32", ...)
    int tensors = 0;
    uint64_t bytes = 0;
};

struct ModelSummary
{
    std::string architecture;           // general.architecture, or "llama2.c"
    uint64_t parameters = 0;            // elements of every weight tensor
    std::vector<TensorTypeShare> types; // most bytes first
    int trainedContext = 0;
    int context = 0; // the context the need is for (at most the trained one)
    KvCacheType kvCacheType = KvCacheType::F32;
    uint64_t weightBytes = 0;               // the file, mapped and read every token
    uint64_t kvCacheBytes = 0;              // keys and values of `context` positions, every layer
    std::optional<uint64_t> availableBytes; // MemAvailable when the file was opened

    uint64_t neededBytes() const { return weightBytes + kvCacheBytes; }
    bool fits() const { return !availableBytes || neededBytes() <= *availableBytes; }
};

// The summary of a parsed GGUF file (types and parameters from its tensor index) or, with `gguf` null,
// of a llama2.c checkpoint of `fileBytes` (all F32). `context` <= 0: no KV cache counted.
ModelSummary summarizeModel(const GgufFile* gguf, uint64_t fileBytes, const TransformerConfig& config, int context,
                            KvCacheType kvType);

// "1.2 GB", "640 MB": decimal units, as the refusal message and the loader panel print them.
std::string formatBytes(uint64_t bytes);
// "needs 1.1 GB of memory (weights 639 MB + KV cache 470 MB for 4096 tokens, f16), but this machine has
// 900 MB available" ("; this machine has ..." when it fits).
std::string describeNeed(const ModelSummary& summary);

} // namespace ws
