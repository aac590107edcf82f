#include "engine/tokenizer/vocabloader.h"

#include "engine/gguf/gguffile.h"

#include <cstring>
#include <fstream>
#include <iterator>

namespace ws {

namespace {

constexpr std::string_view kSpaceEscape = "\xE2\x96\x81";

bool isByteTokenText(std::string_view t)
{
    auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f'); };
    return t.size() == 6 && t.substr(0, 3) == "<0x" && hex(t[3]) && hex(t[4]) && t[5] == '>';
}

// An optional token id key; out-of-range ids keep the default, as in llama.cpp.
Status readTokenId(const GgufFile& file, const char* key, size_t count, TokenId& id)
{
    if (!file.has(key))
        return Ok{};
    auto value = file.getU64(key);
    if (!value)
        return value.error();
    if (*value < count)
        id = static_cast<TokenId>(*value);
    return Ok{};
}

Status readFlag(const GgufFile& file, const char* key, bool& flag)
{
    auto value = file.getBoolOr(key, flag);
    if (!value)
        return value.error();
    flag = *value;
    return Ok{};
}

} // namespace

Expected<Vocab> VocabLoader::fromGguf(const GgufFile& file)
{
    Vocab v;
    auto model = file.getString("tokenizer.ggml.model");
    if (!model)
        return model.error();
    auto tokens = file.getStringArray("tokenizer.ggml.tokens");
    if (!tokens)
        return tokens.error();
    const size_t n = tokens->size();
    v.tokens.assign(tokens->begin(), tokens->end());

    if (*model == "llama") {
        v.model = VocabModel::Spm;
        v.bosId = 1;
        v.eosId = 2;
        v.unknownId = 0;
        v.addBos = true;
        v.addSpacePrefix = true;
    } else if (*model == "gpt2") {
        v.model = VocabModel::Bpe;
        v.bosId = 11; // llama.cpp's defaults for gpt2 vocabularies
        v.eosId = 11;
        v.cleanSpaces = true;
        auto merges = file.getStringArray("tokenizer.ggml.merges");
        if (!merges)
            return merges.error();
        v.merges.assign(merges->begin(), merges->end());
        if (file.has("tokenizer.ggml.pre")) {
            auto pre = file.getString("tokenizer.ggml.pre");
            if (!pre)
                return pre.error();
            v.preTokenizerName = std::string(*pre);
        }
        const std::string& pre = v.preTokenizerName;
        if (pre == "llama3" || pre == "llama-v3" || pre == "llama-bpe" || pre == "falcon3") {
            v.preTokenizer = PreTokenizerKind::Llama3;
            v.ignoreMerges = true;
            v.addBos = true;
        } else if (pre == "qwen2" || pre == "deepseek-r1-qwen") {
            v.preTokenizer = PreTokenizerKind::Qwen2;
            v.cleanSpaces = false;
        }
    } else {
        return file.error(ErrorCode::Unsupported,
                          "tokenizer model '" + std::string(*model) + "' is not supported (llama and gpt2 are)",
                          "tokenizer.ggml.model");
    }

    if (file.has("tokenizer.ggml.scores")) {
        auto scores = file.getF32Array("tokenizer.ggml.scores");
        if (!scores)
            return scores.error();
        if (scores->size() < n)
            return file.error(ErrorCode::Format,
                              std::to_string(scores->size()) + " scores for " + std::to_string(n) + " tokens",
                              "tokenizer.ggml.scores");
        scores->resize(n);
        v.scores = std::move(*scores);
    } else {
        v.scores.assign(n, 0.0f);
    }

    v.types.assign(n, TokenType::Normal);
    if (file.has("tokenizer.ggml.token_type")) {
        auto types = file.getI32Array("tokenizer.ggml.token_type");
        if (!types)
            return types.error();
        if (types->size() < n)
            return file.error(ErrorCode::Format,
                              std::to_string(types->size()) + " token types for " + std::to_string(n) + " tokens",
                              "tokenizer.ggml.token_type");
        for (size_t i = 0; i < n; ++i) {
            const int32_t t = (*types)[i];
            v.types[i] = (t >= 0 && t <= 6) ? static_cast<TokenType>(t) : TokenType::Undefined;
        }
    }

    const std::pair<const char*, TokenId*> ids[] = {
        {"tokenizer.ggml.bos_token_id", &v.bosId},         {"tokenizer.ggml.eos_token_id", &v.eosId},
        {"tokenizer.ggml.eot_token_id", &v.eotId},         {"tokenizer.ggml.eom_token_id", &v.eomId},
        {"tokenizer.ggml.unknown_token_id", &v.unknownId}, {"tokenizer.ggml.padding_token_id", &v.padId},
    };
    for (const auto& [key, id] : ids) {
        if (*id != kNoToken && static_cast<size_t>(*id) >= n)
            *id = kNoToken; // a default that this small vocabulary does not have
        if (Status s = readTokenId(file, key, n, *id); !s)
            return s.error();
    }
    for (const auto& [key, flag] :
         {std::pair{"tokenizer.ggml.add_bos_token", &v.addBos}, std::pair{"tokenizer.ggml.add_eos_token", &v.addEos},
          std::pair{"tokenizer.ggml.add_space_prefix", &v.addSpacePrefix}}) {
        if (Status s = readFlag(file, key, *flag); !s)
            return s.error();
    }
    if (file.has("tokenizer.chat_template")) {
        auto tmpl = file.getString("tokenizer.chat_template");
        if (!tmpl)
            return tmpl.error();
        v.chatTemplate = std::string(*tmpl);
    }
    if (file.has("general.architecture")) {
        auto arch = file.getString("general.architecture");
        if (!arch)
            return arch.error();
        v.architecture = std::string(*arch);
    }

    if (Status s = v.validate(); !s) {
        Error e = s.error();
        e.file = file.path();
        return e;
    }
    return v;
}

Expected<Vocab> VocabLoader::fromLlama2cFile(const std::string& path, int vocabSize)
{
    auto fail = [&](ErrorCode code, std::string text, std::optional<uint64_t> offset = std::nullopt) {
        Error e = makeError(code, std::move(text));
        e.file = path;
        e.offset = offset;
        return e;
    };
    if (vocabSize <= 0)
        return fail(ErrorCode::InvalidArgument, "vocabulary size must be positive, got " + std::to_string(vocabSize));

    std::ifstream in(path, std::ios::binary);
    if (!in)
        return fail(ErrorCode::NotFound, "cannot open tokenizer file");
    const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad())
        return fail(ErrorCode::Io, "cannot read tokenizer file");

    auto readI32 = [&](size_t offset) {
        int32_t value = 0;
        std::memcpy(&value, data.data() + offset, 4);
        return value;
    };
    if (data.size() < 4)
        return fail(ErrorCode::Format, "file too short for max_token_length", 0);

    Vocab v;
    v.model = VocabModel::Spm;
    v.tokens.reserve(static_cast<size_t>(vocabSize));
    size_t pos = 4;
    for (int i = 0; i < vocabSize; ++i) {
        if (data.size() - pos < 8)
            return fail(ErrorCode::Format,
                        "truncated at token " + std::to_string(i) + " of " + std::to_string(vocabSize), pos);
        float score = 0.0f;
        std::memcpy(&score, data.data() + pos, 4);
        const int32_t length = readI32(pos + 4);
        if (length <= 0 || static_cast<size_t>(length) > data.size() - pos - 8)
            return fail(ErrorCode::Format,
                        "token " + std::to_string(i) + " has invalid length " + std::to_string(length), pos + 4);
        std::string text = data.substr(pos + 8, static_cast<size_t>(length));
        pos += 8 + static_cast<size_t>(length);

        if (text == "\n<s>\n")
            text = "<s>";
        else if (text == "\n</s>\n")
            text = "</s>";
        std::string escaped;
        for (const char c : text) {
            if (c == ' ')
                escaped.append(kSpaceEscape);
            else
                escaped.push_back(c);
        }
        TokenType type = TokenType::Normal;
        if (escaped == "<unk>")
            type = TokenType::Unknown;
        else if (escaped == "<s>" || escaped == "</s>")
            type = TokenType::Control;
        else if (isByteTokenText(escaped))
            type = TokenType::Byte;
        v.tokens.push_back(std::move(escaped));
        v.scores.push_back(score);
        v.types.push_back(type);
    }
    if (pos != data.size())
        return fail(ErrorCode::Format,
                    std::to_string(data.size() - pos) + " bytes after the " + std::to_string(vocabSize) +
                        " tokens the model expects (wrong tokenizer for this model?)",
                    pos);

    auto idOf = [&](std::string_view text, TokenId fallback) -> TokenId {
        for (size_t i = 0; i < v.tokens.size(); ++i) {
            if (v.tokens[i] == text)
                return static_cast<TokenId>(i);
        }
        return fallback < vocabSize ? fallback : kNoToken;
    };
    v.unknownId = idOf("<unk>", 0);
    v.bosId = idOf("<s>", 1);
    v.eosId = idOf("</s>", 2);
    v.addBos = v.bosId != kNoToken;
    v.addSpacePrefix = true;
    if (Status s = v.validate(); !s) {
        Error e = s.error();
        e.file = path;
        return e;
    }
    return v;
}

} // namespace ws
