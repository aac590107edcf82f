#include "engine/tokenizer/tokenizer.h"

#include "engine/tokenizer/unicode.h"
#include "engine/tokenizer/vocabloader.h"

#include <algorithm>
#include <cstdlib>

namespace ws {

namespace {

constexpr std::string_view kSpaceEscape = "\xE2\x96\x81"; // U+2581 LOWER ONE EIGHTH BLOCK

// Texts llama.cpp treats as end of generation (and forces to control type).
constexpr std::string_view kEndOfGenerationTexts[] = {
    "<|eot_id|>",
    "<|im_end|>",
    "<|end|>",
    "<end_of_turn>",
    "<|endoftext|>",
    "<|eom_id|>",
    "<EOT>",
    "_<EOT>",
    // FIM pad / repo / file separator tokens, which llama.cpp also adds.
    "<|fim_pad|>",
    "<|repo_name|>",
    "<|fim_repo|>",
    "<|file_sep|>",
};
// End-of-turn token by text when the metadata names none, in llama.cpp's order of preference.
constexpr std::string_view kEndOfTurnTexts[] = {"<|eot_id|>",    "<|im_end|>", "<|end|>", "<end_of_turn>",
                                                "<|endoftext|>", "<EOT>",      "_<EOT>"};

std::string escapeSpaces(std::string_view text)
{
    std::string out;
    out.reserve(text.size() + 8);
    for (const char c : text) {
        if (c == ' ')
            out.append(kSpaceEscape);
        else
            out.push_back(c);
    }
    return out;
}

std::string unescapeSpaces(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        if (text.substr(i, kSpaceEscape.size()) == kSpaceEscape) {
            out.push_back(' ');
            i += kSpaceEscape.size();
        } else {
            out.push_back(text[i++]);
        }
    }
    return out;
}

// llama_decode_text: GPT-2 byte alphabet back to bytes.
std::string decodeByteAlphabet(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (const char32_t cp : unicode::decodeUtf8(text)) {
        const int byte = unicode::byteFromCharacter(cp);
        if (byte >= 0) {
            out.push_back(static_cast<char>(byte));
            continue;
        }
        static constexpr char kHex[] = "0123456789abcdef";
        out += "[UNK_BYTE_0x";
        for (const char c : unicode::encodeUtf8(cp)) {
            out.push_back(kHex[static_cast<uint8_t>(c) >> 4]);
            out.push_back(kHex[static_cast<uint8_t>(c) & 15]);
        }
        out.append(text);
        out += "]";
    }
    return out;
}

// clean_up_tokenization_spaces, llama.cpp's three passes.
std::string cleanSpaces(const std::string& text)
{
    std::string a;
    for (size_t i = 0; i < text.size(); ++i) {
        const char x = text[i];
        if (i > 0 && text[i - 1] == ' ' && (x == '?' || x == '!' || x == '.' || x == ',') && !a.empty())
            a.pop_back(); // " ?" -> "?"
        a.push_back(x);
    }
    std::string b;
    for (size_t i = 0; i < a.size(); ++i) {
        const char x = a[i];
        if (i > 0 && a[i - 1] == ' ' && x == '\'' && i + 1 < a.size()) {
            const char x1 = a[i + 1];
            const bool sm = x1 == 's' || x1 == 'm';
            const bool reve = i + 2 < a.size() && ((x1 == 'r' && a[i + 2] == 'e') || (x1 == 'v' && a[i + 2] == 'e'));
            if ((sm || reve) && !b.empty())
                b.pop_back(); // " 's", " 'm", " 're", " 've"
        }
        b.push_back(x);
    }
    return b;
}

} // namespace

Expected<Tokenizer> Tokenizer::fromGguf(const GgufFile& file)
{
    auto vocab = VocabLoader::fromGguf(file);
    if (!vocab)
        return vocab.error();
    return fromVocab(std::move(*vocab));
}

Expected<Tokenizer> Tokenizer::fromLlama2cFile(const std::string& path, int vocabSize)
{
    auto vocab = VocabLoader::fromLlama2cFile(path, vocabSize);
    if (!vocab)
        return vocab.error();
    return fromVocab(std::move(*vocab));
}

Expected<Tokenizer> Tokenizer::fromVocab(Vocab vocab)
{
    for (size_t i = 0; i < vocab.tokens.size(); ++i) {
        if (vocab.tokens[i].empty()) // as llama.cpp: an empty text could never be matched
            vocab.tokens[i] = "[EMPTY_" + std::to_string(i) + "]";
    }
    if (Status status = vocab.validate(); !status)
        return status.error();

    Tokenizer t;
    t.m_index = TokenIndex(vocab.tokens);

    if (vocab.eotId == kNoToken) {
        for (const std::string_view text : kEndOfTurnTexts) {
            if (const TokenId id = t.m_index.find(text); id >= 0) {
                vocab.eotId = id;
                break;
            }
        }
    }
    for (const std::string_view text : kEndOfGenerationTexts) {
        if (const TokenId id = t.m_index.find(text); id >= 0) {
            t.m_eogIds.push_back(id);
            vocab.types[static_cast<size_t>(id)] = TokenType::Control;
        }
    }
    for (const TokenId id : {vocab.eosId, vocab.eotId, vocab.eomId}) {
        if (id != kNoToken)
            t.m_eogIds.push_back(id);
    }
    std::sort(t.m_eogIds.begin(), t.m_eogIds.end());
    t.m_eogIds.erase(std::unique(t.m_eogIds.begin(), t.m_eogIds.end()), t.m_eogIds.end());

    for (size_t i = 0; i < vocab.tokens.size(); ++i) {
        const TokenType type = vocab.types[i];
        if (type == TokenType::Control || type == TokenType::Unknown || type == TokenType::UserDefined)
            t.m_specialTokens.push_back(static_cast<TokenId>(i));
    }
    std::stable_sort(t.m_specialTokens.begin(), t.m_specialTokens.end(), [&](TokenId a, TokenId b) {
        return vocab.tokens[static_cast<size_t>(a)].size() > vocab.tokens[static_cast<size_t>(b)].size();
    });

    if (vocab.model == VocabModel::Spm) {
        t.m_spm = SpmEncoder(vocab, t.m_index);
    } else {
        const PreTokenizer pre(vocab.preTokenizer == PreTokenizerKind::Qwen2 ? PreTokenizer::Kind::Qwen2
                                                                             : PreTokenizer::Kind::Llama3);
        t.m_bpe = BpeEncoder(vocab.merges, t.m_index, pre, vocab.ignoreMerges);
        vocab.merges.clear(); // the encoder holds them now
        vocab.merges.shrink_to_fit();
    }
    t.m_vocab = std::move(vocab);
    return t;
}

std::vector<Tokenizer::Fragment> Tokenizer::partition(std::string_view text, bool parseSpecial) const
{
    std::vector<Fragment> fragments;
    if (text.empty())
        return fragments;
    fragments.push_back(Fragment{kNoToken, 0, text.size()});

    std::vector<Fragment> next;
    for (const TokenId special : m_specialTokens) {
        const TokenType type = m_vocab.types[static_cast<size_t>(special)];
        if (!parseSpecial && (type == TokenType::Control || type == TokenType::Unknown))
            continue;
        const std::string& needle = m_vocab.tokens[static_cast<size_t>(special)];
        next.clear();
        for (const Fragment& f : fragments) {
            if (f.token != kNoToken) {
                next.push_back(f);
                continue;
            }
            size_t pos = f.offset;
            const size_t end = f.offset + f.length;
            while (pos < end) {
                const size_t match = text.find(needle, pos);
                if (match == std::string_view::npos || match + needle.size() > end)
                    break;
                if (match > pos)
                    next.push_back(Fragment{kNoToken, pos, match - pos});
                next.push_back(Fragment{special, 0, 0});
                pos = match + needle.size();
            }
            if (pos < end)
                next.push_back(Fragment{kNoToken, pos, end - pos});
        }
        fragments.swap(next);
    }
    return fragments;
}

std::vector<TokenId> Tokenizer::encode(std::string_view text, bool addSpecial, bool parseSpecial) const
{
    std::vector<TokenId> out;
    out.reserve(text.size() / 3 + 2);
    if (addSpecial && m_vocab.addBos)
        out.push_back(m_vocab.bosId);

    bool previousWasSpecial = true; // SPM: the first fragment gets the space prefix too
    for (const Fragment& f : partition(text, parseSpecial)) {
        if (f.token != kNoToken) {
            out.push_back(f.token);
            previousWasSpecial = true;
            continue;
        }
        const std::string_view raw = text.substr(f.offset, f.length);
        if (m_vocab.model == VocabModel::Spm) {
            std::string prefixed;
            if (m_vocab.addSpacePrefix && previousWasSpecial)
                prefixed.push_back(' ');
            prefixed.append(raw);
            m_spm.encode(escapeSpaces(prefixed), m_vocab, m_index, out);
        } else {
            m_bpe.encode(raw, m_index, out);
        }
        previousWasSpecial = false;
    }

    if (addSpecial && m_vocab.addEos)
        out.push_back(m_vocab.eosId);
    return out;
}

std::string Tokenizer::tokenPiece(TokenId id, bool special) const
{
    if (!isValid(id))
        return {};
    const TokenType type = m_vocab.types[static_cast<size_t>(id)];
    const std::string& text = m_vocab.tokens[static_cast<size_t>(id)];
    if (type == TokenType::Control || type == TokenType::Unknown)
        return special ? text : std::string();
    if (type == TokenType::UserDefined)
        return text;
    if (type == TokenType::Normal)
        return m_vocab.model == VocabModel::Spm ? unescapeSpaces(text) : decodeByteAlphabet(text);
    if (type == TokenType::Byte && m_vocab.model == VocabModel::Spm && text.size() >= 4)
        return std::string(1, static_cast<char>(std::strtol(text.c_str() + 3, nullptr, 16)));
    return {}; // unused and undefined tokens stand for nothing
}

std::string Tokenizer::piece(TokenId id) const
{
    return tokenPiece(id, true);
}

std::string Tokenizer::decode(const std::vector<TokenId>& ids) const
{
    std::string out;
    for (const TokenId id : ids)
        out += tokenPiece(id, false);
    return out;
}

std::string Tokenizer::detokenize(const std::vector<TokenId>& ids, bool removeSpecial, bool unparseSpecial) const
{
    size_t first = 0;
    size_t last = ids.size();
    bool removeSpace = m_vocab.addSpacePrefix;
    if (removeSpecial && m_vocab.addBos && last > first && ids[first] == m_vocab.bosId) {
        removeSpace = false;
        ++first;
    }
    if (removeSpecial && m_vocab.addEos && last > first && ids[last - 1] == m_vocab.eosId)
        --last;

    std::string out;
    for (size_t i = first; i < last; ++i) {
        std::string p = tokenPiece(ids[i], unparseSpecial);
        if (removeSpace && !p.empty() && p.front() == ' ')
            p.erase(0, 1);
        removeSpace = false;
        out += p;
    }
    return m_vocab.cleanSpaces ? cleanSpaces(out) : out;
}

bool Tokenizer::isEndOfGeneration(TokenId id) const
{
    return std::binary_search(m_eogIds.begin(), m_eogIds.end(), id);
}

const std::string& Tokenizer::tokenText(TokenId id) const
{
    static const std::string kEmpty;
    return isValid(id) ? m_vocab.tokens[static_cast<size_t>(id)] : kEmpty;
}

TokenType Tokenizer::tokenType(TokenId id) const
{
    return isValid(id) ? m_vocab.types[static_cast<size_t>(id)] : TokenType::Undefined;
}

} // namespace ws
