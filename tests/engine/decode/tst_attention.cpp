// blocks::attention with sliding windows (TransformerConfig::layerWindow): a query never reads a key or a
// value outside its window, and what it computes inside the window is softmax(q.k / sqrt(headDim)) . v,
// computed here in double. F32 and F16 caches, one token and a batch. Attention sinks and YaRN RoPE tables
// against hand computations.
#include "engine/decode/blocks.h"
#include "engine/decode/kernels.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace ws;

Q_DECLARE_METATYPE(ws::KvCacheType)
Q_DECLARE_METATYPE(std::vector<double>)

namespace {

constexpr int kHeadDim = 8, kPositions = 10, kWindow = 3;

// 2 query heads sharing 1 KV head; layer 0 slides (window 3), layer 1 is global.
TransformerConfig config()
{
    TransformerConfig c{.dim = 16,
                        .hiddenDim = 16,
                        .layerCount = 2,
                        .headCount = 2,
                        .kvHeadCount = 1,
                        .headDim = kHeadDim,
                        .vocabSize = 4,
                        .contextLength = 16};
    c.ropeDims = kHeadDim;
    c.layerWindow = {kWindow, 0};
    return c;
}

struct Cache
{
    std::vector<std::vector<float>> keys, values; // (position, headDim)
};

// Random keys and values for positions [0, kPositions); `poisonBelow`: positions below it hold NaN.
Cache makeCache(int poisonBelow, std::mt19937& rng)
{
    std::normal_distribution<float> normal(0.0f, 1.0f);
    Cache c;
    for (int p = 0; p < kPositions; ++p) {
        std::vector<float> k(kHeadDim), v(kHeadDim);
        for (int d = 0; d < kHeadDim; ++d) {
            k[size_t(d)] = p < poisonBelow ? std::numeric_limits<float>::quiet_NaN() : normal(rng);
            v[size_t(d)] = p < poisonBelow ? std::numeric_limits<float>::quiet_NaN() : normal(rng);
        }
        c.keys.push_back(k);
        c.values.push_back(v);
    }
    return c;
}

// Writes the cache into both layers through storeKv (which rounds to F16 for an F16 cache).
void store(const TransformerConfig& c, RunState& s, const Cache& cache)
{
    for (int layer = 0; layer < c.layerCount; ++layer)
        for (int p = 0; p < kPositions; ++p) {
            std::copy(cache.keys[size_t(p)].begin(), cache.keys[size_t(p)].end(), s.k.begin());
            std::copy(cache.values[size_t(p)].begin(), cache.values[size_t(p)].end(), s.v.begin());
            blocks::storeKv(c, s, layer, 1, p);
        }
}

float stored(KvCacheType type, float x)
{
    return type == KvCacheType::F16 ? f16ToF32(f32ToF16(x)) : x;
}

// softmax over positions [first, last] of q.k / sqrt(headDim), times v, in double (q and the cache as the
// kernel sees them: an F16 cache rounds both).
std::vector<double> expected(const Cache& cache, const float* q, int first, int last, KvCacheType type)
{
    std::vector<double> scores;
    double maxScore = -1e300;
    for (int p = first; p <= last; ++p) {
        double d = 0;
        for (int i = 0; i < kHeadDim; ++i)
            d += double(stored(type, q[i])) * stored(type, cache.keys[size_t(p)][size_t(i)]);
        scores.push_back(d / std::sqrt(double(kHeadDim)));
        maxScore = std::max(maxScore, scores.back());
    }
    double sum = 0;
    for (double& e : scores)
        sum += (e = std::exp(e - maxScore));
    std::vector<double> out(kHeadDim, 0.0);
    for (int p = first; p <= last; ++p)
        for (int i = 0; i < kHeadDim; ++i)
            out[size_t(i)] += scores[size_t(p - first)] / sum * stored(type, cache.values[size_t(p)][size_t(i)]);
    return out;
}

} // namespace

class TestAttention : public QObject
{
    Q_OBJECT
private slots:
    void windowedQueriesReadOnlyTheirWindow_data()
    {
        QTest::addColumn<KvCacheType>("type");
        QTest::newRow("f32 cache") << KvCacheType::F32;
        QTest::newRow("f16 cache") << KvCacheType::F16;
    }
    // One query at the last position; every position before its window is NaN. The sliding layer's output
    // is finite and the softmax of the window; the global layer reads the NaNs (so the test would see a read).
    void windowedQueriesReadOnlyTheirWindow()
    {
        QFETCH(KvCacheType, type);
        const TransformerConfig c = config();
        RunState s(c, 16, 4, 1, type);
        std::mt19937 rng(3);
        const int last = kPositions - 1, first = last - kWindow + 1;
        const Cache cache = makeCache(first, rng);
        store(c, s, cache);
        std::normal_distribution<float> normal(0.0f, 1.0f);
        for (float& x : s.q)
            x = normal(rng);
        ThreadPool pool(1);
        const double tolerance = type == KvCacheType::F16 ? 2e-3 : 1e-5;
        for (int layer = 0; layer < 2; ++layer) {
            blocks::attention(c, s, pool, layer, 1, last);
            for (int h = 0; h < c.headCount; ++h) {
                const float* out = s.xb.data() + size_t(h) * kHeadDim;
                if (layer == 1) {
                    QVERIFY(std::isnan(out[0]));
                    continue;
                }
                const auto want = expected(cache, s.q.data() + size_t(h) * kHeadDim, first, last, type);
                for (int i = 0; i < kHeadDim; ++i)
                    QVERIFY2(
                        std::fabs(out[i] - want[size_t(i)]) <= tolerance,
                        qPrintable(
                            QStringLiteral("head %1 dim %2: %3 vs %4").arg(h).arg(i).arg(out[i]).arg(want[size_t(i)])));
            }
        }
    }

    // A batch of 4 queries at positions 6..9: each attends to its own last 3 positions in the sliding layer
    // and to every position up to itself in the global one.
    void batchWindowsFollowEachPosition()
    {
        const TransformerConfig c = config();
        RunState s(c, 16, 4, 1, KvCacheType::F32);
        std::mt19937 rng(5);
        const Cache cache = makeCache(0, rng);
        store(c, s, cache);
        std::normal_distribution<float> normal(0.0f, 1.0f);
        for (float& x : s.q)
            x = normal(rng);
        ThreadPool pool(1);
        const int start = 6, tokens = 4;
        for (int layer = 0; layer < 2; ++layer) {
            blocks::attention(c, s, pool, layer, tokens, start);
            for (int t = 0; t < tokens; ++t)
                for (int h = 0; h < c.headCount; ++h) {
                    const size_t at = (size_t(t) * c.headCount + size_t(h)) * kHeadDim;
                    const int pos = start + t, first = layer == 0 ? pos - kWindow + 1 : 0;
                    const auto want = expected(cache, s.q.data() + at, first, pos, KvCacheType::F32);
                    for (int i = 0; i < kHeadDim; ++i)
                        QVERIFY2(std::fabs(s.xb[at + size_t(i)] - want[size_t(i)]) <= 1e-5,
                                 qPrintable(QStringLiteral("layer %1 token %2 head %3").arg(layer).arg(t).arg(h)));
                }
        }
    }

    // Attention sinks (gpt-oss, ggml_soft_max_add_sinks) against a hand computation: q = (sqrt 8, 0, ...) so the
    // scores of positions 0 and 1 are their keys' first components, 1 and 2; the values are all 1 and all 3.
    // softmax with a sink s: e^(score - m) / (e^(1 - m) + e^(2 - m) + e^(s - m)), m = max(2, s); the sink has no value.
    // - no sink:  (e^-1 + 3) / (1 + e^-1) = 2.4621172
    // - sink 2:   (e^-1 + 3) / (2 + e^-1) = 1.4223188
    // - sink 5:   (e^-4 + 3 e^-3) / (e^-4 + e^-3 + 1) = 0.1569857
    // - sink 0.5: (e^-1 + 3) / (e^-1 + 1 + e^-1.5) = 2.1168190
    void sinksJoinTheSoftmaxDenominator_data()
    {
        QTest::addColumn<std::vector<float>>("sinks");
        QTest::addColumn<std::vector<double>>("want");
        QTest::newRow("no sinks") << std::vector<float>{} << std::vector<double>{2.4621172, 2.4621172};
        QTest::newRow("sinks 2 and 5") << std::vector<float>{2.0f, 5.0f} << std::vector<double>{1.4223188, 0.1569857};
        QTest::newRow("sinks 0.5 and 2") << std::vector<float>{0.5f, 2.0f} << std::vector<double>{2.1168190, 1.4223188};
    }
    void sinksJoinTheSoftmaxDenominator()
    {
        QFETCH(std::vector<float>, sinks);
        QFETCH(std::vector<double>, want);
        const TransformerConfig c = config();
        RunState s(c, 16, 4, 1, KvCacheType::F32);
        Cache cache;
        for (int p = 0; p < 2; ++p) {
            std::vector<float> k(kHeadDim, 0.0f), v(kHeadDim, p == 0 ? 1.0f : 3.0f);
            k[0] = p == 0 ? 1.0f : 2.0f;
            cache.keys.push_back(k);
            cache.values.push_back(v);
        }
        for (int layer = 0; layer < c.layerCount; ++layer)
            for (int p = 0; p < 2; ++p) {
                std::copy(cache.keys[size_t(p)].begin(), cache.keys[size_t(p)].end(), s.k.begin());
                std::copy(cache.values[size_t(p)].begin(), cache.values[size_t(p)].end(), s.v.begin());
                blocks::storeKv(c, s, layer, 1, p);
            }
        std::fill(s.q.begin(), s.q.end(), 0.0f);
        s.q[0] = s.q[kHeadDim] = std::sqrt(float(kHeadDim));
        ThreadPool pool(1);
        blocks::attention(c, s, pool, 1, 1, 1, sinks.empty() ? nullptr : sinks.data());
        for (int h = 0; h < c.headCount; ++h)
            for (int i = 0; i < kHeadDim; ++i)
                QVERIFY2(std::fabs(s.xb[size_t(h * kHeadDim + i)] - want[size_t(h)]) < 1e-6,
                         qPrintable(QStringLiteral("head %1: %2").arg(h).arg(double(s.xb[size_t(h * kHeadDim + i)]))));
    }

    // The batched form (the query heads that share a KV head taken together) against one head at a time: the same
    // bits for every output, for F32 and F16 caches, groups of one to four query heads per KV head (pairs and a
    // single), sliding windows whose earlier positions hold NaN, sinks, a batch continuing a cache, and two threads.
    void batchedHeadsEqualHeadByHead_data()
    {
        QTest::addColumn<KvCacheType>("type");
        QTest::addColumn<int>("group");
        QTest::addColumn<int>("window");
        QTest::addColumn<bool>("sinks");
        QTest::addColumn<int>("tokens");
        QTest::addColumn<int>("threads");
        for (KvCacheType type : {KvCacheType::F32, KvCacheType::F16}) {
            const char* name = type == KvCacheType::F16 ? "f16" : "f32";
            for (int group : {1, 2, 3, 4})
                QTest::newRow(qPrintable(QStringLiteral("%1 group %2").arg(name).arg(group)))
                    << type << group << 0 << false << 13 << 1;
            QTest::newRow(qPrintable(QStringLiteral("%1 window 5").arg(name))) << type << 2 << 5 << false << 13 << 1;
            QTest::newRow(qPrintable(QStringLiteral("%1 sinks").arg(name))) << type << 2 << 0 << true << 13 << 1;
            QTest::newRow(qPrintable(QStringLiteral("%1 two threads").arg(name))) << type << 2 << 7 << true << 29 << 2;
        }
    }
    void batchedHeadsEqualHeadByHead()
    {
        QFETCH(KvCacheType, type);
        QFETCH(int, group);
        QFETCH(int, window);
        QFETCH(bool, sinks);
        QFETCH(int, tokens);
        QFETCH(int, threads);
        constexpr int kv = 2, hd = 64, start = 19;
        TransformerConfig c{.dim = 64,
                            .hiddenDim = 64,
                            .layerCount = 1,
                            .headCount = kv * group,
                            .kvHeadCount = kv,
                            .headDim = hd,
                            .vocabSize = 4,
                            .contextLength = 64};
        c.ropeDims = hd;
        c.layerWindow = {window};
        RunState s(c, 64, 32, threads, type);
        std::mt19937 rng(uint32_t(group * 100 + window + tokens));
        std::normal_distribution<float> normal(0.0f, 1.0f);
        const int firstRead = window > 0 ? start + 1 - window : 0; // the first position any query reads
        for (int p = 0; p < start + tokens; ++p) {
            for (size_t i = 0; i < size_t(kv * hd); ++i) {
                s.k[i] = p < firstRead ? std::numeric_limits<float>::quiet_NaN() : normal(rng);
                s.v[i] = p < firstRead ? std::numeric_limits<float>::quiet_NaN() : normal(rng);
            }
            blocks::storeKv(c, s, 0, 1, p);
        }
        for (float& x : s.q)
            x = normal(rng);
        std::vector<float> sinkLogits(size_t(c.headCount));
        for (float& x : sinkLogits)
            x = normal(rng);
        const float* sinkData = sinks ? sinkLogits.data() : nullptr;
        ThreadPool pool(threads);
        const size_t outputs = size_t(tokens) * size_t(c.qDim());
        blocks::attention(c, s, pool, 0, tokens, start, sinkData, true);
        const std::vector<float> reference(s.xb.begin(), s.xb.begin() + std::ptrdiff_t(outputs));
        std::fill(s.xb.begin(), s.xb.end(), 0.0f);
        blocks::attention(c, s, pool, 0, tokens, start, sinkData);
        for (size_t i = 0; i < outputs; ++i) {
            QVERIFY(std::isfinite(reference[i]));
            QVERIFY2(std::memcmp(&reference[i], &s.xb[i], sizeof(float)) == 0,
                     qPrintable(QStringLiteral("output %1: %2 vs %3").arg(i).arg(s.xb[i]).arg(reference[i])));
        }
    }

    // YaRN RoPE tables (ggml_rope_ext's rope_yarn) against a hand computation: 8 rotated dims, base 10000, factor
    // 32 over 4096 positions, beta_fast 32, beta_slow 1. Correction dims: 8 ln(4096 / (beta 2 pi)) / (2 ln 10000)
    // = 1.309 (floor 1) and 2.814 (ceil 3), so pairs 0 and 1 extrapolate (angle p 10000^(-i/4)), pair 2 blends half
    // and half, pair 3 interpolates (angle / 32); magnitude 1 + 0.1 ln 32 = 1.3465736. Position 100: angles 100,
    // 10, 0.515625, 0.003125.
    void yarnTablesBlendInterpolationAndExtrapolation()
    {
        TransformerConfig c = config();
        c.ropeDims = 8;
        c.ropeFreqScale = 1.0f / 32.0f;
        c.ropeExtFactor = 1.0f;
        c.ropeAttnFactor = TransformerConfig::yarnAttnFactor(32.0f);
        c.ropeOriginalContext = 4096;
        float cosT[4], sinT[4];
        blocks::ropeTables(c, nullptr, 1, 100, cosT, sinT);
        const double wantCos[4] = {1.1611758, -1.1298716, 1.1714984, 1.3465670};
        const double wantSin[4] = {-0.6818586, -0.7325645, 0.6639667, 0.0042080};
        for (int i = 0; i < 4; ++i)
            QVERIFY2(std::fabs(cosT[i] - wantCos[i]) < 1e-4 && std::fabs(sinT[i] - wantSin[i]) < 1e-4,
                     qPrintable(QStringLiteral("pair %1: %2, %3").arg(i).arg(double(cosT[i])).arg(double(sinT[i]))));
    }
};

QTEST_GUILESS_MAIN(TestAttention)
#include "tst_attention.moc"
