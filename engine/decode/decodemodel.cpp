#include "engine/decode/decodemodel.h"

#include "engine/gguf/llama2ccheckpoint.h"

#include <algorithm>
#include <cstring>

namespace ws {

Expected<DecodeModel> DecodeModel::load(const std::string& path)
{
    auto mapped = MappedFile::open(path);
    if (!mapped)
        return mapped.error();
    const bool isGguf = (*mapped)->sizeBytes() >= 4 && std::memcmp((*mapped)->data(), "GGUF", 4) == 0;
    mapped->reset();
    DecodeModel m;
    m.m_path = path;
    if (isGguf) {
        auto file = GgufFile::open(path);
        if (!file)
            return file.error();
        auto config = TransformerConfig::fromGguf(*file);
        if (!config)
            return config.error();
        auto weights = TransformerWeights::fromGguf(*file, *config);
        if (!weights)
            return weights.error();
        m.m_config = std::move(*config);
        m.m_weights = std::move(*weights);
        for (const char* key : {"tokenizer.ggml.eos_token_id", "tokenizer.ggml.eot_token_id",
                                "tokenizer.ggml.eom_token_id"}) {
            if (!file->has(key))
                continue;
            auto id = file->getU32(key);
            if (!id)
                return id.error();
            if (*id < uint32_t(m.m_config.vocabSize) &&
                std::find(m.m_stopTokens.begin(), m.m_stopTokens.end(), TokenId(*id)) == m.m_stopTokens.end())
                m.m_stopTokens.push_back(TokenId(*id));
        }
        m.m_gguf = std::move(*file);
        return m;
    }
    auto checkpoint = Llama2cCheckpoint::open(path);
    if (!checkpoint)
        return checkpoint.error();
    auto config = TransformerConfig::fromLlama2c(checkpoint->header());
    if (!config)
        return config.error();
    auto weights = TransformerWeights::fromLlama2c(*checkpoint, *config);
    if (!weights)
        return weights.error();
    m.m_config = std::move(*config);
    m.m_weights = std::move(*weights);
    m.m_stopTokens = {2}; // the SentencePiece EOS of llama2.c's tokenizers
    return m;
}

} // namespace ws
