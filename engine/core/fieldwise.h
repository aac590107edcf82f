#pragma once
// Plain statistics that add and subtract field by field, so that totals and
// per-phase deltas are arithmetic (ChampSim's cache_stats style): a struct
// names its counters once, as member pointers returned by a static fields(),
// and gets += and -= from here (found by argument-dependent lookup for the
// types of namespace ws; elsewhere `using ws::operator+=;`). A counter is a
// number, a std::array of counters (element by element), or another such
// struct.

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>

namespace ws {

template <typename T>
concept FieldWise = requires
{
    std::tuple_size<decltype(T::fields())>::value;
};

namespace fieldwise {
template <typename V> void add(V& a, const V& b, int sign)
{
    if constexpr (std::is_arithmetic_v<V>)
        a = sign > 0 ? a + b : a - b;
    else if constexpr (FieldWise<V>)
        std::apply([&](auto... m) { (add(a.*m, b.*m, sign), ...); }, V::fields());
    else
        for (size_t i = 0; i < std::size(a); ++i)
            add(a[i], b[i], sign);
}
} // namespace fieldwise

template <FieldWise T> T& operator+=(T& a, const T& b)
{
    fieldwise::add(a, b, +1);
    return a;
}

template <FieldWise T> T& operator-=(T& a, const T& b)
{
    fieldwise::add(a, b, -1);
    return a;
}

} // namespace ws
