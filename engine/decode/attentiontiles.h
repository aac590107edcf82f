#pragma once
// The pieces of blocks::attention (attention.cpp) that its two forms share, the row-by-row reference (attendHead) and
// the tiles of prompt processing (attendTile): widening a cache row, the softmax; and the tiles themselves.
// Internal linkage: included by attention.cpp only, built with -ffp-contract=off as it is.
#include "engine/decode/simd.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace ws::blocks {

namespace {

// Eight values of a value row from dimension d, and one, as floats (an F16 row widened as it is read: exact).
__m256 value8(const float* v, int d)
{
    return _mm256_loadu_ps(v + d);
}
__m256 value8(const uint16_t* v, int d)
{
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(v + d)));
}
float value1(const float* v, int d)
{
    return v[d];
}
float value1(const uint16_t* v, int d)
{
    return simd::f16(v[d]);
}

// scores[first, n) (their maximum maxScore) become probabilities: ggml's vector exp of score - max over groups of 8
// (the masked cells of the groups at either end -inf, so exact zeros), each group's sum added in double, times
// 1 / sum. A sink (gpt-oss's attn_sinks, null for none) is ggml_soft_max_add_sinks: the maximum is taken with it, and
// expf(sink - max) joins the sum before the division.
void softmax(float* scores, int first, int n, float maxScore, const float* sink)
{
    const int base = first / 8 * 8;
    for (int p = base; p < first; ++p)
        scores[p] = -std::numeric_limits<float>::infinity();
    if (sink)
        maxScore = std::max(maxScore, *sink);
    const int padded = (n + 7) / 8 * 8;
    for (int p = n; p < padded; ++p)
        scores[p] = -std::numeric_limits<float>::infinity();
    double sum = 0.0;
    const __m256 maxV = _mm256_set1_ps(maxScore);
    for (int p = base; p < padded; p += 8) {
        const __m256 e = simd::exp8(_mm256_sub_ps(_mm256_loadu_ps(scores + p), maxV));
        _mm256_storeu_ps(scores + p, e);
        sum += static_cast<double>(simd::hsum8(e));
    }
    if (sink)
        sum += static_cast<double>(std::exp(*sink - maxScore));
    const float inv = static_cast<float>(1.0 / sum);
    for (int p = first; p < n; ++p)
        scores[p] *= inv;
}

// The batched form of attendHead: a tile of up to eight queries (up to four consecutive tokens by one or two query
// heads that share a KV head) of a prompt, with the same bits as attendHead gives each (hd a multiple of 32). Each key
// row is read and widened once for the tile instead of once per query, each value column once.
constexpr int kMaxTile = 8;
struct TileQuery
{
    const float* q; // hd: the query as keyDot sees it (an F16 cache's rounded to F16), as floats
    float* scores;  // scoresStride: scores, then probabilities
    float* out;     // hd
    int first, n;   // the attended positions [first, n)
};

// The horizontal part of reduce4 for eight vectors at once, in order: ((v[0] + v[4]) + (v[1] + v[5])) + ((v[2] + v[6])
// + (v[3] + v[7])) of each, as reduce4 adds its lanes (the halves, then two horizontal adds).
inline __m256 reduceEight(const __m256* v)
{
    __m256 halves[4];
    for (int q = 0; q < 4; ++q)
        halves[q] =
            _mm256_add_ps(_mm256_permute2f128_ps(v[q], v[q + 4], 0x20), _mm256_permute2f128_ps(v[q], v[q + 4], 0x31));
    return _mm256_hadd_ps(_mm256_hadd_ps(halves[0], halves[1]), _mm256_hadd_ps(halves[2], halves[3]));
}

// Scores: for each query, ggml_vec_dot's four accumulators over steps of 32 (kernels' dotSteps32) and reduce4, times
// scale. Accumulator j of every query is formed in turn, each key vector widened once for the tile.
template <int kQ, typename T>
void keyScores(const T* keys, size_t stride, const TileQuery* tq, int hd, int first, int n, float scale)
{
    for (int p = first; p < n; ++p) {
        const T* k = keys + stride * size_t(p);
        __m256 s[4][kQ];
        for (int j = 0; j < 4; ++j) {
            __m256 a[kQ];
            for (int q = 0; q < kQ; ++q)
                a[q] = _mm256_setzero_ps();
            for (int i = 8 * j; i < hd; i += 32) {
                const __m256 kv = value8(k, i);
                for (int q = 0; q < kQ; ++q)
                    a[q] = _mm256_fmadd_ps(kv, _mm256_loadu_ps(tq[q].q + i), a[q]);
            }
            for (int q = 0; q < kQ; ++q)
                s[j][q] = a[q];
        }
        __m256 sums[8];
        for (int q = 0; q < 8; ++q)
            sums[q] = q < kQ ? _mm256_add_ps(_mm256_add_ps(s[0][q], s[2][q]), _mm256_add_ps(s[1][q], s[3][q]))
                             : _mm256_setzero_ps();
        alignas(32) float dots[8];
        _mm256_store_ps(dots, _mm256_mul_ps(reduceEight(sums), _mm256_set1_ps(scale)));
        for (int q = 0; q < kQ; ++q)
            if (p >= tq[q].first && p < tq[q].n) // the others' rows may hold anything (NaN outside a window)
                tq[q].scores[p] = dots[q];
    }
}

// out = the probability-weighted sum of the value rows in attendHead's batch order (lane l of eight sums the positions
// p with p % 8 == l in order, the lanes reduced as hsum8), from a prompt's value columns (RunState::valueColumns: each
// dimension's values at positions 0, 1, ... adjacent): eight positions per vector, so lane l of dimension d's
// accumulator sums exactly those positions, and hsum8 is their reduction. A group of eight that not every query of the
// tile attends in full keeps each query's other lanes as they were (a blend, never a product with what lies there).
template <int kQ, typename T>
void valueColumnSums(const T* columns, size_t columnStride, const TileQuery* tq, int hd, int first, int n)
{
    int allFirst = first, allEnd = n;
    for (int q = 0; q < kQ; ++q) {
        allFirst = std::max(allFirst, tq[q].first);
        allEnd = std::min(allEnd, tq[q].n);
    }
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const float* probs[kQ]; // in registers, not reloaded from tq for every vector
    for (int q = 0; q < kQ; ++q)
        probs[q] = tq[q].scores;
    for (int d = 0; d < hd; ++d) {
        const T* column = columns + size_t(d) * columnStride;
        __m256 acc[kQ];
        for (int q = 0; q < kQ; ++q)
            acc[q] = _mm256_setzero_ps();
        for (int pb = first / 8 * 8; pb < n; pb += 8) {
            const __m256 v = value8(column, pb);
            if (pb >= allFirst && pb + 8 <= allEnd) {
                for (int q = 0; q < kQ; ++q)
                    acc[q] = _mm256_fmadd_ps(v, _mm256_loadu_ps(probs[q] + pb), acc[q]);
                continue;
            }
            const __m256i p = _mm256_add_epi32(_mm256_set1_epi32(pb), lane);
            for (int q = 0; q < kQ; ++q) {
                const __m256i in = _mm256_and_si256(_mm256_cmpgt_epi32(p, _mm256_set1_epi32(tq[q].first - 1)),
                                                    _mm256_cmpgt_epi32(_mm256_set1_epi32(tq[q].n), p));
                const __m256 sum = _mm256_fmadd_ps(v, _mm256_loadu_ps(tq[q].scores + pb), acc[q]);
                acc[q] = _mm256_blendv_ps(acc[q], sum, _mm256_castsi256_ps(in));
            }
        }
        for (int q = 0; q < kQ; ++q)
            tq[q].out[d] = simd::hsum8(acc[q]);
    }
}

template <int kQ, typename T>
void attendTile(const T* keys, const T* columns, size_t stride, size_t columnStride, const TileQuery* tq, int hd,
                float scale, const float* const* sinks)
{
    int first = tq[0].first, n = tq[0].n;
    for (int q = 1; q < kQ; ++q) {
        first = std::min(first, tq[q].first);
        n = std::max(n, tq[q].n);
    }
    keyScores<kQ>(keys, stride, tq, hd, first, n, scale);
    for (int q = 0; q < kQ; ++q) {
        float maxScore = -std::numeric_limits<float>::infinity();
        for (int p = tq[q].first; p < tq[q].n; ++p)
            maxScore = std::max(maxScore, tq[q].scores[p]);
        softmax(tq[q].scores, tq[q].first, tq[q].n, maxScore, sinks[q]);
    }
    valueColumnSums<kQ>(columns, columnStride, tq, hd, first, n);
}

// One tile of count (1 to kMaxTile) queries.
template <typename T>
void attendTileOf(int count, const T* keys, const T* columns, size_t stride, size_t columnStride, const TileQuery* tq,
                  int hd, float scale, const float* const* sinks)
{
    using Tile = void (*)(const T*, const T*, size_t, size_t, const TileQuery*, int, float, const float* const*);
    static constexpr Tile kTiles[kMaxTile] = {attendTile<1, T>, attendTile<2, T>, attendTile<3, T>, attendTile<4, T>,
                                              attendTile<5, T>, attendTile<6, T>, attendTile<7, T>, attendTile<8, T>};
    kTiles[count - 1](keys, columns, stride, columnStride, tq, hd, scale, sinks);
}

} // namespace

} // namespace ws::blocks
