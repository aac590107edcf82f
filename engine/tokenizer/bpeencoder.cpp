#include "engine/tokenizer/bpeencoder.h"

#include "engine/tokenizer/unicode.h"

#include <algorithm>
#include <queue>

namespace ws {

namespace {

struct Symbol
{
    int prev = -1;
    int next = -1;
    size_t start = 0;  // byte offset in the word
    size_t length = 0; // bytes; 0 once merged into its left neighbour
    TokenId id = -1;   // token whose text is this symbol's text, or -1
};

struct Bigram
{
    int rank = 0;
    int left = 0;
    int right = 0;
    size_t leftLength = 0;
    size_t rightLength = 0;

    // Max-heap order of llama.cpp's llm_bigram_bpe: lowest rank first, then the leftmost pair.
    bool operator<(const Bigram& other) const { return rank > other.rank || (rank == other.rank && left > other.left); }
};

} // namespace

BpeEncoder::BpeEncoder(const std::vector<std::string>& merges, const TokenIndex& index, PreTokenizer preTokenizer,
                       bool ignoreMerges)
    : m_ranks(merges, index), m_preTokenizer(preTokenizer), m_ignoreMerges(ignoreMerges)
{
}

void BpeEncoder::encode(std::string_view text, const TokenIndex& index, std::vector<TokenId>& out) const
{
    const std::vector<char32_t> cpts = unicode::decodeUtf8(text);
    const std::vector<size_t> words = m_preTokenizer.split(cpts);
    std::string utf8;
    std::string word;
    size_t pos = 0;
    for (const size_t length : words) {
        utf8.clear();
        for (size_t i = pos; i < pos + length; ++i)
            unicode::appendUtf8(utf8, cpts[i]);
        pos += length;
        word.clear();
        for (const char c : utf8)
            word += unicode::byteToCharacter(static_cast<uint8_t>(c));
        encodeWord(word, index, out);
    }
}

void BpeEncoder::encodeWord(std::string_view word, const TokenIndex& index, std::vector<TokenId>& out) const
{
    if (word.empty())
        return;
    if (m_ignoreMerges) {
        const TokenId whole = index.find(word);
        if (whole >= 0) {
            out.push_back(whole);
            return;
        }
    }

    std::vector<Symbol> symbols;
    symbols.reserve(word.size());
    for (size_t offset = 0; offset < word.size();) {
        Symbol sym;
        sym.start = offset;
        sym.length = std::min(unicode::utf8SequenceLength(word[offset]), word.size() - offset);
        offset += sym.length;
        sym.prev = static_cast<int>(symbols.size()) - 1;
        sym.next = offset == word.size() ? -1 : static_cast<int>(symbols.size()) + 1;
        sym.id = index.find(word.substr(sym.start, sym.length));
        symbols.push_back(sym);
    }

    std::priority_queue<Bigram> queue;
    auto addBigram = [&](int left, int right) {
        if (left < 0 || right < 0)
            return;
        const Symbol& l = symbols[static_cast<size_t>(left)];
        const Symbol& r = symbols[static_cast<size_t>(right)];
        const int found = m_ranks.find(l.id, r.id, word.substr(l.start, l.length), word.substr(r.start, r.length));
        if (found < 0)
            return;
        queue.push(Bigram{found, left, right, l.length, r.length});
    };

    for (int i = 1; i < static_cast<int>(symbols.size()); ++i)
        addBigram(i - 1, i);

    while (!queue.empty()) {
        const Bigram bigram = queue.top();
        queue.pop();
        Symbol& left = symbols[static_cast<size_t>(bigram.left)];
        Symbol& right = symbols[static_cast<size_t>(bigram.right)];
        // Stale entry: the pair's text changed since it was queued.
        if (left.length == 0 || right.length == 0 || left.length != bigram.leftLength ||
            right.length != bigram.rightLength)
            continue;
        left.length += right.length;
        left.id = index.find(word.substr(left.start, left.length));
        right.length = 0;
        left.next = right.next;
        if (right.next >= 0)
            symbols[static_cast<size_t>(right.next)].prev = bigram.left;
        addBigram(left.prev, bigram.left);
        addBigram(bigram.left, left.next);
    }

    for (int i = 0; i != -1; i = symbols[static_cast<size_t>(i)].next) {
        const Symbol& sym = symbols[static_cast<size_t>(i)];
        const std::string_view piece = word.substr(sym.start, sym.length);
        if (sym.id >= 0) {
            out.push_back(sym.id);
            continue;
        }
        // As llama.cpp: try each byte of the piece as a token, drop the ones that are not.
        for (size_t j = 0; j < piece.size(); ++j) {
            const TokenId byteId = index.find(piece.substr(j, 1));
            if (byteId >= 0)
                out.push_back(byteId);
        }
    }
}

} // namespace ws
