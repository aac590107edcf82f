#pragma once
// The tile of prompt processing for F32 and F16 weights (weight rows by tokens, from registers) and its walk over
// panels of tokens (simd::tokenPanel), in a header compiled once per instruction set (blockkernels_avx2.cpp,
// blockkernels_avx512.cpp, each with its own tile shape): every output is dotF32Lanes / dotF16Lanes of its row and
// token bit for bit, one 8-lane FMA accumulator over the n values reduced as hsum8. Only the loads are shared within
// a tile, each weight vector by its tokens and each activation vector by its rows.
#include "engine/decode/simd.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace ws::kernels {

namespace {

// The loads as types, so that the tiles inline them (a function pointer would be called per vector).
struct LoadF32
{
    __m256 operator()(const float* p) const { return _mm256_loadu_ps(p); }
};
struct LoadF16
{
    // Widened as it is read: exact, every F16 value is a float.
    __m256 operator()(const uint16_t* p) const
    {
        return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    }
};

// kRows rows by kTokens F32 activation rows.
template <int kRows, int kTokens, typename T, typename Load>
void floatTile(const uint8_t* rows, size_t rowBytes, const float* x, size_t xStride, int n, float* out,
               size_t outStride)
{
    const Load load;
    __m256 acc[kRows][kTokens];
    for (int r = 0; r < kRows; ++r)
        for (int t = 0; t < kTokens; ++t)
            acc[r][t] = _mm256_setzero_ps();
    for (int i = 0; i < n; i += 8) {
        __m256 w[kRows];
        for (int r = 0; r < kRows; ++r)
            w[r] = load(reinterpret_cast<const T*>(rows + rowBytes * size_t(r)) + i);
        for (int t = 0; t < kTokens; ++t) {
            const __m256 xv = _mm256_loadu_ps(x + xStride * size_t(t) + size_t(i));
            for (int r = 0; r < kRows; ++r)
                acc[r][t] = _mm256_fmadd_ps(w[r], xv, acc[r][t]);
        }
    }
    for (int t = 0; t < kTokens; ++t)
        for (int r = 0; r < kRows; ++r)
            out[outStride * size_t(t) + size_t(r)] = simd::hsum8(acc[r][t]);
}

using FloatTile = void (*)(const uint8_t*, size_t, const float*, size_t, int, float*, size_t);

// Every tile from 1 x 1 to kRows x kTokens, at [(rows - 1) * kTokens + tokens - 1].
template <int kRows, int kTokens, typename T, typename Load, int... I>
constexpr std::array<FloatTile, sizeof...(I)> floatTiles(std::integer_sequence<int, I...>)
{
    return {floatTile<I / kTokens + 1, I % kTokens + 1, T, Load>...};
}

// rowCount rows by `tokens` activation rows (x: (tokens, n), n a multiple of 8) in tiles of kRows by kTokens, over
// panels of tokens whose activations stay in L2. An F16 activation (X = uint16_t) is widened a panel at a time into
// an L2-sized buffer (exactly: every F16 value is a float): widening the whole of it for each call streamed 2-6 MB
// through L2 per chunk of rows and took a tenth of two threads' speed (Qwen3-0.6B-shaped F16, 512 tokens).
template <int kRows, int kTokens, typename T, typename Load, typename X>
void floatPanels(const uint8_t* rows, size_t rowBytes, int rowCount, const X* x, int tokens, int n, float* out,
                 size_t outStride)
{
    static constexpr auto kTiles =
        floatTiles<kRows, kTokens, T, Load>(std::make_integer_sequence<int, kRows * kTokens>{});
    const size_t xStride = size_t(n);
    const int panel = simd::tokenPanel(256 << 10, sizeof(float) * xStride);
    thread_local std::vector<float> wide;
    for (int t0 = 0; t0 < tokens; t0 += panel) {
        const int t1 = std::min(tokens, t0 + panel);
        const float* xp = nullptr;
        if constexpr (std::is_same_v<X, uint16_t>) {
            wide.resize(size_t(t1 - t0) * xStride);
            const LoadF16 widen;
            for (size_t i = 0; i < wide.size(); i += 8)
                _mm256_storeu_ps(wide.data() + i, widen(x + xStride * size_t(t0) + i));
            xp = wide.data();
        } else {
            xp = x + xStride * size_t(t0);
        }
        for (int r = 0; r < rowCount; r += kRows) {
            const int rn = std::min(kRows, rowCount - r);
            for (int t = t0; t < t1; t += kTokens) {
                const int tn = std::min(kTokens, t1 - t);
                kTiles[size_t((rn - 1) * kTokens + tn - 1)](rows + rowBytes * size_t(r), rowBytes,
                                                            xp + xStride * size_t(t - t0), xStride, n,
                                                            out + outStride * size_t(t) + size_t(r), outStride);
            }
        }
    }
}

} // namespace

} // namespace ws::kernels
