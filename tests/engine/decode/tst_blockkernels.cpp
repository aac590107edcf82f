// The block kernels (rows by tokens, prompt processing) against the one-row dot products of the same weight
// type's table entry: every output equal bit for bit, for tile-filling and ragged row and token counts.
#include "engine/decode/cputypetraits.h"
#include "engine/decode/kernels.h"
#include "engine/gguf/syntheticmodel.h"
#include "tests/common/randomblocks.h"

#include <QTest>

#include <cstring>
#include <random>
#include <vector>

using namespace ws;

namespace {

std::vector<float> randomFloats(size_t n, std::mt19937_64& rng)
{
    std::normal_distribution<float> d(0.0f, 1.0f);
    std::vector<float> v(n);
    for (float& x : v)
        x = d(rng);
    return v;
}

// The activation rows converted as matmul converts them for `in`.
std::vector<uint8_t> convertActivations(DotInput in, const std::vector<float>& x, int tokens, int cols, size_t& stride)
{
    std::vector<uint8_t> out;
    if (in == DotInput::F32) {
        stride = size_t(cols) * sizeof(float);
        out.resize(stride * size_t(tokens));
        std::memcpy(out.data(), x.data(), out.size());
    } else if (in == DotInput::F16) {
        stride = size_t(cols) * sizeof(uint16_t);
        out.resize(stride * size_t(tokens));
        kernels::convertRowF16(x.data(), reinterpret_cast<uint16_t*>(out.data()), tokens * cols);
    } else if (in == DotInput::Q8_KPacked || in == DotInput::Q8_K) {
        const int blocks = cols / 256;
        std::vector<BlockQ8_K> q(size_t(blocks) * size_t(tokens)); // aligned, as the quantiser stores it
        for (int t = 0; t < tokens; ++t) {
            kernels::quantizeRowQ8_K(x.data() + size_t(t) * cols, q.data() + size_t(t) * blocks, cols);
            if (in == DotInput::Q8_KPacked)
                kernels::permuteQ8_KForPackedQ4_K(q.data() + size_t(t) * blocks, blocks);
        }
        stride = size_t(blocks) * sizeof(BlockQ8_K);
        out.resize(stride * size_t(tokens));
        std::memcpy(out.data(), q.data(), out.size());
    } else if (in == DotInput::Q8_0) {
        stride = size_t(cols / 32) * sizeof(BlockQ8_0);
        out.resize(stride * size_t(tokens));
        for (int t = 0; t < tokens; ++t)
            kernels::quantizeRowQ8_0(x.data() + size_t(t) * cols,
                                     reinterpret_cast<BlockQ8_0*>(out.data() + stride * size_t(t)), cols);
    }
    return out;
}

// A random matrix of `type` (rows x cols) and `tokens` activation rows converted for it, in 32-byte aligned memory
// as RunState's buffers are (the Q4_K kernels load Q8_K values aligned).
struct BlockCase
{
    WeightMatrix w;
    std::vector<uint8_t> data;
    std::vector<BlockQ8_K> aligned;
    size_t stride = 0;
    const uint8_t* x() const { return reinterpret_cast<const uint8_t*>(aligned.data()); }
};

BlockCase makeCase(GgmlType t, int rows, int tokens, int cols)
{
    BlockCase c;
    std::mt19937_64 rng(uint64_t(rows * 1000 + tokens));
    const auto storage = *ggmlTypeTraits(uint32_t(t));
    WeightMatrix& w = c.w;
    w.type = t;
    w.rows = rows;
    w.cols = cols;
    w.rowBytes = size_t(cols) / storage.blockValues * storage.blockBytes;
    std::vector<uint8_t>& data = c.data;
    data.resize(w.rowBytes * size_t(rows));
    const auto values = randomFloats(size_t(rows) * cols, rng);
    if (t == GgmlType::Q4_K) {
        auto blocks = wstest::randomQ4_KBlocks(size_t(rows) * size_t(cols / 256), rng);
        kernels::packQ4_KBlocks(blocks.data(), blocks.size());
        std::memcpy(data.data(), blocks.data(), data.size());
        w.packed = w.interleaved = true;
    } else if (t == GgmlType::Q5_K || t == GgmlType::Q6_K) {
        // Random bytes, F16 factors kept small so the products stay finite (as randomQ4_KBlocks).
        for (auto& byte : data)
            byte = uint8_t(rng());
        const size_t blockBytes = storage.blockBytes;
        for (size_t at = 0; at < data.size(); at += blockBytes) {
            const uint16_t d = f32ToF16(0.01f), dmin = f32ToF16(0.005f);
            if (t == GgmlType::Q6_K) {
                std::memcpy(data.data() + at + blockBytes - 2, &d, 2);
            } else {
                std::memcpy(data.data() + at, &d, 2);
                std::memcpy(data.data() + at + 2, &dmin, 2);
            }
        }
    } else {
        for (int r = 0; r < rows; ++r)
            encodeRow(t, values.data() + size_t(r) * cols, data.data() + w.rowBytes * size_t(r), cols);
    }
    if (t == GgmlType::Q8_0) // the extremes a stored block may hold, beyond what the quantiser writes
        for (size_t i = 2; i < data.size(); i += 97)
            data[i] = (i & 1) ? 0x80 : 0x7f;
    w.data = data.data();
    const auto bytes =
        convertActivations(dotInputFor(w), randomFloats(size_t(tokens) * cols, rng), tokens, cols, c.stride);
    c.aligned.resize((bytes.size() + sizeof(BlockQ8_K) - 1) / sizeof(BlockQ8_K));
    std::memcpy(c.aligned.data(), bytes.data(), bytes.size());
    return c;
}

// Every output of a block kernel's result `got` (outStride apart per token, guard values beyond the rows) equal bit
// for bit to rowKernel(row, token, &expected).
template <typename RowKernel>
void compareWithRows(const std::vector<float>& got, size_t outStride, int rows, int tokens, RowKernel rowKernel)
{
    for (int tok = 0; tok < tokens; ++tok) {
        for (int r = 0; r < rows; ++r) {
            float expected = 0;
            rowKernel(r, tok, &expected);
            const float value = got[outStride * size_t(tok) + size_t(r)];
            if (std::memcmp(&value, &expected, sizeof(float)) != 0)
                QFAIL(qPrintable(QStringLiteral("token %1 row %2: %3 vs %4").arg(tok).arg(r).arg(value).arg(expected)));
        }
        for (size_t r = size_t(rows); r < outStride; ++r)
            QCOMPARE(got[outStride * size_t(tok) + r], -7.0f);
    }
}

} // namespace

class TestBlockKernels : public QObject
{
    Q_OBJECT
private slots:
    void blockEqualsRowByRow_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("tokens");
        QTest::addColumn<int>("cols");
        for (int rows : {1, 3, 4, 8, 13, 64})
            for (int tokens : {2, 3, 4, 7, 9, 33})
                QTest::newRow(qPrintable(QStringLiteral("Q8_0 %1 rows %2 tokens").arg(rows).arg(tokens)))
                    << int(GgmlType::Q8_0) << rows << tokens << 256;
        // F32/F16 in the lanes order of a product of two or more tokens (rows a multiple of 4, so matmul.h's
        // usesLaneOrder holds; the block kernel's own tiles are of three rows).
        for (GgmlType t : {GgmlType::F32, GgmlType::F16})
            for (int rows : {4, 8, 12, 20})
                for (int tokens : {2, 5, 9})
                    QTest::newRow(
                        qPrintable(QStringLiteral("%1 %2 rows %3 tokens").arg(ggmlTypeName(t)).arg(rows).arg(tokens)))
                        << int(t) << rows << tokens << 136;
        QTest::newRow("F16 panels") << int(GgmlType::F16) << 8 << 40 << 8192;
        // Packed Q4_K (the decode's resident interleaved matrices): groups of eight rows and a shorter last one.
        for (int rows : {8, 13, 24})
            for (int tokens : {2, 4, 7})
                QTest::newRow(qPrintable(QStringLiteral("Q4_K packed %1 rows %2 tokens").arg(rows).arg(tokens)))
                    << int(GgmlType::Q4_K) << rows << tokens << 1024;
        QTest::newRow("Q4_K packed panels") << int(GgmlType::Q4_K) << 16 << 300 << 16384;
        for (GgmlType t : {GgmlType::Q5_K, GgmlType::Q6_K}) {
            for (int rows : {1, 5, 16})
                for (int tokens : {2, 4, 7})
                    QTest::newRow(
                        qPrintable(QStringLiteral("%1 %2 rows %3 tokens").arg(ggmlTypeName(t)).arg(rows).arg(tokens)))
                        << int(t) << rows << tokens << 1024;
            QTest::newRow(qPrintable(QStringLiteral("%1 panels").arg(ggmlTypeName(t)))) << int(t) << 3 << 200 << 12288;
        }
        QTest::newRow("Q8_0 long rows") << int(GgmlType::Q8_0) << 12 << 10 << 3072;
        // Rows of 16 KiB: token panels of 16 (the activations' L2 share), so the panels' seams are crossed.
        QTest::newRow("Q8_0 panels") << int(GgmlType::Q8_0) << 5 << 70 << 16384;
    }
    void blockEqualsRowByRow()
    {
        QFETCH(int, type);
        QFETCH(int, rows);
        QFETCH(int, tokens);
        QFETCH(int, cols);
        const GgmlType t = GgmlType(type);
        const CpuTypeTraits& traits = cpuTypeTraits(t);
        QVERIFY(traits.block);
        const BlockCase c = makeCase(t, rows, tokens, cols);
        QVERIFY(!c.aligned.empty());
        const WeightMatrix& w = c.w;
        const uint8_t* x = c.x();
        const size_t stride = c.stride;
        // Outputs in a wider buffer (outStride > rows) with a guard value that must survive.
        const size_t outStride = size_t(rows) + 3;
        std::vector<float> got(outStride * size_t(tokens), -7.0f);
        traits.block(w, 0, rows, x, stride, tokens, got.data(), outStride);
        // The one-row kernels: the rows kernel where the type has one (the packed layout's only one).
        compareWithRows(got, outStride, rows, tokens, [&](int r, int tok, float* expected) {
            if (traits.rows)
                traits.rows(w, r, 1, x + stride * size_t(tok), expected);
            else
                *expected = traits.dot(w, w.row(r), x + stride * size_t(tok), true);
        });
    }
    // The x86-64-v3 builds of the block kernels called directly, so that a processor with AVX-512 VNNI (whose table
    // takes the other build) checks them too: each equal to the same build's rows kernel.
    void avx2BlockEqualsRows_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("tokens");
        QTest::addColumn<int>("cols");
        for (GgmlType t : {GgmlType::Q8_0, GgmlType::Q4_K, GgmlType::Q5_K, GgmlType::Q6_K})
            for (int rows : {1, 4, 8, 11})
                for (int tokens : {1, 3, 5, 8})
                    QTest::newRow(
                        qPrintable(QStringLiteral("%1 %2 rows %3 tokens").arg(ggmlTypeName(t)).arg(rows).arg(tokens)))
                        << int(t) << rows << tokens << 512;
        QTest::newRow("Q8_0 panels") << int(GgmlType::Q8_0) << 7 << 40 << 16384;
        QTest::newRow("Q4_K panels") << int(GgmlType::Q4_K) << 9 << 21 << 16384;
        // F32/F16: the tiles of three rows by four tokens, against the lanes order's one-row product.
        for (GgmlType t : {GgmlType::F32, GgmlType::F16})
            for (int rows : {1, 4, 7, 12})
                for (int tokens : {2, 5, 9})
                    QTest::newRow(
                        qPrintable(QStringLiteral("%1 %2 rows %3 tokens").arg(ggmlTypeName(t)).arg(rows).arg(tokens)))
                        << int(t) << rows << tokens << 136;
        QTest::newRow("F16 panels") << int(GgmlType::F16) << 5 << 40 << 8192;
    }
    void avx2BlockEqualsRows()
    {
        QFETCH(int, type);
        QFETCH(int, rows);
        QFETCH(int, tokens);
        QFETCH(int, cols);
        const GgmlType t = GgmlType(type);
        const BlockCase c = makeCase(t, rows, tokens, cols);
        const WeightMatrix& w = c.w;
        const uint8_t* x = c.x();
        const int blocks = cols / (t == GgmlType::Q8_0 ? 32 : 256);
        const size_t outStride = size_t(rows) + 3;
        std::vector<float> got(outStride * size_t(tokens), -7.0f);
        const kernels::IsaKernels& avx2 = kernels::avx2::kKernels;
        if (t == GgmlType::F32 || t == GgmlType::F16) {
            if (t == GgmlType::F32)
                avx2.f32Block(w.row(0), w.rowBytes, rows, reinterpret_cast<const float*>(x), tokens, cols, got.data(),
                              outStride);
            else
                avx2.f16Block(w.row(0), w.rowBytes, rows, reinterpret_cast<const uint16_t*>(x), tokens, cols,
                              got.data(), outStride);
            compareWithRows(got, outStride, rows, tokens, [&](int r, int tok, float* expected) {
                const uint8_t* xt = x + c.stride * size_t(tok);
                *expected = t == GgmlType::F32 ? kernels::dotF32Lanes(reinterpret_cast<const float*>(w.row(r)),
                                                                      reinterpret_cast<const float*>(xt), cols)
                                               : kernels::dotF16Lanes(reinterpret_cast<const uint16_t*>(w.row(r)),
                                                                      reinterpret_cast<const uint16_t*>(xt), cols);
            });
            return;
        }
        kernels::BlockKernel* const block = t == GgmlType::Q8_0   ? avx2.q8_0Block
                                            : t == GgmlType::Q4_K ? avx2.q4_KPackedBlock
                                            : t == GgmlType::Q5_K ? avx2.q5_KBlock
                                                                  : avx2.q6_KBlock;
        block(w.row(0), w.rowBytes, rows, x, c.stride, tokens, blocks, got.data(), outStride);
        compareWithRows(got, outStride, rows, tokens, [&](int r, int tok, float* expected) {
            const uint8_t* xt = x + c.stride * size_t(tok);
            const auto* xk = reinterpret_cast<const BlockQ8_K*>(xt);
            if (t == GgmlType::Q8_0)
                kernels::dotQ8_0Rows(w.row(r), w.rowBytes, 1, reinterpret_cast<const BlockQ8_0*>(xt), blocks, expected);
            else if (t == GgmlType::Q4_K)
                avx2.q4_KPackedRows(w.row(r), w.rowBytes, 1, xk, blocks, expected);
            else if (t == GgmlType::Q5_K)
                avx2.q5_KRows(w.row(r), w.rowBytes, 1, xk, blocks, expected);
            else
                avx2.q6_KRows(w.row(r), w.rowBytes, 1, xk, blocks, expected);
        });
    }
};

QTEST_GUILESS_MAIN(TestBlockKernels)
#include "tst_blockkernels.moc"
