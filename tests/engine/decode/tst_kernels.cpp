#include "engine/decode/kernels.h"
#include "engine/decode/threadpool.h"
#include "engine/gguf/syntheticmodel.h"
#include "tests/common/randomblocks.h"

#include <QTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

using namespace ws;

namespace {
std::vector<float> randomVector(int n, uint64_t seed, float stddev = 1.0f)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<float> d(0.0f, stddev);
    std::vector<float> v(static_cast<size_t>(n));
    for (float& x : v)
        x = d(rng);
    return v;
}

double dotDouble(const std::vector<float>& a, const std::vector<float>& b)
{
    double s = 0;
    for (size_t i = 0; i < a.size(); ++i)
        s += double(a[i]) * double(b[i]);
    return s;
}
// ggml's quantize_row_q8_K_ref transcribed: the first value of largest magnitude sets the scale, nearest_int rounds
// through the float mantissa (ties to even).
void quantizeQ8_KReference(const float* x, BlockQ8_K* y, int n)
{
    for (int b = 0; b < n / 256; ++b, x += 256) {
        float maxValue = 0, amax = 0;
        for (int j = 0; j < 256; ++j)
            if (std::fabs(x[j]) > amax) {
                amax = std::fabs(x[j]);
                maxValue = x[j];
            }
        std::memset(&y[b], 0, sizeof(BlockQ8_K));
        if (amax == 0)
            continue;
        const float iscale = -127.f / maxValue;
        for (int j = 0; j < 256; ++j) {
            float f = iscale * x[j] + 12582912.f;
            int i;
            std::memcpy(&i, &f, 4);
            y[b].qs[j] = int8_t(std::min((i & 0x007fffff) - 0x00400000, 127));
        }
        for (int j = 0; j < 16; ++j) {
            int sum = 0;
            for (int i = 0; i < 16; ++i)
                sum += y[b].qs[j * 16 + i];
            y[b].bsums[j] = int16_t(sum);
        }
        y[b].d = 1 / iscale;
    }
}
} // namespace

class TestKernels : public QObject
{
    Q_OBJECT
private slots:
    // ggml's AVX2 quantiser rounds half to even (the scalar reference would use roundf, half away from zero).
    void q8_0RoundsTiesToEven()
    {
        std::vector<float> x(32, 0.0f);
        x[0] = 127.0f; // amax 127: scale 1, multiplier exactly 1
        x[1] = 2.5f;
        x[2] = -3.5f;
        x[3] = 0.5f;
        x[4] = -126.5f;
        BlockQ8_0 b{};
        kernels::quantizeRowQ8_0(x.data(), &b, 32);
        QCOMPARE(f16ToF32(b.d), 1.0f);
        QCOMPARE(int(b.qs[0]), 127);
        QCOMPARE(int(b.qs[1]), 2);
        QCOMPARE(int(b.qs[2]), -4);
        QCOMPARE(int(b.qs[3]), 0);
        QCOMPARE(int(b.qs[4]), -126);
        QCOMPARE(int(b.qs[5]), 0);
    }

    // quantizeRowQ8_K (eight values at a time) equals ggml's scalar quantiser in every byte: random rows, a zero
    // block, the largest magnitude twice with both signs (the first sets the scale), halves that round to even.
    void q8_KEqualsGgmlScalar()
    {
        constexpr int n = 4 * 256;
        auto x = randomVector(n, 21);
        std::fill(x.begin() + 256, x.begin() + 512, 0.0f);
        x[520] = 4.0f; // block 2: the same magnitude twice; the first, positive, sets the scale
        x[530] = -4.0f;
        x[900] = 127.0f; // block 3: iscale -1, so the halves below are exact ties
        for (int j = 768; j < 1024; j += 7)
            x[size_t(j)] = float(j % 50) + 0.5f;
        std::vector<BlockQ8_K> got(n / 256), want(n / 256);
        std::memset(got.data(), 0x55, sizeof(BlockQ8_K) * got.size());
        kernels::quantizeRowQ8_K(x.data(), got.data(), n);
        quantizeQ8_KReference(x.data(), want.data(), n);
        for (int b = 0; b < n / 256; ++b) {
            QCOMPARE(std::memcmp(got[size_t(b)].qs, want[size_t(b)].qs, 256), 0);
            QCOMPARE(std::memcmp(got[size_t(b)].bsums, want[size_t(b)].bsums, 32), 0);
            QCOMPARE(std::memcmp(&got[size_t(b)].d, &want[size_t(b)].d, 4), 0);
        }
        QCOMPARE(int(want[2].qs[520 - 512]), -127);
    }

    void q8_0ZeroBlock()
    {
        std::vector<float> x(64, 0.0f);
        BlockQ8_0 b[2]{};
        kernels::quantizeRowQ8_0(x.data(), b, 64);
        QCOMPARE(f16ToF32(b[1].d), 0.0f);
        for (int8_t q : b[1].qs)
            QCOMPARE(int(q), 0);
    }

    void dotProductsAgreeWithDouble_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("tolerance"); // relative to sqrt(n) (the size of the dot of two N(0,1) vectors)
        QTest::newRow("F32 lanes 64") << int(GgmlType::F32) << 64 << 1e-6;
        QTest::newRow("F32 ggml 172") << int(GgmlType::F32) << 172 << 1e-6;
        QTest::newRow("F16 1024") << int(GgmlType::F16) << 1024 << 2e-3;
        QTest::newRow("F16 ggml 172") << int(GgmlType::F16) << 172 << 2e-3;
        QTest::newRow("BF16 1024") << int(GgmlType::BF16) << 1024 << 2e-2;
        QTest::newRow("Q8_0 1024") << int(GgmlType::Q8_0) << 1024 << 2e-2;
        QTest::newRow("Q4_0 1024") << int(GgmlType::Q4_0) << 1024 << 0.25;
    }
    void dotProductsAgreeWithDouble()
    {
        QFETCH(int, type);
        QFETCH(int, n);
        QFETCH(double, tolerance);
        const GgmlType t = static_cast<GgmlType>(type);
        const auto w = randomVector(n, 1), x = randomVector(n, 2);
        const auto traits = ggmlTypeTraits(uint32_t(type));
        std::vector<uint8_t> row(size_t(n) / traits->blockValues * traits->blockBytes);
        encodeRow(t, w.data(), row.data(), n);
        // The weights as stored (dequantised), so only the kernel's own error is measured.
        std::vector<float> wq(static_cast<size_t>(n));
        kernels::dequantizeRow(t, row.data(), wq.data(), n);
        const double expected = dotDouble(wq, x);
        float got = 0;
        switch (t) {
        case GgmlType::F32:
            got =
                n % 8 == 0 ? kernels::dotF32Lanes(wq.data(), x.data(), n) : kernels::dotF32Ggml(wq.data(), x.data(), n);
            break;
        case GgmlType::F16:
        case GgmlType::BF16: {
            std::vector<uint16_t> xh(static_cast<size_t>(n));
            if (t == GgmlType::F16)
                kernels::convertRowF16(x.data(), xh.data(), n);
            else
                kernels::convertRowBf16(x.data(), xh.data(), n);
            const auto* wh = reinterpret_cast<const uint16_t*>(row.data());
            got = t == GgmlType::BF16 ? kernels::dotBf16(wh, xh.data(), n)
                  : n % 8 == 0        ? kernels::dotF16Lanes(wh, xh.data(), n)
                                      : kernels::dotF16Ggml(wh, xh.data(), n);
            break;
        }
        default: {
            std::vector<BlockQ8_0> xq(static_cast<size_t>(n) / 32);
            kernels::quantizeRowQ8_0(x.data(), xq.data(), n);
            got = t == GgmlType::Q8_0
                      ? kernels::dotQ8_0(reinterpret_cast<const BlockQ8_0*>(row.data()), xq.data(), n / 32)
                      : kernels::dotQ4_0(reinterpret_cast<const BlockQ4_0*>(row.data()), xq.data(), n / 32);
        }
        }
        QVERIFY2(std::fabs(got - expected) <= tolerance * std::sqrt(double(n)),
                 qPrintable(QStringLiteral("got %1, expected %2").arg(got).arg(expected)));
    }

    // K-quant dot products equal the dequantised weights times the Q8_K activation (exact integer sums).
    void kQuantDotsMatchDequantised_data()
    {
        QTest::addColumn<int>("type");
        QTest::newRow("Q4_K") << int(GgmlType::Q4_K);
        QTest::newRow("Q6_K") << int(GgmlType::Q6_K);
    }
    void kQuantDotsMatchDequantised()
    {
        QFETCH(int, type);
        const GgmlType t = static_cast<GgmlType>(type);
        const int n = 512;
        const auto traits = ggmlTypeTraits(uint32_t(type));
        std::vector<uint8_t> row(size_t(n) / traits->blockValues * traits->blockBytes);
        std::mt19937_64 rng(7);
        for (auto& b : row)
            b = uint8_t(rng());
        const size_t blockBytes = traits->blockBytes;
        for (size_t b = 0; b < row.size() / blockBytes; ++b) { // sane F16 scales
            const uint16_t d = f32ToF16(0.01f), dmin = f32ToF16(0.005f);
            if (t == GgmlType::Q4_K) {
                std::memcpy(&row[b * blockBytes], &d, 2);
                std::memcpy(&row[b * blockBytes + 2], &dmin, 2);
            } else {
                std::memcpy(&row[b * blockBytes + 208], &d, 2);
            }
        }
        std::vector<float> w(static_cast<size_t>(n));
        kernels::dequantizeRow(t, row.data(), w.data(), n);
        const auto x = randomVector(n, 3);
        std::vector<BlockQ8_K> xq(static_cast<size_t>(n) / 256);
        kernels::quantizeRowQ8_K(x.data(), xq.data(), n);
        std::vector<float> xd(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i)
            xd[size_t(i)] = xq[size_t(i) / 256].d * float(xq[size_t(i) / 256].qs[i % 256]);
        const double expected = dotDouble(w, xd);
        const float got = t == GgmlType::Q4_K
                              ? kernels::dotQ4_K(reinterpret_cast<const BlockQ4_K*>(row.data()), xq.data(), n / 256)
                              : kernels::dotQ6_K(reinterpret_cast<const BlockQ6_K*>(row.data()), xq.data(), n / 256);
        QVERIFY2(std::fabs(got - expected) <= 1e-4 * (std::fabs(expected) + 1.0),
                 qPrintable(QStringLiteral("got %1, expected %2").arg(got).arg(expected)));
        // And the Q8_K activation is a faithful quantisation of x.
        for (int i = 0; i < n; ++i)
            QVERIFY(std::fabs(xd[size_t(i)] - x[size_t(i)]) <= std::fabs(xq[size_t(i) / 256].d) * 0.5f + 1e-6f);
    }

    // The eight-row Q4_K kernel is a faster way to the same sums: each of its outputs equals the one-row
    // interleaved dot product bit for bit, for rows of 1 to 12 super-blocks and random scales.
    void q4KEightRowsEqualsOneRow()
    {
        std::mt19937_64 rng(11);
        for (int blocks : {1, 2, 4, 12}) {
            const int n = blocks * 256;
            const std::vector<BlockQ4_K> w = wstest::randomQ4_KBlocks(size_t(8) * size_t(blocks), rng);
            const auto x = randomVector(n, uint64_t(blocks) + 5);
            std::vector<BlockQ8_K> xq(static_cast<size_t>(blocks));
            kernels::quantizeRowQ8_K(x.data(), xq.data(), n);
            float got[8];
            kernels::isa().q4_KInterleaved8(reinterpret_cast<const uint8_t*>(w.data()),
                                            size_t(blocks) * sizeof(BlockQ4_K), xq.data(), blocks, got);
            float avx2[8]; // the AVX2 build too, where isa() is the AVX-512 one
            kernels::avx2::kKernels.q4_KInterleaved8(reinterpret_cast<const uint8_t*>(w.data()),
                                                     size_t(blocks) * sizeof(BlockQ4_K), xq.data(), blocks, avx2);
            QVERIFY(std::memcmp(avx2, got, sizeof(got)) == 0);
            for (int r = 0; r < 8; ++r) {
                const float one = kernels::dotQ4_K(&w[size_t(r) * size_t(blocks)], xq.data(), blocks, true);
                QVERIFY2(
                    std::memcmp(&one, &got[r], sizeof(float)) == 0,
                    qPrintable(QStringLiteral("%1 blocks, row %2: %3 vs %4").arg(blocks).arg(r).arg(got[r]).arg(one)));
                QVERIFY(one != 0.0f);
            }
        }
    }

    // The rows kernels (the activation's share of the sums prepared once for all rows) equal the one-row dot
    // products bit for bit, for 1 to 12 super-blocks, 1 to 19 rows, random quants and scales of both signs.
    void rowsKernelsEqualOneRow_data()
    {
        QTest::addColumn<int>("type");
        QTest::newRow("Q8_0") << int(GgmlType::Q8_0);
        QTest::newRow("Q5_K") << int(GgmlType::Q5_K);
        QTest::newRow("Q6_K") << int(GgmlType::Q6_K);
    }
    void rowsKernelsEqualOneRow()
    {
        QFETCH(int, type);
        const GgmlType t = static_cast<GgmlType>(type);
        const auto traits = ggmlTypeTraits(uint32_t(type));
        std::mt19937_64 rng(13);
        std::uniform_real_distribution<float> scale(0.0005f, 0.02f);
        for (int blocks256 : {1, 3, 12}) {
            for (int rows : {1, 8, 19}) {
                const int n = blocks256 * 256;
                const int blocks = n / int(traits->blockValues);
                const size_t rowBytes = size_t(blocks) * traits->blockBytes;
                std::vector<uint8_t> w(rowBytes * size_t(rows));
                for (auto& byte : w)
                    byte = uint8_t(rng());
                for (size_t b = 0; b < w.size() / traits->blockBytes; ++b) { // sane F16 scales (d, and dmin for Q5_K)
                    uint8_t* block = &w[b * traits->blockBytes];
                    const uint16_t d = f32ToF16(scale(rng)), dmin = f32ToF16(scale(rng));
                    std::memcpy(block + (t == GgmlType::Q6_K ? 208 : 0), &d, 2);
                    if (t == GgmlType::Q5_K)
                        std::memcpy(block + 2, &dmin, 2);
                }
                const auto x = randomVector(n, uint64_t(blocks * rows) + 3);
                std::vector<BlockQ8_0> x0(size_t(n) / 32);
                std::vector<BlockQ8_K> xk(size_t(n) / 256);
                kernels::quantizeRowQ8_0(x.data(), x0.data(), n);
                kernels::quantizeRowQ8_K(x.data(), xk.data(), n);
                std::vector<float> got(size_t(rows), 0.0f);
                if (t == GgmlType::Q8_0)
                    kernels::dotQ8_0Rows(w.data(), rowBytes, rows, x0.data(), blocks, got.data());
                else if (t == GgmlType::Q5_K)
                    kernels::isa().q5_KRows(w.data(), rowBytes, rows, xk.data(), blocks, got.data());
                else
                    kernels::isa().q6_KRows(w.data(), rowBytes, rows, xk.data(), blocks, got.data());
                for (int r = 0; r < rows; ++r) {
                    const uint8_t* row = w.data() + rowBytes * size_t(r);
                    const float one =
                        t == GgmlType::Q8_0
                            ? kernels::dotQ8_0(reinterpret_cast<const BlockQ8_0*>(row), x0.data(), blocks)
                        : t == GgmlType::Q5_K
                            ? kernels::dotQ5_K(reinterpret_cast<const BlockQ5_K*>(row), xk.data(), blocks)
                            : kernels::dotQ6_K(reinterpret_cast<const BlockQ6_K*>(row), xk.data(), blocks);
                    QVERIFY2(std::memcmp(&one, &got[size_t(r)], sizeof(float)) == 0,
                             qPrintable(QStringLiteral("%1 values, row %2 of %3: %4 vs %5")
                                            .arg(n)
                                            .arg(r)
                                            .arg(rows)
                                            .arg(got[size_t(r)])
                                            .arg(one)));
                    QVERIFY(one != 0.0f);
                }
                if (t != GgmlType::Q8_0) { // the AVX2 build too, where the rows kernel took the AVX-512 one
                    std::vector<float> avx2(size_t(rows), 0.0f);
                    (t == GgmlType::Q5_K ? kernels::avx2::kKernels.q5_KRows : kernels::avx2::kKernels.q6_KRows)(
                        w.data(), rowBytes, rows, xk.data(), blocks, avx2.data());
                    QVERIFY(std::memcmp(avx2.data(), got.data(), sizeof(float) * size_t(rows)) == 0);
                }
            }
        }
        if (t != GgmlType::Q8_0)
            qInfo("%s rows kernel compared: %s", t == GgmlType::Q5_K ? "Q5_K" : "Q6_K",
                  kernels::avx512::available() ? "AVX-512 VNNI and AVX2" : "AVX2");
    }

    // The pool: run() calls the job once on every thread; runClaimed() completes work claimed from a shared
    // counter, whichever of the threads take part, over many dispatches in a row (as a token's matmuls).
    void threadPoolRunsEveryThreadAndCompletesClaimedWork()
    {
        ThreadPool pool(3);
        for (int round = 0; round < 300; ++round) {
            std::atomic<int> calls[3] = {0, 0, 0};
            std::atomic<bool> countsRight{true};
            pool.run([&](int index, int count) {
                if (count != 3)
                    countsRight = false;
                calls[index].fetch_add(1);
            });
            QVERIFY(countsRight);
            for (auto& c : calls)
                QCOMPARE(c.load(), 1);
            constexpr int kItems = 97;
            std::atomic<int> next{0};
            std::vector<int> done(kItems, 0);
            pool.runClaimed([&](int, int) {
                for (int i = next.fetch_add(1); i < kItems; i = next.fetch_add(1))
                    done[size_t(i)] += 1;
            });
            QVERIFY(std::all_of(done.begin(), done.end(), [](int d) { return d == 1; }));
        }
    }

    // forRanges: every index of [0, n) in exactly one call, each call a range of at most `grain`; n <= grain (or one
    // thread) in one call on the caller; n = 0 in none.
    void threadPoolForRangesCoversEachIndexOnce_data()
    {
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("grain");
        QTest::newRow("empty") << 2 << 0 << 16;
        QTest::newRow("one range") << 2 << 16 << 16;
        QTest::newRow("a tail") << 2 << 513 << 16;
        QTest::newRow("grain 1") << 3 << 97 << 1;
        QTest::newRow("one thread") << 1 << 100 << 7;
    }
    void threadPoolForRangesCoversEachIndexOnce()
    {
        QFETCH(int, threads);
        QFETCH(int, n);
        QFETCH(int, grain);
        ThreadPool pool(threads);
        const std::thread::id caller = std::this_thread::get_id();
        for (int round = 0; round < 50; ++round) {
            std::vector<std::atomic<int>> done(static_cast<size_t>(n));
            std::atomic<int> calls{0};
            std::atomic<bool> inGrain{true}, onCaller{true};
            pool.forRanges(n, grain, [&](int begin, int end) {
                calls.fetch_add(1);
                if (begin >= end || end - begin > grain)
                    inGrain = false;
                if (std::this_thread::get_id() != caller)
                    onCaller = false;
                for (int i = begin; i < end; ++i)
                    done[size_t(i)].fetch_add(1);
            });
            for (const auto& d : done)
                QCOMPARE(d.load(), 1);
            if (n == 0)
                QCOMPARE(calls.load(), 0);
            else if (n <= grain || threads == 1)
                QVERIFY(calls.load() == 1 && onCaller);
            else
                QVERIFY(inGrain && calls.load() == (n + grain - 1) / grain);
        }
    }

    void expMatchesLibm()
    {
        std::vector<float> x, y;
        for (float v = -20.0f; v <= 20.0f; v += 0.37f)
            x.push_back(v);
        x.push_back(-INFINITY);
        x.push_back(-150.0f);
        while (x.size() % 8)
            x.push_back(0.0f);
        y.resize(x.size());
        kernels::expRow(x.data(), y.data(), int(x.size()));
        for (size_t i = 0; i < x.size(); ++i)
            QVERIFY2(std::fabs(y[i] - std::exp(x[i])) <= 3e-7f * std::exp(x[i]), qPrintable(QString::number(x[i])));
    }

    void siluAndRmsNorm()
    {
        std::vector<float> x{-3.0f, -1.0f, 0.0f, 0.5f, 1.0f, 2.0f, 4.0f, 8.0f, -0.25f, 10.0f, -10.0f};
        auto y = x;
        kernels::siluRow(y.data(), int(y.size())); // 8 vector lanes + 3 scalar
        for (size_t i = 0; i < x.size(); ++i)
            QVERIFY(std::fabs(y[i] - x[i] / (1.0f + std::exp(-x[i]))) <= 1e-6f * (1.0f + std::fabs(x[i])));
        std::vector<float> w(x.size(), 2.0f), out(x.size());
        kernels::rmsNormRow(x.data(), w.data(), out.data(), int(x.size()), 1e-5f);
        double ss = 0;
        for (float v : x)
            ss += double(v) * v;
        const double scale = 1.0 / std::sqrt(ss / double(x.size()) + 1e-5);
        for (size_t i = 0; i < x.size(); ++i)
            QVERIFY(std::fabs(out[i] - 2.0 * x[i] * scale) <= 1e-5);
    }

    // GELU's tanh form, 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), computed here in double, against the
    // kernel's F16 table: the input rounded to F16, the result rounded to F16 (half an F16 step, 2^-11
    // relative, plus slack for float tanh); 0 at or below -10, x itself at or above 10.
    void geluTanhMatchesTheFormula()
    {
        auto formula = [](double x) {
            return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
        };
        // By hand: gelu(1) = 0.5 (1 + tanh(0.7978846 * 1.044715)) = 0.5 (1 + tanh(0.8335624)) = 0.8411920, whose
        // nearest F16 is 1723 / 2048 = 0.84130859375; gelu(-1) = gelu(1) - 1 = -0.1588080, nearest F16 -1301 / 8192.
        QCOMPARE(kernels::gelu(1.0f), 0.84130859375f);
        QCOMPARE(kernels::gelu(-1.0f), -1301.0f / 8192.0f);
        QCOMPARE(kernels::gelu(0.0f), 0.0f);
        QCOMPARE(kernels::gelu(-10.0f), 0.0f);
        QCOMPARE(kernels::gelu(-25.0f), 0.0f);
        QCOMPARE(kernels::gelu(10.0f), 10.0f);
        QCOMPARE(kernels::gelu(12.345f), 12.345f);
        for (int i = -9990; i <= 9990; i += 7) {
            const float x = float(i) / 1000.0f;
            const double want = formula(double(f16ToF32(f32ToF16(x))));
            const double got = kernels::gelu(x);
            QVERIFY2(std::fabs(got - want) <= std::fabs(want) * (1.0 / 1024.0) + 1e-7,
                     qPrintable(QStringLiteral("gelu(%1) = %2, formula %3").arg(double(x)).arg(got).arg(want)));
        }
        // GeGLU: GELU(gate) * up, element by element.
        std::vector<float> gate{1.0f, -1.0f, 12.0f, -11.0f, 0.5f}, up{2.0f, 3.0f, 0.5f, 7.0f, -4.0f};
        kernels::gegluRow(gate.data(), up.data(), int(gate.size()));
        QCOMPARE(gate[0], 2.0f * 0.84130859375f);
        QCOMPARE(gate[1], 3.0f * (-1301.0f / 8192.0f));
        QCOMPARE(gate[2], 6.0f);
        QCOMPARE(gate[3], 0.0f);
        QVERIFY(std::fabs(gate[4] - (-4.0 * formula(0.5))) <= 4.0 * formula(0.5) / 1024.0);
    }

    void bf16RoundTrip()
    {
        QCOMPARE(bf16ToF32(f32ToBf16(1.0f)), 1.0f);
        QCOMPARE(bf16ToF32(f32ToBf16(-2.5f)), -2.5f);
        QCOMPARE(f32ToBf16(1.00390625f), uint16_t(0x3f80)); // exactly halfway: rounds to even
        QVERIFY(std::isnan(bf16ToF32(f32ToBf16(NAN))));
    }
};

QTEST_GUILESS_MAIN(TestKernels)
#include "tst_kernels.moc"
