#include "engine/gguf/llama2ccheckpoint.h"
#include "tests/common/testmodels.h"

#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <fstream>

using ws::Llama2cCheckpoint;
using ws::Llama2cTensor;

namespace {

// A llama2.c checkpoint with every float equal to its index (so pointers can be checked), and an
// optional separate classifier (negative vocab_size) whose floats are -1.
std::vector<uint8_t> makeCheckpoint(std::array<int32_t, 7> h, bool separateClassifier)
{
    const int64_t dim = h[0], hidden = h[1], layers = h[2], heads = h[3], kvHeads = h[4], vocab = h[5], seq = h[6];
    const int64_t headSize = dim / heads, kvDim = headSize * kvHeads;
    const int64_t floats = vocab * dim + layers * dim * 2 + layers * dim * dim * 2 + layers * dim * kvDim * 2 +
                           layers * dim * hidden * 3 + dim + seq * headSize;
    if (separateClassifier)
        h[5] = -h[5];
    std::vector<uint8_t> out(28 + size_t(floats) * 4 + (separateClassifier ? size_t(vocab * dim) * 4 : 0));
    std::memcpy(out.data(), h.data(), 28);
    for (int64_t i = 0; i < floats; ++i) {
        const float f = float(i);
        std::memcpy(out.data() + 28 + i * 4, &f, 4);
    }
    if (separateClassifier)
        for (int64_t i = 0; i < vocab * dim; ++i) {
            const float f = -1.0f;
            std::memcpy(out.data() + 28 + (floats + i) * 4, &f, 4);
        }
    return out;
}

void writeBytes(const std::string& path, const std::vector<uint8_t>& bytes)
{
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

} // namespace

class TestLlama2cCheckpoint : public QObject
{
    Q_OBJECT
private slots:
    void readsStories260K()
    {
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.bin");
        auto c = Llama2cCheckpoint::open(path);
        QVERIFY2(c, c ? "" : c.error().message().c_str());
        const auto& h = c->header();
        QCOMPARE(h.dim, 64);
        QCOMPARE(h.hiddenDim, 172);
        QCOMPARE(h.layerCount, 5);
        QCOMPARE(h.headCount, 8);
        QCOMPARE(h.kvHeadCount, 4);
        QCOMPARE(h.vocabSize, 512);
        QCOMPARE(h.seqLen, 512);
        QVERIFY(h.sharedClassifier);
        QCOMPARE(c->tensor(Llama2cTensor::Classifier), c->tensor(Llama2cTensor::TokenEmbedding));
    }

    void layoutAndSeparateClassifier_data()
    {
        QTest::addColumn<bool>("separate");
        QTest::newRow("shared classifier") << false;
        QTest::newRow("separate classifier (negative vocab_size)") << true;
    }
    void layoutAndSeparateClassifier()
    {
        QFETCH(bool, separate);
        QTemporaryDir dir;
        const std::string path = dir.filePath("m.bin").toStdString();
        writeBytes(path, makeCheckpoint({16, 24, 2, 4, 2, 10, 8}, separate));
        auto c = Llama2cCheckpoint::open(path);
        QVERIFY2(c, c ? "" : c.error().message().c_str());
        QCOMPARE(c->header().vocabSize, 10);
        QCOMPARE(c->header().sharedClassifier, !separate);
        // Offsets in floats: embedding 160, rms_att 32, wq 512, wk 256, wv 256, wo 512, rms_ffn 32, w1 768 ...
        QCOMPARE(c->tensor(Llama2cTensor::TokenEmbedding)[0], 0.0f);
        QCOMPARE(c->tensor(Llama2cTensor::RmsAttention)[0], 160.0f);
        QCOMPARE(c->tensor(Llama2cTensor::Wq)[0], 192.0f);
        QCOMPARE(c->tensor(Llama2cTensor::Wk)[0], 704.0f);
        QCOMPARE(c->tensor(Llama2cTensor::Wv)[0], 960.0f);
        QCOMPARE(c->tensor(Llama2cTensor::Wo)[0], 1216.0f);
        QCOMPARE(c->tensor(Llama2cTensor::RmsFfn)[0], 1728.0f);
        QCOMPARE(c->tensor(Llama2cTensor::W1)[0], 1760.0f);
        QCOMPARE(c->tensor(Llama2cTensor::W2)[0], 2528.0f);
        QCOMPARE(c->tensor(Llama2cTensor::W3)[0], 3296.0f);
        QCOMPARE(c->tensor(Llama2cTensor::RmsFinal)[0], 4064.0f);
        QCOMPARE(c->tensor(Llama2cTensor::Classifier)[0], separate ? -1.0f : 0.0f);
    }

    void rejectsMalformed_data()
    {
        QTest::addColumn<std::vector<uint8_t>>("bytes");
        QTest::addColumn<QString>("expected");
        const auto good = makeCheckpoint({16, 24, 2, 4, 2, 10, 8}, false);
        QTest::newRow("empty") << std::vector<uint8_t>{} << "the file is empty";
        QTest::newRow("shorter than the header")
            << std::vector<uint8_t>(good.begin(), good.begin() + 27) << "too short";
        QTest::newRow("header only") << std::vector<uint8_t>(good.begin(), good.begin() + 28) << "truncated";
        QTest::newRow("one float missing") << std::vector<uint8_t>(good.begin(), good.end() - 4) << "truncated";
        auto longer = good;
        longer.resize(longer.size() + 8);
        QTest::newRow("trailing bytes") << longer << "header implies";
        auto zeroDim = good;
        std::memset(zeroDim.data(), 0, 4);
        QTest::newRow("zero dim") << zeroDim << "dim";
        auto hugeVocab = good;
        const int32_t huge = 1 << 30;
        std::memcpy(hugeVocab.data() + 20, &huge, 4);
        QTest::newRow("absurd vocab_size") << hugeVocab << "vocab_size";
        auto badHeads = good;
        const int32_t three = 3;
        std::memcpy(badHeads.data() + 12, &three, 4);
        QTest::newRow("dim not a multiple of n_heads") << badHeads << "n_heads";
        auto badKv = good;
        std::memcpy(badKv.data() + 16, &three, 4);
        QTest::newRow("n_heads not a multiple of n_kv_heads") << badKv << "n_kv_heads";
    }
    void rejectsMalformed()
    {
        QFETCH(std::vector<uint8_t>, bytes);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const std::string path = dir.filePath("bad.bin").toStdString();
        writeBytes(path, bytes);
        auto c = Llama2cCheckpoint::open(path);
        QVERIFY(!c);
        QCOMPARE(c.error().file, path);
        const std::string msg = c.error().message();
        QVERIFY2(msg.find(expected.toStdString()) != std::string::npos, msg.c_str());
    }
};

QTEST_GUILESS_MAIN(TestLlama2cCheckpoint)
#include "tst_llama2ccheckpoint.moc"
