#include "engine/tokenizer/spmencoder.h"

#include "engine/tokenizer/unicode.h"

#include <algorithm>
#include <cstdio>
#include <queue>

namespace ws {

namespace {

struct Symbol
{
    int prev = -1;
    int next = -1;
    size_t start = 0;  // byte offset in the text
    size_t length = 0; // bytes; 0 once merged into its left neighbour
};

struct Bigram
{
    float score = 0.0f;
    int left = 0;
    int right = 0;
    size_t length = 0; // bytes of the merged text

    // Max-heap order of llama.cpp's llm_bigram_spm: higher score first, then the leftmost pair.
    bool operator<(const Bigram& other) const
    {
        return score < other.score || (score == other.score && left > other.left);
    }
};

} // namespace

SpmEncoder::SpmEncoder(const Vocab& vocab, const TokenIndex& index)
{
    for (int b = 0; b < 256; ++b) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "<0x%02X>", b);
        TokenId id = index.find(hex);
        if (id < 0) {
            const char raw = static_cast<char>(b);
            id = index.find(std::string_view(&raw, 1));
        }
        m_byteTokens[static_cast<size_t>(b)] = id >= 0 ? id : vocab.unknownId;
    }
}

void SpmEncoder::encode(std::string_view text, const Vocab& vocab, const TokenIndex& index,
                        std::vector<TokenId>& out) const
{
    if (text.empty())
        return;

    std::vector<Symbol> symbols;
    symbols.reserve(text.size());
    for (size_t offset = 0; offset < text.size();) {
        Symbol sym;
        sym.start = offset;
        sym.length = std::min(unicode::utf8SequenceLength(text[offset]), text.size() - offset);
        offset += sym.length;
        sym.prev = static_cast<int>(symbols.size()) - 1;
        sym.next = offset == text.size() ? -1 : static_cast<int>(symbols.size()) + 1;
        symbols.push_back(sym);
    }

    std::priority_queue<Bigram> queue;
    auto tryAddBigram = [&](int left, int right) {
        if (left < 0 || right < 0)
            return;
        const Symbol& l = symbols[static_cast<size_t>(left)];
        const Symbol& r = symbols[static_cast<size_t>(right)];
        const TokenId id = index.find(text.substr(l.start, l.length + r.length));
        if (id < 0)
            return;
        queue.push(Bigram{vocab.scores[static_cast<size_t>(id)], left, right, l.length + r.length});
    };

    for (int i = 1; i < static_cast<int>(symbols.size()); ++i)
        tryAddBigram(i - 1, i);

    while (!queue.empty()) {
        const Bigram bigram = queue.top();
        queue.pop();
        Symbol& left = symbols[static_cast<size_t>(bigram.left)];
        Symbol& right = symbols[static_cast<size_t>(bigram.right)];
        // Stale entry: one side was merged away or grew since the pair was queued.
        if (left.length == 0 || right.length == 0 || left.length + right.length != bigram.length)
            continue;
        left.length += right.length;
        right.length = 0;
        left.next = right.next;
        if (right.next >= 0)
            symbols[static_cast<size_t>(right.next)].prev = bigram.left;
        tryAddBigram(left.prev, bigram.left);
        tryAddBigram(bigram.left, left.next);
    }

    for (int i = 0; i != -1; i = symbols[static_cast<size_t>(i)].next) {
        const Symbol& sym = symbols[static_cast<size_t>(i)];
        const std::string_view piece = text.substr(sym.start, sym.length);
        const TokenId id = index.find(piece);
        if (id >= 0) {
            out.push_back(id);
            continue;
        }
        // Every merge produced a token, so only single characters get here.
        for (const char c : piece) {
            const TokenId byteId = m_byteTokens[static_cast<uint8_t>(c)];
            if (byteId >= 0)
                out.push_back(byteId);
        }
    }
}

} // namespace ws
