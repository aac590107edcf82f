#pragma once
// Number formatting shared by the comparison charts and tables: three
// significant figures with the locale's digit grouping (2,130 / 45.2 / 0.318).

#include <QLocale>
#include <QString>

#include <cmath>

namespace ws::views {

inline QString formatSignificant(double value, int significant = 3)
{
    if (!std::isfinite(value))
        return QStringLiteral("–");
    if (value == 0)
        return QStringLiteral("0");
    const int magnitude = static_cast<int>(std::floor(std::log10(std::abs(value))));
    const int decimals = std::max(0, significant - 1 - magnitude);
    const double step = std::pow(10.0, magnitude - significant + 1);
    const double rounded = decimals > 0 ? value : std::round(value / step) * step;
    return QLocale().toString(rounded, 'f', decimals);
}

// A relative residual (a fraction) as a percentage with two significant figures; under 1e-6 % in size (rounding
// noise: an exact fit, a profile with as many constants as rows, leaves ~1e-14 %) "0.0".
inline QString formatResidualPercent(double fraction)
{
    const double percent = 100 * fraction;
    if (std::isfinite(percent) && std::abs(percent) < 1e-6)
        return QLocale().toString(0.0, 'f', 1);
    return formatSignificant(percent, 2);
}

} // namespace ws::views
