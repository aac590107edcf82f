#include "engine/tokenizer/unicode.h"

#include <algorithm>
#include <array>

namespace ws::unicode {

// Generated in unicodetables.cpp.
extern const CodepointRange kLetterRanges[];
extern const size_t kLetterRangesCount;
extern const CodepointRange kNumberRanges[];
extern const size_t kNumberRangesCount;
extern const char kUnicodeVersion[];

namespace {

bool inRanges(const CodepointRange* ranges, size_t count, char32_t cp)
{
    const CodepointRange* end = ranges + count;
    // First range whose last codepoint is >= cp.
    const CodepointRange* it =
        std::lower_bound(ranges, end, cp, [](const CodepointRange& r, char32_t c) { return r.last < c; });
    return it != end && it->first <= cp;
}

struct ByteMap
{
    std::array<std::string, 256> toCharacter;
    std::array<int, 512> fromCharacter{}; // GPT-2 maps bytes onto U+0000..U+0143

    ByteMap()
    {
        fromCharacter.fill(-1);
        // Printable bytes keep their own codepoint; the rest are shifted to 256 + n in byte order.
        int next = 256;
        for (int b = 0; b < 256; ++b) {
            const bool printable = (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            const int cp = printable ? b : next++;
            toCharacter[b] = encodeUtf8(static_cast<char32_t>(cp));
            fromCharacter[cp] = b;
        }
    }
};

const ByteMap& byteMap()
{
    static const ByteMap map;
    return map;
}

// Length of the well-formed prefix of the sequence starting at bytes[0]
// (Unicode Table 3-7), and whether that prefix is a whole character.
struct SequenceCheck
{
    size_t validBytes = 0;
    bool complete = false;
};

SequenceCheck checkSequence(std::string_view bytes)
{
    const auto b0 = static_cast<uint8_t>(bytes[0]);
    if (b0 < 0x80)
        return {1, true};
    size_t need = 0;
    uint8_t lo = 0x80;
    uint8_t hi = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        need = 1;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        need = 2;
        if (b0 == 0xE0)
            lo = 0xA0;
        if (b0 == 0xED)
            hi = 0x9F;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        need = 3;
        if (b0 == 0xF0)
            lo = 0x90;
        if (b0 == 0xF4)
            hi = 0x8F;
    } else {
        return {0, false}; // not a lead byte
    }
    size_t i = 1;
    for (; i <= need && i < bytes.size(); ++i) {
        const auto b = static_cast<uint8_t>(bytes[i]);
        const uint8_t l = i == 1 ? lo : 0x80;
        const uint8_t h = i == 1 ? hi : 0xBF;
        if (b < l || b > h)
            return {i, false};
    }
    return {i, i == need + 1};
}

} // namespace

const char* tablesVersion()
{
    return kUnicodeVersion;
}

bool isLetter(char32_t cp)
{
    if (cp < 0x80)
        return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z');
    return inRanges(kLetterRanges, kLetterRangesCount, cp);
}

bool isNumber(char32_t cp)
{
    if (cp < 0x80)
        return cp >= '0' && cp <= '9';
    return inRanges(kNumberRanges, kNumberRangesCount, cp);
}

bool isWhitespace(char32_t cp)
{
    // White_Space in PropList.txt (unchanged since Unicode 6.3).
    return (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
           (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F ||
           cp == 0x3000;
}

size_t utf8SequenceLength(char lead)
{
    static constexpr size_t kLookup[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4};
    return kLookup[static_cast<uint8_t>(lead) >> 4];
}

std::vector<char32_t> decodeUtf8(std::string_view text)
{
    std::vector<char32_t> out;
    out.reserve(text.size());
    size_t i = 0;
    const size_t n = text.size();
    auto cont = [&](size_t k) { return k < n && (static_cast<uint8_t>(text[k]) & 0xC0) == 0x80; };
    while (i < n) {
        const auto b0 = static_cast<uint8_t>(text[i]);
        if (!(b0 & 0x80)) {
            out.push_back(b0);
            i += 1;
        } else if (!(b0 & 0x40)) {
            out.push_back(kReplacementCharacter);
            i += 1;
        } else if (!(b0 & 0x20)) {
            if (!cont(i + 1)) {
                out.push_back(kReplacementCharacter);
                i += 1;
                continue;
            }
            out.push_back(((b0 & 0x1Fu) << 6) | (static_cast<uint8_t>(text[i + 1]) & 0x3Fu));
            i += 2;
        } else if (!(b0 & 0x10)) {
            if (!cont(i + 1) || !cont(i + 2)) {
                out.push_back(kReplacementCharacter);
                i += 1;
                continue;
            }
            out.push_back(((b0 & 0x0Fu) << 12) | ((static_cast<uint8_t>(text[i + 1]) & 0x3Fu) << 6) |
                          (static_cast<uint8_t>(text[i + 2]) & 0x3Fu));
            i += 3;
        } else if (!(b0 & 0x08)) {
            if (!cont(i + 1) || !cont(i + 2) || !cont(i + 3)) {
                out.push_back(kReplacementCharacter);
                i += 1;
                continue;
            }
            out.push_back(((b0 & 0x07u) << 18) | ((static_cast<uint8_t>(text[i + 1]) & 0x3Fu) << 12) |
                          ((static_cast<uint8_t>(text[i + 2]) & 0x3Fu) << 6) |
                          (static_cast<uint8_t>(text[i + 3]) & 0x3Fu));
            i += 4;
        } else {
            out.push_back(kReplacementCharacter);
            i += 1;
        }
    }
    return out;
}

void appendUtf8(std::string& out, char32_t cp)
{
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | ((cp >> 18) & 0x07)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

std::string encodeUtf8(char32_t cp)
{
    std::string out;
    appendUtf8(out, cp);
    return out;
}

const std::string& byteToCharacter(uint8_t byte)
{
    return byteMap().toCharacter[byte];
}

int byteFromCharacter(char32_t cp)
{
    return cp < 512 ? byteMap().fromCharacter[cp] : -1;
}

size_t completeUtf8Prefix(std::string_view bytes)
{
    size_t pos = 0;
    while (pos < bytes.size()) {
        const SequenceCheck check = checkSequence(bytes.substr(pos));
        if (check.complete) {
            pos += check.validBytes;
        } else if (pos + check.validBytes == bytes.size() && check.validBytes > 0) {
            break; // a valid start that more bytes may complete
        } else {
            pos += std::max<size_t>(check.validBytes, 1); // ill-formed: final either way
        }
    }
    return pos;
}

std::string sanitizeUtf8(std::string_view bytes)
{
    std::string out;
    out.reserve(bytes.size());
    size_t pos = 0;
    while (pos < bytes.size()) {
        const SequenceCheck check = checkSequence(bytes.substr(pos));
        if (check.complete) {
            out.append(bytes.substr(pos, check.validBytes));
            pos += check.validBytes;
        } else {
            appendUtf8(out, kReplacementCharacter);
            pos += std::max<size_t>(check.validBytes, 1);
        }
    }
    return out;
}

} // namespace ws::unicode
