#pragma once
// Turns generated token ids into text as they arrive. A token's piece may end
// in the middle of a UTF-8 character (byte tokens, byte-level BPE pieces of
// CJK text or emoji), so push() holds back an incomplete tail and returns
// only whole characters; the held bytes come out with the next token that
// completes them. Bytes that can never become a valid character are replaced
// by U+FFFD, so every string returned is valid UTF-8 and the concatenation of
// all push() and flush() results equals sanitizeUtf8(decode(all ids)).

#include "engine/tokenizer/tokenid.h"

#include <string>

namespace ws {

class Tokenizer;

class StreamingDecoder
{
public:
    // The tokenizer must outlive the decoder.
    explicit StreamingDecoder(const Tokenizer& tokenizer) : m_tokenizer(&tokenizer) {}

    // Text completed by this token (possibly empty). Control tokens add nothing.
    std::string push(TokenId id);

    // Whatever is still held back, incomplete sequences as U+FFFD; resets.
    std::string flush();

    void reset() { m_pending.clear(); }
    size_t pendingBytes() const { return m_pending.size(); }

private:
    const Tokenizer* m_tokenizer;
    std::string m_pending; // bytes of an incomplete UTF-8 character (at most 3)
};

} // namespace ws
