// Causal softmax attention over the KV cache (blocks.h): the reference order of llama.cpp's CPU arithmetic one query
// head at a time (attendHead), and the same bits for tiles of tokens and the query heads that share a KV head
// (attendTile), which read each key and value row once for the tile.
#include "engine/decode/blocks.h"

#include "engine/decode/attentiontiles.h"
#include "engine/decode/kernels.h"
#include "engine/decode/simd.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <type_traits>

namespace ws::blocks {

namespace {

// One query head of one token against cache positions [0, n).
// Scores: the dot product in ggml_vec_dot order.
// Softmax: scale, max, ggml's vector exp over groups of 8 (sums of each group added in double), 1/sum.
// Output of a batch of tokens: each of the 8 FMA lanes sums positions p with p % 8 == lane, then the lanes are
// reduced as hsum8. K.q goes through ggml_vec_dot_f32 in llama.cpp (the K cache view is not contiguous, so
// tinyBLAS is not used), the probability-weighted sum of V through tinyBLAS (8 lanes over positions).
// Output of a one-token batch (a decode step; tinyBLAS takes only products of at least two columns): the sum of V
// is ggml_vec_dot_f32 over the (transposed) V cache: 4 accumulators of 8 lanes, position p in accumulator
// (p % 32) / 8, lane p % 8; accumulators reduced (0 + 2) + (1 + 3), lanes ((0 + 4) + (1 + 5)) + ((2 + 6) + (3 + 7)).
// llama.cpp's n_kv is a multiple of 256, so no position falls in ggml_vec_dot_f32's scalar tail.
//
// An F16 cache (KvRows<uint16_t>): the query is rounded to F16 once and K.q is ggml_vec_dot_f16, as
// llama.cpp does with an F16 K cache; each V row is widened to F32 before the same weighted sum.
template <typename T> struct KvRows
{
    const T* keys;
    const T* values;
    float* scratch; // (2, headDim): the query as F16 (value rows are widened as they are read)
};

float keyDot(const KvRows<float>&, const float* k, const float* q, int hd, const void*)
{
    return kernels::dotF32Ggml(k, q, hd);
}
float keyDot(const KvRows<uint16_t>&, const uint16_t* k, const float*, int hd, const void* q16)
{
    return kernels::dotF16Ggml(k, static_cast<const uint16_t*>(q16), hd);
}

// Positions [first, n) are attended; the scores of [first rounded down to 8, first) are -inf, so the groups of
// 8 that ggml's softmax sums stay those of the whole row (the masked cells add exact zeros).
// A sink (gpt-oss's attn_sinks, null for none) is ggml_soft_max_add_sinks: the maximum is taken with it, and
// expf(sink - max) joins the sum (in double) before the division; it gets no value row.
template <typename T>
void attendHead(const TransformerConfig& c, const float* q, const KvRows<T>& rows, int first, int n, float scale,
                const float* sink, bool decodeStep, float* scores, float* lanes, float* out)
{
    const int hd = c.headDim;
    const size_t stride = size_t(c.kvDim());
    const void* q16 = nullptr;
    if constexpr (std::is_same_v<T, uint16_t>) {
        auto* converted = reinterpret_cast<uint16_t*>(rows.scratch);
        kernels::convertRowF16(q, converted, hd);
        q16 = converted;
    }
    float maxScore = -std::numeric_limits<float>::infinity();
    for (int p = first; p < n; ++p) {
        const T* k = rows.keys + stride * size_t(p);
        const float d = keyDot(rows, k, q, hd, q16);
        scores[p] = d * scale;
        maxScore = std::max(maxScore, scores[p]);
    }
    softmax(scores, first, n, maxScore, sink);

    // ggml_vec_dot_f32's order for a decode step with an F32 cache (an F16 cache keeps the batch order).
    const bool vecDot = decodeStep && std::is_same_v<T, float>;
    const int laneMask = vecDot ? 31 : 7;
    std::fill(lanes, lanes + size_t(laneMask + 1) * size_t(hd), 0.0f);
    for (int p = first; p < n; ++p) {
        const T* v = rows.values + stride * size_t(p);
        float* acc = lanes + size_t(p & laneMask) * hd;
        const __m256 w = _mm256_set1_ps(scores[p]);
        int d = 0;
        for (; d + 8 <= hd; d += 8)
            _mm256_storeu_ps(acc + d, _mm256_fmadd_ps(value8(v, d), w, _mm256_loadu_ps(acc + d)));
        for (; d < hd; ++d)
            acc[d] = std::fma(value1(v, d), scores[p], acc[d]);
    }
    const size_t L = size_t(hd);
    if (vecDot) {
        // Eight dimensions at a time, each with the same additions in the same order as the scalar tail.
        int d = 0;
        for (; d + 8 <= hd; d += 8) {
            const float* a = lanes + d;
            auto lane = [&](size_t l) { return _mm256_loadu_ps(a + l * L); };
            __m256 x[8];
            for (size_t l = 0; l < 8; ++l)
                x[l] = _mm256_add_ps(_mm256_add_ps(lane(l), lane(16 + l)), _mm256_add_ps(lane(8 + l), lane(24 + l)));
            _mm256_storeu_ps(out + d,
                             _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(x[0], x[4]), _mm256_add_ps(x[1], x[5])),
                                           _mm256_add_ps(_mm256_add_ps(x[2], x[6]), _mm256_add_ps(x[3], x[7]))));
        }
        for (; d < hd; ++d) {
            const float* a = lanes + d;
            float x[8];
            for (size_t l = 0; l < 8; ++l)
                x[l] = (a[l * L] + a[(16 + l) * L]) + (a[(8 + l) * L] + a[(24 + l) * L]);
            out[d] = ((x[0] + x[4]) + (x[1] + x[5])) + ((x[2] + x[6]) + (x[3] + x[7]));
        }
        return;
    }
    int d = 0;
    for (; d + 8 <= hd; d += 8) {
        const float* a = lanes + d;
        auto lane = [&](size_t l) { return _mm256_loadu_ps(a + l * L); };
        _mm256_storeu_ps(
            out + d, _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(lane(0), lane(4)), _mm256_add_ps(lane(2), lane(6))),
                                   _mm256_add_ps(_mm256_add_ps(lane(1), lane(5)), _mm256_add_ps(lane(3), lane(7)))));
    }
    for (; d < hd; ++d) {
        const float* a = lanes + d;
        out[d] = ((a[0] + a[4 * L]) + (a[2 * L] + a[6 * L])) + ((a[L] + a[5 * L]) + (a[3 * L] + a[7 * L]));
    }
}

} // namespace

void attention(const TransformerConfig& c, RunState& s, ThreadPool& pool, int layer, int n, int startPos,
               const float* sinks, bool headByHead)
{
    const int qDim = c.qDim(), hd = c.headDim;
    const float scale = c.attentionScale != 0.0f ? c.attentionScale : 1.0f / std::sqrt(static_cast<float>(hd));
    const int group = c.headCount / c.kvHeadCount;
    const bool half = s.kvType == KvCacheType::F16;
    const int window = c.window(layer);
    const size_t stride = size_t(c.kvDim());
    // A prompt in the batched form (attendTile, the same bits where hd is a multiple of 32): one task per tile of up
    // to four tokens by up to two query heads of a KV head; a decode step one per (token, head).
    const bool batched = !headByHead && hd % 32 == 0 && n > 1;
    constexpr int kTileTokens = 4;
    const int tiles = (n + kTileTokens - 1) / kTileTokens, pairs = (group + 1) / 2;
    const int tasks = batched ? tiles * c.kvHeadCount * pairs : n * c.headCount;
    auto range = [&](int t, int& first, int& last) {
        last = startPos + t + 1;
        first = window > 0 ? std::max(0, last - window) : 0;
    };
    // The prompt's value columns (valueColumnSums), transposed once for all its tiles.
    const int positions = startPos + n;
    const size_t columnStride = size_t(positions + 7) / 8 * 8;
    auto transpose = [&](const auto* cache, auto* out) {
        for (int p = 0; p < positions; ++p)
            for (size_t i = 0; i < stride; ++i)
                out[i * columnStride + size_t(p)] = cache[size_t(p) * stride + i];
    };
    if (batched) {
        const size_t bytes = (half ? sizeof(uint16_t) : sizeof(float)) * stride * columnStride;
        if (s.valueColumns.size() < bytes)
            s.valueColumns.resize(bytes);
        if (half)
            transpose(s.layerValues16(layer), reinterpret_cast<uint16_t*>(s.valueColumns.data()));
        else
            transpose(s.layerValues(layer), reinterpret_cast<float*>(s.valueColumns.data()));
    }
    // Tasks claimed one at a time from a shared counter, the last tokens' first: a token's cost grows with its
    // position, and with contiguous shares of a 512-token prompt from position 0 the first of two threads waited
    // for two thirds of the attention's time.
    std::atomic<int> claimed{0};
    auto attend = [&](int index, int) {
        float* scores = s.scores.data() + size_t(index) * kMaxTile * s.scoresStride();
        float* lanes = s.laneAcc.data() + size_t(index) * 32 * hd; // or the tile's queries (kMaxTile, hd)
        float* scratch = s.kvScratch.data() + size_t(index) * 2 * hd;
        for (int k = claimed.fetch_add(1, std::memory_order_relaxed); k < tasks;
             k = claimed.fetch_add(1, std::memory_order_relaxed)) {
            const int task = tasks - 1 - k;
            if (batched) {
                const int tile = task / (c.kvHeadCount * pairs), kvHead = task / pairs % c.kvHeadCount;
                const int head0 = kvHead * group + 2 * (task % pairs), heads = std::min(2, group - 2 * (task % pairs));
                const int t0 = tile * kTileTokens, tokens = std::min(kTileTokens, n - t0);
                TileQuery tq[kMaxTile];
                const float* tileSinks[kMaxTile];
                int count = 0;
                for (int t = t0; t < t0 + tokens; ++t)
                    for (int h = head0; h < head0 + heads; ++h, ++count) {
                        const size_t at = size_t(t) * qDim + size_t(h) * hd;
                        float* widened = lanes + size_t(count) * hd;
                        for (int i = 0; i < hd; i += 8) {
                            const __m256 x = _mm256_loadu_ps(s.q.data() + at + i);
                            _mm256_storeu_ps(widened + i, half ? _mm256_cvtph_ps(_mm256_cvtps_ph(
                                                                     x, _MM_FROUND_TO_NEAREST_INT)) // as convertRowF16
                                                               : x);
                        }
                        TileQuery& query = tq[count];
                        query.q = widened;
                        query.scores = scores + size_t(count) * s.scoresStride();
                        query.out = s.xb.data() + at;
                        range(t, query.first, query.n);
                        tileSinks[count] = sinks ? sinks + h : nullptr;
                    }
                const size_t kvOffset = size_t(kvHead) * hd;
                const size_t columnsAt = kvOffset * columnStride;
                if (half)
                    attendTileOf(count, s.layerKeys16(layer) + kvOffset,
                                 reinterpret_cast<const uint16_t*>(s.valueColumns.data()) + columnsAt, stride,
                                 columnStride, tq, hd, scale, tileSinks);
                else
                    attendTileOf(count, s.layerKeys(layer) + kvOffset,
                                 reinterpret_cast<const float*>(s.valueColumns.data()) + columnsAt, stride,
                                 columnStride, tq, hd, scale, tileSinks);
                continue;
            }
            const int t = task / c.headCount, h = task % c.headCount;
            int first, last;
            range(t, first, last);
            const size_t kvOffset = size_t(h / group) * hd;
            const float* q = s.q.data() + size_t(t) * qDim + size_t(h) * hd;
            float* out = s.xb.data() + size_t(t) * qDim + size_t(h) * hd;
            const float* sink = sinks ? sinks + h : nullptr;
            if (half)
                attendHead(
                    c, q, KvRows<uint16_t>{s.layerKeys16(layer) + kvOffset, s.layerValues16(layer) + kvOffset, scratch},
                    first, last, scale, sink, n == 1, scores, lanes, out);
            else
                attendHead(c, q, KvRows<float>{s.layerKeys(layer) + kvOffset, s.layerValues(layer) + kvOffset, scratch},
                           first, last, scale, sink, n == 1, scores, lanes, out);
        }
    };
    const int64_t attnWork = int64_t(n) * c.headCount * (startPos + n) * hd * 2;
    if (attnWork < (1 << 17) || pool.threadCount() == 1)
        attend(0, 1);
    else
        pool.runClaimed(attend);
}

} // namespace ws::blocks
