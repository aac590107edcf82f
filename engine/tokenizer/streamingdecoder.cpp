#include "engine/tokenizer/streamingdecoder.h"

#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/unicode.h"

namespace ws {

std::string StreamingDecoder::push(TokenId id)
{
    m_pending += m_tokenizer->decode({id});
    const size_t complete = unicode::completeUtf8Prefix(m_pending);
    std::string out = unicode::sanitizeUtf8(std::string_view(m_pending).substr(0, complete));
    m_pending.erase(0, complete);
    return out;
}

std::string StreamingDecoder::flush()
{
    std::string out = unicode::sanitizeUtf8(m_pending);
    m_pending.clear();
    return out;
}

} // namespace ws
