#pragma once
// Q8_0's tile of prompt processing (weight rows by tokens, from registers) and its walk over panels of tokens
// (simd::tokenPanel), in a header compiled once per instruction set with blocktiles.h (WS_KQUANT_VNNI,
// kquantlanes.h): the same integers in the same lanes as dotQ8_0, scaled and summed in its order.
#include "engine/decode/kquantlanes.h"

#include <algorithm>
#include <vector>

namespace ws::kernels {

namespace {

// One Q8_0 weight block made ready for dotQ8_0's integer lanes (dotI8Lanes) against activation blocks. AVX2 keeps
// the weights' magnitudes: maddubs multiplies them by the activation given the weights' signs, byte pairs summed
// in 16 bits, then in 32. VNNI keeps the weights and -128 times their 4-byte sums: vpdpbusd multiplies the
// activation made unsigned (x ^ 0x80 = x + 128) by the signed weights, and the sums take the 128s out, exactly.
struct Q8Weights
{
    __m256i w;
    __m256i aux;
};

inline Q8Weights q8Weights(__m256i w)
{
#if WS_KQUANT_VNNI
    const __m256i zero = _mm256_setzero_si256();
    return {w, _mm256_sub_epi32(zero, _mm256_dpbusd_epi32(zero, _mm256_set1_epi8(static_cast<char>(0x80)), w))};
#else
    return {w, _mm256_sign_epi8(w, w)};
#endif
}

inline __m256i q8Activation(__m256i x)
{
#if WS_KQUANT_VNNI
    return _mm256_xor_si256(x, _mm256_set1_epi8(static_cast<char>(0x80)));
#else
    return x;
#endif
}

inline __m256i q8Lanes(const Q8Weights& q, __m256i activation)
{
#if WS_KQUANT_VNNI
    return _mm256_dpbusd_epi32(q.aux, activation, q.w);
#else
    return _mm256_madd_epi16(_mm256_set1_epi16(1), _mm256_maddubs_epi16(q.aux, _mm256_sign_epi8(activation, q.w)));
#endif
}

// kRows rows by kTokens tokens of Q8_0, over all blocks: per block and pair, dotQ8_0's lanes and
// acc = fma(d_w * d_x, float(lanes), acc); hsum8 at the end. A weight block is prepared and scaled once for the
// tile's tokens, an activation's load and scale once for its rows.
template <int kRows, int kTokens>
void q8_0Tile(const uint8_t* rows, size_t rowBytes, const uint8_t* x, size_t xStride, int blocks, float* out,
              size_t outStride)
{
    __m256 acc[kRows][kTokens]{}; // zeros
    for (int b = 0; b < blocks; ++b) {
        Q8Weights w[kRows];
        __m256 wd[kRows];
        for (int r = 0; r < kRows; ++r) {
            const auto* blk = reinterpret_cast<const BlockQ8_0*>(rows + rowBytes * size_t(r)) + b;
            w[r] = q8Weights(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(blk->qs)));
            wd[r] = _mm256_set1_ps(simd::f16(blk->d));
        }
        for (int t = 0; t < kTokens; ++t) {
            const auto* xb = reinterpret_cast<const BlockQ8_0*>(x + xStride * size_t(t)) + b;
            const __m256i xa = q8Activation(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(xb->qs)));
            const __m256 xd = _mm256_set1_ps(simd::f16(xb->d));
            for (int r = 0; r < kRows; ++r)
                acc[r][t] = _mm256_fmadd_ps(_mm256_mul_ps(wd[r], xd), _mm256_cvtepi32_ps(q8Lanes(w[r], xa)), acc[r][t]);
        }
    }
    for (int t = 0; t < kTokens; ++t)
        for (int r = 0; r < kRows; ++r)
            out[outStride * size_t(t) + size_t(r)] = simd::hsum8(acc[r][t]);
}

// A Q8_0 block product over panels of tokens (tokenPanel, 256 KiB) by tiles of kTileRows rows: rowTiles[n - 1]
// multiplies n rows by the panel's tokens.
using Q8RowTile = void (*)(const uint8_t* rows, size_t rowBytes, const uint8_t* x, size_t xStride, int tokens,
                           int blocks, float* out, size_t outStride);
template <int kTileRows>
void q8_0Panels(const Q8RowTile (&rowTiles)[kTileRows], const uint8_t* rows, size_t rowBytes, int rowCount,
                const uint8_t* x, size_t xStride, int tokens, int blocks, float* out, size_t outStride)
{
    const int panel = simd::tokenPanel(256 << 10, xStride);
    for (int t0 = 0; t0 < tokens; t0 += panel) {
        const int tn = std::min(tokens, t0 + panel) - t0;
        for (int r = 0; r < rowCount; r += kTileRows)
            rowTiles[std::min(kTileRows, rowCount - r) - 1](rows + rowBytes * size_t(r), rowBytes,
                                                            x + xStride * size_t(t0), xStride, tn, blocks,
                                                            out + outStride * size_t(t0) + size_t(r), outStride);
    }
}

// A tile that takes its scales as floats: rowScales [block][4] for its rows, tokenScales [block][stride] from its
// first token.
using Q8ScaledTile = void (*)(const uint8_t* rows, size_t rowBytes, const float* rowScales, const uint8_t* x,
                              size_t xStride, const float* tokenScales, size_t tokenScaleStride, int blocks, float* out,
                              size_t outStride);

// q8_0Panels' walk for a scaled tile of kRows rows by kTokens tokens: the scales as floats, the panel's tokens' once
// and each row tile's once, rather than converted within every tile. The tokens of a panel beyond its whole tiles go
// to rowTiles[kRows - 1], the rows beyond the whole row tiles to rowTiles[n - 1].
template <int kRows, int kTokens, int kTileRows>
void q8_0ScaledPanels(Q8ScaledTile tile, const Q8RowTile (&rowTiles)[kTileRows], const uint8_t* rows, size_t rowBytes,
                      int rowCount, const uint8_t* x, size_t xStride, int tokens, int blocks, float* out,
                      size_t outStride)
{
    static_assert(kRows <= 4 && kRows <= kTileRows);
    thread_local std::vector<float> tokenScales, rowScales;
    rowScales.assign(size_t(blocks) * 4, 0.0f);
    const int panel = simd::tokenPanel(256 << 10, xStride);
    for (int t0 = 0; t0 < tokens; t0 += panel) {
        const int tn = std::min(tokens, t0 + panel) - t0;
        const int whole = tn / kTokens * kTokens;
        const uint8_t* xp = x + xStride * size_t(t0);
        tokenScales.resize(size_t(blocks) * size_t(whole));
        for (int t = 0; t < whole; ++t) {
            const auto* xb = reinterpret_cast<const BlockQ8_0*>(xp + xStride * size_t(t));
            for (int b = 0; b < blocks; ++b)
                tokenScales[size_t(b) * size_t(whole) + size_t(t)] = simd::f16(xb[b].d);
        }
        int r = 0;
        for (; r + kRows <= rowCount; r += kRows) {
            const uint8_t* rp = rows + rowBytes * size_t(r);
            for (int b = 0; b < blocks; ++b)
                for (int i = 0; i < kRows; ++i)
                    rowScales[size_t(b) * 4 + size_t(i)] =
                        simd::f16(reinterpret_cast<const BlockQ8_0*>(rp + rowBytes * size_t(i))[b].d);
            float* o = out + outStride * size_t(t0) + size_t(r);
            for (int t = 0; t < whole; t += kTokens)
                tile(rp, rowBytes, rowScales.data(), xp + xStride * size_t(t), xStride, tokenScales.data() + t,
                     size_t(whole), blocks, o + outStride * size_t(t), outStride);
            if (whole < tn)
                rowTiles[kRows - 1](rp, rowBytes, xp + xStride * size_t(whole), xStride, tn - whole, blocks,
                                    o + outStride * size_t(whole), outStride);
        }
        if (r < rowCount)
            rowTiles[rowCount - r - 1](rows + rowBytes * size_t(r), rowBytes, xp, xStride, tn, blocks,
                                       out + outStride * size_t(t0) + size_t(r), outStride);
    }
}

} // namespace

} // namespace ws::kernels
