// The packed Q4_K layout (kernels.h): the decode repacks a resident file's interleaved Q4_K matrices so that a
// block's integer sum takes no shuffle. Packing must lose nothing (it unpacks to the same bytes and decodes to
// the same floats), and its kernel must give every row the bits of the interleaved kernel on the plain rows,
// in both builds, for any row count and for the extreme values; a model decodes the same resident (packed)
// as mapped (plain), at one and two threads and for a batch of tokens.
#include "engine/decode/decodemodel.h"
#include "engine/decode/forward.h"
#include "engine/decode/kernels.h"
#include "engine/decode/runstate.h"
#include "engine/decode/threadpool.h"
#include "engine/gguf/syntheticmodel.h"
#include "tests/common/randomblocks.h"

#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <random>
#include <vector>

using namespace ws;

namespace {

std::vector<BlockQ4_K> randomBlocks(size_t count, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    return wstest::randomQ4_KBlocks(count, rng);
}

std::vector<BlockQ8_K> randomActivation(int blocks, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<float> d(0.0f, 1.0f);
    std::vector<float> x(size_t(blocks) * 256);
    for (float& v : x)
        v = d(rng);
    std::vector<BlockQ8_K> q(static_cast<size_t>(blocks));
    kernels::quantizeRowQ8_K(x.data(), q.data(), int(x.size()));
    return q;
}

int packedMatrices(const TransformerWeights& w)
{
    int n = 0;
    for (const LayerWeights& l : w.layers)
        for (const WeightMatrix* m : {&l.wq, &l.wk, &l.wv, &l.wo, &l.gate, &l.up, &l.down})
            n += m->packed ? 1 : 0;
    return n;
}

std::vector<float> logitsOf(const DecodeModel& m, const std::vector<TokenId>& prompt, int threads)
{
    ThreadPool pool(threads);
    RunState state(m.config(), 64, 64, threads);
    if (!forward(m.config(), m.weights(), state, pool, prompt, 0))
        return {};
    return state.logits;
}

} // namespace

class TestPackedQ4K : public QObject
{
    Q_OBJECT
private slots:
    void packingLosesNothing()
    {
        const auto plain = randomBlocks(37, 1);
        auto packed = plain;
        kernels::packQ4_KBlocks(packed.data(), packed.size());
        std::vector<float> a(256), b(256);
        for (size_t i = 0; i < plain.size(); ++i) {
            QVERIFY(std::memcmp(plain[i].qs, packed[i].qs, sizeof(plain[i].qs)) != 0); // rearranged
            QCOMPARE(packed[i].d, plain[i].d);
            QVERIFY(std::memcmp(plain[i].scales, packed[i].scales, sizeof(plain[i].scales)) == 0);
            BlockQ4_K back;
            kernels::unpackQ4_KBlock(packed[i], back);
            QVERIFY(std::memcmp(&back, &plain[i], sizeof(back)) == 0);
            kernels::dequantizeRowQ4_K(&plain[i], a.data(), 256);
            kernels::dequantizeRowQ4_KPacked(&packed[i], b.data(), 256);
            QVERIFY(std::memcmp(a.data(), b.data(), 256 * sizeof(float)) == 0);
        }
    }

    void packedRowsEqualInterleavedRows_data()
    {
        QTest::addColumn<int>("blocks");
        QTest::addColumn<int>("rows");
        for (int blocks : {1, 2, 4, 12, kernels::kPackedQ4_KMaxBlocks})
            for (int rows : {1, 7, 8, 13, 24})
                QTest::newRow(qPrintable(QStringLiteral("%1 blocks, %2 rows").arg(blocks).arg(rows))) << blocks << rows;
    }
    void packedRowsEqualInterleavedRows()
    {
        QFETCH(int, blocks);
        QFETCH(int, rows);
        const auto plain = randomBlocks(size_t(rows) * size_t(blocks), uint64_t(blocks * 100 + rows));
        auto packed = plain;
        kernels::packQ4_KBlocks(packed.data(), packed.size());
        const auto x = randomActivation(blocks, uint64_t(blocks) + 7);
        auto xp = x;
        kernels::permuteQ8_KForPackedQ4_K(xp.data(), blocks);
        const size_t rowBytes = size_t(blocks) * sizeof(BlockQ4_K);
        std::vector<float> got(static_cast<size_t>(rows)), avx2(static_cast<size_t>(rows));
        kernels::isa().q4_KPackedRows(reinterpret_cast<const uint8_t*>(packed.data()), rowBytes, rows, xp.data(),
                                      blocks, got.data());
        kernels::avx2::kKernels.q4_KPackedRows(reinterpret_cast<const uint8_t*>(packed.data()), rowBytes, rows,
                                               xp.data(), blocks, avx2.data());
        QVERIFY(std::memcmp(got.data(), avx2.data(), got.size() * sizeof(float)) == 0);
        for (int r = 0; r < rows; ++r) {
            const float one = kernels::dotQ4_K(&plain[size_t(r) * size_t(blocks)], x.data(), blocks, true);
            QVERIFY2(std::memcmp(&one, &got[size_t(r)], sizeof(float)) == 0,
                     qPrintable(QStringLiteral("row %1: %2 vs %3").arg(r).arg(got[size_t(r)]).arg(one)));
            QVERIFY(one != 0.0f);
        }
        if (rows >= 8) {
            float eight[8];
            kernels::isa().q4_KInterleaved8(reinterpret_cast<const uint8_t*>(plain.data()), rowBytes, x.data(), blocks,
                                            eight);
            QVERIFY(std::memcmp(eight, got.data(), sizeof(eight)) == 0);
        }
    }

    // The largest sums the lanes can hold: every value 15 against an activation of -128 (and of 127), the
    // largest scales; the 16-bit partial sums of the AVX2 build must not saturate.
    void extremeValuesStayExact()
    {
        for (int8_t a : {int8_t(-128), int8_t(127)}) {
            BlockQ4_K w{};
            std::memset(w.qs, 0xFF, sizeof(w.qs));
            std::memset(w.scales, 0xFF, sizeof(w.scales));
            w.d = f32ToF16(0.01f);
            w.dmin = f32ToF16(0.001f);
            BlockQ8_K x{};
            std::memset(x.qs, uint8_t(a), sizeof(x.qs));
            for (auto& s : x.bsums)
                s = int16_t(16 * a);
            x.d = 0.5f;
            BlockQ4_K p = w;
            kernels::packQ4_KBlocks(&p, 1);
            BlockQ8_K xp = x;
            kernels::permuteQ8_KForPackedQ4_K(&xp, 1);
            const float one = kernels::dotQ4_K(&w, &x, 1, true);
            float got = 0, avx2 = 0;
            kernels::isa().q4_KPackedRows(reinterpret_cast<const uint8_t*>(&p), sizeof(p), 1, &xp, 1, &got);
            kernels::avx2::kKernels.q4_KPackedRows(reinterpret_cast<const uint8_t*>(&p), sizeof(p), 1, &xp, 1, &avx2);
            // 63 * 15 * a per value, 256 values, less the minimums' 63 * 16 * a per 16 values: (945 - 63) * 256 * a
            // in exact integers, scaled.
            const double expected = 0.5 * (0.01 * 945.0 * 256.0 * a - 0.001 * 63.0 * 256.0 * a);
            QVERIFY2(std::fabs(double(one) - expected) < 1e-3 * std::fabs(expected),
                     qPrintable(QStringLiteral("%1 vs %2").arg(one).arg(expected)));
            QVERIFY(std::memcmp(&one, &got, sizeof(float)) == 0);
            QVERIFY(std::memcmp(&one, &avx2, sizeof(float)) == 0);
        }
    }

    void modelDecodesTheSameResidentAndMapped()
    {
        QTemporaryDir dir;
        SyntheticModelSpec spec;
        spec.architecture = "qwen3";
        spec.dim = 512;
        spec.hiddenDim = 1024;
        spec.headCount = 4;
        spec.kvHeadCount = 2;
        spec.matrixType = GgmlType::Q4_K;
        const std::string path = dir.filePath("m.gguf").toStdString();
        QVERIFY(writeSyntheticModel(path, spec));
        auto resident = DecodeModel::load(path);
        LoadBudget mappedBudget;
        mappedBudget.mapWeights = true;
        auto mapped = DecodeModel::load(path, mappedBudget);
        QVERIFY2(resident && mapped, "cannot load the model");
        QVERIFY(resident->weightsResident());
        QCOMPARE(packedMatrices(resident->weights()), 7 * spec.layerCount);
        QCOMPARE(packedMatrices(mapped->weights()), 0);
        const WeightMatrix& a = resident->weights().layers[0].gate;
        const WeightMatrix& b = mapped->weights().layers[0].gate;
        std::vector<float> ra(size_t(a.cols)), rb(size_t(b.cols));
        for (int r : {0, 5, a.rows - 1}) {
            dequantizeMatrixRow(a, r, ra.data());
            dequantizeMatrixRow(b, r, rb.data());
            QVERIFY(std::memcmp(ra.data(), rb.data(), ra.size() * sizeof(float)) == 0);
        }
        for (const std::vector<TokenId>& prompt : {std::vector<TokenId>{3}, std::vector<TokenId>{1, 2, 3, 4, 5, 6, 7}})
            for (int threads : {1, 2}) {
                const auto p = logitsOf(*resident, prompt, threads);
                const auto q = logitsOf(*mapped, prompt, threads);
                QVERIFY(!p.empty() && p.size() == q.size());
                QVERIFY2(std::memcmp(p.data(), q.data(), p.size() * sizeof(float)) == 0,
                         qPrintable(QStringLiteral("%1 tokens, %2 threads").arg(prompt.size()).arg(threads)));
            }
    }
};

QTEST_GUILESS_MAIN(TestPackedQ4K)
#include "tst_packedq4k.moc"
