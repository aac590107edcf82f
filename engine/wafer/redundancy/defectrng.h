#pragma once
// The random number generator behind defect injection and Monte Carlo yield.
// Deterministic on every platform (one seed, one run): xoshiro256** seeded by
// splitmix64, with its own uniform, Gamma and geometric draws instead of the
// standard library's distributions, whose output differs between libraries.

#include <cmath>
#include <cstdint>

namespace ws {

__extension__ typedef unsigned __int128 DefectRngWide; // 64x64->128 multiply

class DefectRng
{
public:
    explicit DefectRng(uint64_t seed)
    {
        uint64_t x = seed;
        for (auto& s : m_state)
            s = splitMix64(x);
    }

    uint64_t next()
    {
        const uint64_t result = rotl(m_state[1] * 5, 7) * 9;
        const uint64_t t = m_state[1] << 17;
        m_state[2] ^= m_state[0];
        m_state[3] ^= m_state[1];
        m_state[1] ^= m_state[2];
        m_state[0] ^= m_state[3];
        m_state[2] ^= t;
        m_state[3] = rotl(m_state[3], 45);
        return result;
    }

    // Uniform in [0, 1), 53 bits.
    double uniform01() { return double(next() >> 11) * 0x1.0p-53; }
    // Uniform in (0, 1]: safe for log().
    double uniformOpen0() { return double((next() >> 11) + 1) * 0x1.0p-53; }

    // Uniform integer in [0, n), n > 0, unbiased (Lemire's multiply-and-reject).
    uint64_t below(uint64_t n)
    {
        DefectRngWide m = static_cast<DefectRngWide>(next()) * n;
        auto low = static_cast<uint64_t>(m);
        if (low < n) {
            const uint64_t threshold = (0 - n) % n;
            while (low < threshold) {
                m = static_cast<DefectRngWide>(next()) * n;
                low = static_cast<uint64_t>(m);
            }
        }
        return static_cast<uint64_t>(m >> 64);
    }

    double normal()
    {
        // Marsaglia polar method (the spare value is dropped to keep the state simple).
        for (;;) {
            const double u = 2.0 * uniform01() - 1.0;
            const double v = 2.0 * uniform01() - 1.0;
            const double s = u * u + v * v;
            if (s > 0.0 && s < 1.0)
                return u * std::sqrt(-2.0 * std::log(s) / s);
        }
    }

    // Gamma(shape, scale), shape > 0 (Marsaglia and Tsang 2000).
    double gamma(double shape, double scale)
    {
        if (shape < 1.0) {
            const double boost = std::pow(uniformOpen0(), 1.0 / shape);
            return gamma(shape + 1.0, scale) * boost;
        }
        const double d = shape - 1.0 / 3.0;
        const double c = 1.0 / std::sqrt(9.0 * d);
        for (;;) {
            double x = 0;
            double v = 0;
            do {
                x = normal();
                v = 1.0 + c * x;
            } while (v <= 0.0);
            v = v * v * v;
            const double u = uniformOpen0();
            if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v))
                return d * v * scale;
        }
    }

    // Failures before the next success of a Bernoulli(p) sequence, p in (0, 1]:
    // lets a sparse Bernoulli field be drawn in O(hits) instead of O(cells).
    // logOneMinusP = log1p(-p), precomputed by the caller.
    double geometricGap(double logOneMinusP) { return std::floor(std::log(uniformOpen0()) / logOneMinusP); }

private:
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    static uint64_t splitMix64(uint64_t& x)
    {
        uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

    uint64_t m_state[4] = {};
};

} // namespace ws
