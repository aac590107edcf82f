#pragma once
// A model ready to run: its configuration and read-only weight views, loaded
// from a GGUF file or a llama2.c checkpoint (recognised by content: GGUF
// files start with "GGUF"). For GGUF the parsed file is kept, so the
// tokenizer can read its vocabulary from the same mapping.

#include "engine/core/error.h"
#include "engine/decode/transformerconfig.h"
#include "engine/decode/weights.h"
#include "engine/gguf/gguffile.h"
#include "engine/tokenizer/tokenid.h"

#include <optional>
#include <string>
#include <vector>

namespace ws {

class DecodeModel
{
public:
    static Expected<DecodeModel> load(const std::string& path);

    const std::string& path() const { return m_path; }
    const TransformerConfig& config() const { return m_config; }
    const TransformerWeights& weights() const { return m_weights; }
    // The GGUF file, or null for a llama2.c checkpoint.
    const GgufFile* gguf() const { return m_gguf ? &*m_gguf : nullptr; }
    bool isLlama2c() const { return !m_gguf; }
    // End-of-generation ids from the metadata (EOS, EOT, EOM); llama2.c: EOS 2.
    const std::vector<TokenId>& stopTokens() const { return m_stopTokens; }

private:
    DecodeModel() = default;

    std::string m_path;
    TransformerConfig m_config;
    TransformerWeights m_weights;
    std::optional<GgufFile> m_gguf;
    std::vector<TokenId> m_stopTokens;
};

} // namespace ws
