#include "engine/tokenizer/mergeranks.h"

namespace ws {

MergeRanks::MergeRanks(const std::vector<std::string>& merges, const TokenIndex& index)
{
    size_t capacity = 16;
    while (capacity < merges.size() * 2)
        capacity *= 2;
    m_slots.assign(capacity, Slot{});
    std::string key;
    for (size_t i = 0; i < merges.size(); ++i) {
        const std::string_view line = merges[i];
        const size_t space = line.find(' ', 1);
        // llama.cpp keeps a line without a space as the pair ("", "").
        const std::string_view left = space == std::string_view::npos ? std::string_view() : line.substr(0, space);
        const std::string_view right = space == std::string_view::npos ? std::string_view() : line.substr(space + 1);
        const TokenId l = index.find(left);
        const TokenId r = index.find(right);
        const auto rank = static_cast<int32_t>(i);
        if (l >= 0 && r >= 0) {
            if (insertIds(pairKey(l, r), rank))
                ++m_count;
            continue;
        }
        key.assign(left);
        key.push_back('\0');
        key.append(right);
        if (m_byText.emplace(key, rank).second)
            ++m_count;
    }
}

bool MergeRanks::insertIds(uint64_t key, int32_t rank)
{
    const size_t mask = m_slots.size() - 1;
    for (size_t i = hash(key) & mask;; i = (i + 1) & mask) {
        Slot& slot = m_slots[i];
        if (slot.key == key)
            return false;
        if (slot.key == kEmpty) {
            slot = Slot{key, rank};
            return true;
        }
    }
}

int MergeRanks::findIds(TokenId left, TokenId right) const
{
    if (m_slots.empty())
        return -1;
    const uint64_t key = pairKey(left, right);
    const size_t mask = m_slots.size() - 1;
    for (size_t i = hash(key) & mask;; i = (i + 1) & mask) {
        const Slot& slot = m_slots[i];
        if (slot.key == key)
            return slot.rank;
        if (slot.key == kEmpty)
            return -1;
    }
}

int MergeRanks::findText(std::string_view left, std::string_view right) const
{
    thread_local std::string key;
    key.assign(left);
    key.push_back('\0');
    key.append(right);
    const auto it = m_byText.find(std::string_view(key));
    return it == m_byText.end() ? -1 : it->second;
}

} // namespace ws
