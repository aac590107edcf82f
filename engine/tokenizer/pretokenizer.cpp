#include "engine/tokenizer/pretokenizer.h"

#include "engine/tokenizer/unicode.h"

namespace ws {

namespace {

constexpr char32_t kOutOfRange = 0xFFFFFFFF;

struct Flags
{
    bool valid = false; // false past the end of the text
    bool letter = false;
    bool number = false;
    bool whitespace = false;
};

char32_t asciiLower(char32_t c)
{
    return (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c;
}

} // namespace

std::vector<size_t> PreTokenizer::split(const std::vector<char32_t>& cpts) const
{
    std::vector<size_t> words;
    const size_t end = cpts.size();
    const size_t maxDigits = m_kind == Kind::Llama3 ? 3 : 1;

    auto cptAt = [&](size_t pos) -> char32_t { return pos < end ? cpts[pos] : kOutOfRange; };
    auto flagsAt = [&](size_t pos) -> Flags {
        if (pos >= end)
            return {};
        const char32_t c = cpts[pos];
        return {true, unicode::isLetter(c), unicode::isNumber(c), unicode::isWhitespace(c)};
    };

    size_t prevEnd = 0;
    auto addWord = [&](size_t wordEnd) -> size_t {
        const size_t len = wordEnd - prevEnd;
        if (len > 0)
            words.push_back(len);
        prevEnd = wordEnd;
        return len;
    };

    for (size_t pos = 0; pos < end;) {
        const char32_t cpt = cptAt(pos);
        const Flags flags = flagsAt(pos);

        // (?i:'s|'t|'re|'ve|'m|'ll|'d)
        if (cpt == '\'' && pos + 1 < end) {
            const char32_t next = asciiLower(cptAt(pos + 1));
            if (next == 's' || next == 't' || next == 'm' || next == 'd') {
                pos += addWord(pos + 2);
                continue;
            }
            if (pos + 2 < end) {
                const char32_t nextNext = asciiLower(cptAt(pos + 2));
                if ((next == 'r' && nextNext == 'e') || (next == 'v' && nextNext == 'e') ||
                    (next == 'l' && nextNext == 'l')) {
                    pos += addWord(pos + 3);
                    continue;
                }
            }
        }

        // [^\r\n\p{L}\p{N}]?\p{L}+
        if (!(cpt == '\r' || cpt == '\n' || flags.number)) {
            if (flags.letter || flagsAt(pos + 1).letter) {
                ++pos;
                while (flagsAt(pos).letter)
                    ++pos;
                addWord(pos);
                continue;
            }
        }

        // \p{N}{1,3} (Llama 3) or \p{N} (Qwen2)
        if (flags.number) {
            size_t start = pos;
            while (flagsAt(pos).number) {
                if (++pos - start >= maxDigits) {
                    addWord(pos);
                    start = pos;
                }
            }
            addWord(pos);
            continue;
        }

        // " "?[^\s\p{L}\p{N}]+[\r\n]*
        Flags flags2 = cpt == ' ' ? flagsAt(pos + 1) : flags;
        if (flags2.valid && !(flags2.whitespace || flags2.letter || flags2.number)) {
            pos += (cpt == ' ') ? 1 : 0;
            while (flags2.valid && !(flags2.whitespace || flags2.letter || flags2.number))
                flags2 = flagsAt(++pos);
            char32_t c2 = cptAt(pos);
            while (c2 == '\r' || c2 == '\n')
                c2 = cptAt(++pos);
            addWord(pos);
            continue;
        }

        size_t whitespaceCount = 0;
        size_t lastLineBreakEnd = 0;
        while (flagsAt(pos + whitespaceCount).whitespace) {
            const char32_t c2 = cptAt(pos + whitespaceCount);
            if (c2 == '\r' || c2 == '\n')
                lastLineBreakEnd = pos + whitespaceCount + 1;
            ++whitespaceCount;
        }

        // \s*[\r\n]+
        if (lastLineBreakEnd > 0) {
            pos = lastLineBreakEnd;
            addWord(pos);
            continue;
        }

        // \s+(?!\S)
        if (whitespaceCount > 1 && cptAt(pos + whitespaceCount) != kOutOfRange) {
            pos += whitespaceCount - 1;
            addWord(pos);
            continue;
        }

        // \s+
        if (whitespaceCount > 0) {
            pos += whitespaceCount;
            addWord(pos);
            continue;
        }

        // Nothing matched: a word of one codepoint.
        addWord(++pos);
    }
    return words;
}

} // namespace ws
