#include "engine/tokenizer/tokenindex.h"

namespace ws {

TokenIndex::TokenIndex(const std::vector<std::string>& tokens)
{
    m_ids.reserve(tokens.size());
    for (size_t i = 0; i < tokens.size(); ++i)
        m_ids.insert_or_assign(tokens[i], static_cast<TokenId>(i));
}

} // namespace ws
