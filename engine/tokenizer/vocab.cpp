#include "engine/tokenizer/vocab.h"

#include <string>

namespace ws {

namespace {

bool idOk(TokenId id, size_t count)
{
    return id == kNoToken || (id >= 0 && static_cast<size_t>(id) < count);
}

} // namespace

Status Vocab::validate() const
{
    const size_t n = tokens.size();
    if (model == VocabModel::Bpe && preTokenizer == PreTokenizerKind::None)
        return makeError(ErrorCode::Unsupported,
                         preTokenizerName.empty()
                             ? std::string("no pre-tokenizer named (llama-bpe and qwen2 are supported)")
                             : "pre-tokenizer '" + preTokenizerName + "' is not supported (llama-bpe and qwen2 are)",
                         "tokenizer.ggml.pre");
    if (n == 0)
        return makeError(ErrorCode::Format, "vocabulary has no tokens", "tokenizer.ggml.tokens");
    if (n > static_cast<size_t>(INT32_MAX))
        return makeError(ErrorCode::Format, "vocabulary too large", "tokenizer.ggml.tokens");
    if (types.size() != n)
        return makeError(ErrorCode::Format,
                         "token type count " + std::to_string(types.size()) + " differs from token count " +
                             std::to_string(n),
                         "tokenizer.ggml.token_type");
    if (model == VocabModel::Spm && scores.size() != n)
        return makeError(ErrorCode::Format,
                         "score count " + std::to_string(scores.size()) + " differs from token count " +
                             std::to_string(n),
                         "tokenizer.ggml.scores");
    const std::pair<TokenId, const char*> ids[] = {
        {bosId, "tokenizer.ggml.bos_token_id"},         {eosId, "tokenizer.ggml.eos_token_id"},
        {unknownId, "tokenizer.ggml.unknown_token_id"}, {eotId, "tokenizer.ggml.eot_token_id"},
        {eomId, "tokenizer.ggml.eom_token_id"},         {padId, "tokenizer.ggml.padding_token_id"},
    };
    for (const auto& [id, field] : ids) {
        if (!idOk(id, n))
            return makeError(ErrorCode::Format,
                             "token id " + std::to_string(id) + " outside the vocabulary of " + std::to_string(n),
                             field);
    }
    if (addBos && bosId == kNoToken)
        return makeError(ErrorCode::Format, "add_bos_token is set but there is no BOS token",
                         "tokenizer.ggml.bos_token_id");
    if (addEos && eosId == kNoToken)
        return makeError(ErrorCode::Format, "add_eos_token is set but there is no EOS token",
                         "tokenizer.ggml.eos_token_id");
    return Ok{};
}

} // namespace ws
