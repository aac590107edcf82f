#pragma once
// Unicode helpers for the tokenizers: UTF-8 decoding and encoding with
// llama.cpp's exact rules, the two character classes the BPE pre-tokenizers
// test (\p{L} letters, \p{N} numbers, from generated range tables in
// unicodetables.cpp) plus the White_Space property, GPT-2's byte-to-character
// map that byte-level BPE vocabularies are written in, and a sanitiser that
// turns arbitrary bytes into valid UTF-8 (U+FFFD per maximal invalid subpart,
// the rule Python's errors="replace" and the WHATWG decoder follow).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ws::unicode {

struct CodepointRange
{
    uint32_t first = 0;
    uint32_t last = 0; // inclusive
};

constexpr char32_t kReplacementCharacter = 0xFFFD;

// Unicode version of the generated tables (Python's unicodedata).
const char* tablesVersion();

bool isLetter(char32_t cp);     // General_Category L*
bool isNumber(char32_t cp);     // General_Category N*
bool isWhitespace(char32_t cp); // White_Space property

// Byte length of the UTF-8 sequence that starts with `lead`, as llama.cpp's
// unicode_len_utf8: 1 for ASCII and for stray continuation bytes, else 2..4.
size_t utf8SequenceLength(char lead);

// Decodes UTF-8 the way llama.cpp does: a byte that does not start a complete
// sequence becomes U+FFFD and decoding resumes at the next byte. (Overlong
// forms and surrogates are accepted, as there.)
std::vector<char32_t> decodeUtf8(std::string_view text);

// Appends the UTF-8 form of `cp` (cp <= 0x10FFFF) to `out`.
void appendUtf8(std::string& out, char32_t cp);
std::string encodeUtf8(char32_t cp);

// GPT-2 byte-level alphabet: each byte value maps to one printable character
// (UTF-8, 1 or 2 bytes); byteFromCharacter is the inverse (-1 if none).
const std::string& byteToCharacter(uint8_t byte);
int byteFromCharacter(char32_t cp);

// Number of bytes at the start of `bytes` that form complete, well-formed
// UTF-8 characters, stopping before a trailing sequence that is incomplete but
// could still be completed by more bytes. Invalid bytes count as "complete"
// (they will never become valid), so the caller can replace them.
size_t completeUtf8Prefix(std::string_view bytes);

// Valid UTF-8 for any bytes: well-formed sequences are copied, every maximal
// ill-formed subpart becomes U+FFFD.
std::string sanitizeUtf8(std::string_view bytes);

} // namespace ws::unicode
