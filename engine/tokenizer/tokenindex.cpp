#include "engine/tokenizer/tokenindex.h"

#include "engine/core/sumof.h"

namespace ws {

TokenIndex::TokenIndex(const std::vector<std::string>& tokens)
{
    m_arena.reserve(sumOf(tokens, [](const std::string& t) { return t.size(); }));
    m_offsets.reserve(tokens.size() + 1);
    for (const std::string& t : tokens) {
        m_offsets.push_back(m_arena.size());
        m_arena += t;
    }
    m_offsets.push_back(m_arena.size());

    size_t capacity = 16;
    while (capacity < tokens.size() * 2)
        capacity *= 2;
    m_slots.assign(capacity, Slot{});
    const size_t mask = capacity - 1;
    for (size_t id = 0; id < tokens.size(); ++id) {
        const size_t h = StringViewHash{}(tokens[id]);
        for (size_t i = h & mask;; i = (i + 1) & mask) {
            Slot& slot = m_slots[i];
            if (slot.id < 0) {
                slot = Slot{static_cast<uint32_t>(h), static_cast<TokenId>(id)};
                break;
            }
            if (slot.hash == static_cast<uint32_t>(h) && text(slot.id) == tokens[id]) {
                slot.id = static_cast<TokenId>(id); // a later duplicate wins
                break;
            }
        }
    }
}

TokenId TokenIndex::find(std::string_view needle) const
{
    if (m_slots.empty())
        return -1;
    const size_t h = StringViewHash{}(needle);
    const size_t mask = m_slots.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        const Slot& slot = m_slots[i];
        if (slot.id < 0)
            return -1;
        if (slot.hash == static_cast<uint32_t>(h) && text(slot.id) == needle)
            return slot.id;
    }
}

} // namespace ws
