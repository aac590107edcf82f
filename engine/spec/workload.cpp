#include "engine/spec/workload.h"

#include <cmath>

namespace ws {

double SpeculativeDecoding::expectedTokensPerStep() const
{
    const double a = acceptanceRate;
    const int k = tokensPerStep < 0 ? 0 : tokensPerStep;
    if (a >= 1.0)
        return k + 1.0;
    if (a <= 0.0)
        return 1.0;
    return (1.0 - std::pow(a, k + 1)) / (1.0 - a);
}

} // namespace ws
