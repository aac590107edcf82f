// The block kernels (rows by tokens, prompt processing) against the one-row dot products of the same weight
// type's table entry: every output equal bit for bit, for tile-filling and ragged row and token counts.
#include "engine/decode/cputypetraits.h"
#include "engine/decode/kernels.h"
#include "engine/gguf/syntheticmodel.h"
#include "tests/common/randomblocks.h"

#include <QTest>

#include <cstring>
#include <random>
#include <span>
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
        std::mt19937_64 rng(uint64_t(rows * 1000 + tokens));
        const auto storage = *ggmlTypeTraits(uint32_t(type));
        WeightMatrix w;
        w.type = t;
        w.rows = rows;
        w.cols = cols;
        w.rowBytes = size_t(cols) / storage.blockValues * storage.blockBytes;
        std::vector<uint8_t> data(w.rowBytes * size_t(rows));
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
        size_t stride = 0;
        const auto bytes =
            convertActivations(dotInputFor(w), randomFloats(size_t(tokens) * cols, rng), tokens, cols, stride);
        QVERIFY(!bytes.empty());
        // In 32-byte aligned memory, as RunState's buffers are (the Q4_K kernels load Q8_K values aligned).
        std::vector<BlockQ8_K> aligned((bytes.size() + sizeof(BlockQ8_K) - 1) / sizeof(BlockQ8_K));
        std::memcpy(aligned.data(), bytes.data(), bytes.size());
        const std::span<const uint8_t> x(reinterpret_cast<const uint8_t*>(aligned.data()), bytes.size());
        // Outputs in a wider buffer (outStride > rows) with a guard value that must survive.
        const size_t outStride = size_t(rows) + 3;
        std::vector<float> got(outStride * size_t(tokens), -7.0f);
        traits.block(w, 0, rows, x.data(), stride, tokens, got.data(), outStride);
        for (int tok = 0; tok < tokens; ++tok) {
            for (int r = 0; r < rows; ++r) {
                // The one-row kernels: the rows kernel where the type has one (the packed layout's only one).
                float expected = 0;
                if (traits.rows)
                    traits.rows(w, r, 1, x.data() + stride * size_t(tok), &expected);
                else
                    expected = traits.dot(w, w.row(r), x.data() + stride * size_t(tok), true);
                const float value = got[outStride * size_t(tok) + size_t(r)];
                if (std::memcmp(&value, &expected, sizeof(float)) != 0)
                    QFAIL(qPrintable(
                        QStringLiteral("token %1 row %2: %3 vs %4").arg(tok).arg(r).arg(value).arg(expected)));
            }
            for (size_t r = size_t(rows); r < outStride; ++r)
                QCOMPARE(got[outStride * size_t(tok) + r], -7.0f);
        }
    }
};

QTEST_GUILESS_MAIN(TestBlockKernels)
#include "tst_blockkernels.moc"
