#pragma once
// Pre-tokenisation for byte-level BPE: before merges run, the text is cut into
// "words" by a regular expression, and merges never cross a word boundary.
// Llama 3 ("llama-bpe") and Qwen2/Qwen3 ("qwen2") use the same expression
//
//   (?i:'s|'t|'re|'ve|'m|'ll|'d) | [^\r\n\p{L}\p{N}]?\p{L}+ | \p{N}{1,3} |
//   " "?[^\s\p{L}\p{N}]+[\r\n]* | \s*[\r\n]+ | \s+(?!\S) | \s+
//
// except that Qwen2 takes digits one at a time (\p{N} instead of \p{N}{1,3}).
// This is a hand-written matcher for that expression, step for step the one
// llama.cpp uses (unicode_regex_split_custom_llama3), so no regex library and
// no locale is involved.

#include <cstddef>
#include <string_view>
#include <vector>

namespace ws {

class PreTokenizer
{
public:
    enum class Kind
    {
        Llama3, // digits in groups of up to 3
        Qwen2,  // single digits
    };

    explicit PreTokenizer(Kind kind = Kind::Llama3) : m_kind(kind) {}

    Kind kind() const { return m_kind; }

    // Splits codepoints into words; returns the length of each word in
    // codepoints (they add up to cpts.size()).
    std::vector<size_t> split(const std::vector<char32_t>& cpts) const;

private:
    Kind m_kind;
};

} // namespace ws
