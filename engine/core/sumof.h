#pragma once
// The sum over a range of one value per element, given as a member (data or
// function) or a callable: sumOf(phases, &MeshPhase::traffic). The total
// starts value-initialised and adds with +=, so the statistics of
// engine/core/fieldwise.h sum as numbers do.

#include <functional>
#include <iterator>
#include <type_traits>

namespace ws {

template <typename Range, typename F> auto sumOf(const Range& range, F f)
{
    std::remove_cvref_t<std::invoke_result_t<F&, decltype(*std::begin(range))>> total{};
    for (const auto& x : range)
        total += std::invoke(f, x);
    return total;
}

} // namespace ws
