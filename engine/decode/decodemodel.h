#pragma once
// A model ready to run: its configuration and read-only weight views, loaded
// from a GGUF file or a llama2.c checkpoint (recognised by content: GGUF
// files start with "GGUF"). For GGUF the parsed file is kept, so the
// tokenizer can read its vocabulary from the same mapping. The header is
// read once and gives both architecture configs: the decoder's
// TransformerConfig and the placement's ModelConfig (the same one
// importModelFile gives for the file), so nobody re-reads the file for it.
//
// Loading checks the memory first: a file larger than the memory available is
// refused before it is mapped; then, from the header, the weights plus the KV
// cache at the context the caller will use (LoadBudget) must fit, or the file
// is refused before any weight is read (summary(): the figures either way).
//
// End of generation is the vocabulary's to say (Tokenizer::isEndOfGeneration,
// as llama.cpp's llama_vocab_is_eog); the Generator asks the tokenizer it is
// given.

#include "engine/core/error.h"
#include "engine/decode/modelsummary.h"
#include "engine/decode/transformerconfig.h"
#include "engine/decode/weights.h"
#include "engine/gguf/gguffile.h"
#include "engine/model/modelconfig.h"

#include <cstdint>
#include <optional>
#include <string>

namespace ws {

// MemAvailable of /proc/meminfo (memory that can be used without swapping), nullopt where unknown.
std::optional<uint64_t> availableMemoryBytes();

// The context and KV cache type a caller will run the model with, for the memory check (0: weights only).
struct LoadBudget
{
    int contextLength = 0;
    KvCacheType kvCacheType = KvCacheType::F32;
    // Map the file instead of reading it into memory (llama.cpp's --mmap). Read whole, the weights sit in
    // huge pages, which decodes faster from memory (MappedFile); a file larger than half the available
    // memory is mapped anyway, so its copy never has to push its own page cache out.
    bool mapWeights = false;
};

class DecodeModel
{
public:
    // Refuses a file larger than availableMemoryBytes() (the message gives both figures) before mapping it,
    // and one whose weights plus the budget's KV cache do not fit before reading any weight.
    static Expected<DecodeModel> load(const std::string& path, const LoadBudget& budget = {});
    // Whether the weights are this process's own copy (read whole) rather than a mapping of the file.
    bool weightsResident() const;

    // Architecture, parameters, tensor types and the memory the budget needs (from the header read).
    const ModelSummary& summary() const { return m_summary; }

    const std::string& path() const { return m_path; }
    const TransformerConfig& config() const { return m_config; }
    // The architecture as the placement sees it (id "import-<file>", name general.name or the file's).
    const ModelConfig& modelConfig() const { return m_modelConfig; }
    const TransformerWeights& weights() const { return m_weights; }
    // The GGUF file, or null for a llama2.c checkpoint.
    const GgufFile* gguf() const { return m_gguf ? &*m_gguf : nullptr; }
    bool isLlama2c() const { return !m_gguf; }

private:
    DecodeModel() = default;

    std::string m_path;
    TransformerConfig m_config;
    ModelConfig m_modelConfig;
    TransformerWeights m_weights;
    std::optional<GgufFile> m_gguf;
    ModelSummary m_summary;
};

} // namespace ws
