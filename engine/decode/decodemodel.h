#pragma once
// A model ready to run: its configuration and read-only weight views, loaded
// from a GGUF file or a llama2.c checkpoint (recognised by content: GGUF
// files start with "GGUF"). For GGUF the parsed file is kept, so the
// tokenizer can read its vocabulary from the same mapping. The header is
// read once and gives both architecture configs: the decoder's
// TransformerConfig and the placement's ModelConfig (the same one
// importModelFile gives for the file), so nobody re-reads the file for it.
//
// End of generation is the vocabulary's to say (Tokenizer::isEndOfGeneration,
// as llama.cpp's llama_vocab_is_eog); the Generator asks the tokenizer it is
// given.

#include "engine/core/error.h"
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

class DecodeModel
{
public:
    // Refuses a file larger than availableMemoryBytes() (the message gives both figures) before mapping it.
    static Expected<DecodeModel> load(const std::string& path);

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
};

} // namespace ws
