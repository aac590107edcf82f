#pragma once
// Numbers in the text the engine writes (notes, range drivers, error messages), the same under every locale.
// std::to_string(double) and printf("%f") follow LC_NUMERIC, which QCoreApplication sets from the user's
// locale: under de_DE they write "0,78", and the text would differ from the C locale's in the CLI's JSON and
// the exports (tests/app/export/tst_locale.cpp). std::to_chars never reads the locale.

#include <charconv>
#include <string>

namespace ws {

// `value` with `decimals` digits after the point: printf("%.*f", decimals, value) in the C locale.
inline std::string fixedText(double value, int decimals)
{
    char text[400]; // DBL_MAX has 309 digits before the point
    const auto [end, ec] = std::to_chars(text, text + sizeof text, value, std::chars_format::fixed, decimals);
    return ec == std::errc() ? std::string(text, end) : std::string("?");
}

// std::to_string(value) in the C locale (six decimals).
inline std::string toStringC(double value)
{
    return fixedText(value, 6);
}

} // namespace ws
