#include "engine/gguf/gguffile.h"
#include "engine/gguf/ggufwriter.h"
#include "tests/common/testmodels.h"

#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <fstream>
#include <functional>

using ws::GgmlType;
using ws::GgufFile;
using ws::GgufWriter;

namespace {

void writeBytes(const std::string& path, const std::vector<uint8_t>& bytes)
{
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

std::vector<uint8_t> floatBytes(const std::vector<float>& v)
{
    std::vector<uint8_t> out(v.size() * 4);
    std::memcpy(out.data(), v.data(), out.size());
    return out;
}

// A small valid file with metadata of several types and two tensors.
GgufWriter smallWriter()
{
    GgufWriter w;
    w.addString("general.architecture", "llama");
    w.addU32("llama.block_count", 2);
    w.addStringArray("tokenizer.ggml.tokens", {"a", "bb", "ccc"});
    w.addF32Array("tokenizer.ggml.scores", {0.5f, -1.0f, 2.0f});
    w.addTensor("a", GgmlType::F32, {4, 2}, floatBytes({1, 2, 3, 4, 5, 6, 7, 8}));
    w.addTensor("b", GgmlType::F32, {3}, floatBytes({9, 10, 11}));
    return w;
}

template <typename T> void patch(std::vector<uint8_t>& bytes, size_t at, T v)
{
    std::memcpy(bytes.data() + at, &v, sizeof(T));
}

} // namespace

using Mutator = std::function<std::vector<uint8_t>()>;
Q_DECLARE_METATYPE(Mutator)

class TestGgufFile : public QObject
{
    Q_OBJECT
private slots:
    void readsStories260K()
    {
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.gguf");
        auto f = GgufFile::open(path);
        QVERIFY2(f, f ? "" : f.error().message().c_str());
        QCOMPARE(f->version(), 3u);
        QCOMPARE(std::string(*f->getString("general.architecture")), std::string("llama"));
        QCOMPARE(*f->getU32("llama.embedding_length"), 64u);
        QCOMPARE(*f->getU32("llama.feed_forward_length"), 172u);
        QCOMPARE(*f->getU32("llama.block_count"), 5u);
        QCOMPARE(*f->getU32("llama.attention.head_count"), 8u);
        QCOMPARE(*f->getU32("llama.attention.head_count_kv"), 4u);
        QCOMPARE(*f->getU32("llama.context_length"), 2048u);
        QCOMPARE(*f->getF32("llama.attention.layer_norm_rms_epsilon"), 1e-5f);
        QCOMPARE(std::string(*f->getString("tokenizer.ggml.model")), std::string("llama"));
        const auto tokens = f->getStringArray("tokenizer.ggml.tokens");
        QVERIFY(tokens);
        QCOMPARE(tokens->size(), size_t(512));
        QCOMPARE(std::string((*tokens)[1]), std::string("<s>"));
        QCOMPARE(f->getF32Array("tokenizer.ggml.scores")->size(), size_t(512));
        const auto types = f->getI32Array("tokenizer.ggml.token_type");
        QVERIFY(types);
        int counts[8] = {};
        for (int32_t t : *types)
            if (t >= 0 && t < 8)
                ++counts[t];
        QCOMPARE(counts[1], 253);
        QCOMPARE(counts[2], 1);
        QCOMPARE(counts[3], 2);
        QCOMPARE(counts[6], 256);
        QCOMPARE(*f->getU32("tokenizer.ggml.bos_token_id"), 1u);
        QCOMPARE(*f->getU32("tokenizer.ggml.eos_token_id"), 2u);
        QCOMPARE(f->tensors().size(), size_t(48));
        const auto* emb = f->findTensor("token_embd.weight");
        QVERIFY(emb);
        QCOMPARE(emb->type, GgmlType::F32);
        QCOMPARE(emb->dims[0], uint64_t(64));
        QCOMPARE(emb->dims[1], uint64_t(512));
        QCOMPARE(emb->sizeBytes, uint64_t(64 * 512 * 4));
        QCOMPARE(emb->fileOffset % f->alignment(), uint64_t(0));
        // output.weight is a copy of token_embd (README): the data pointers must see equal bytes.
        const auto* out = f->findTensor("output.weight");
        QVERIFY(out);
        QCOMPARE(std::memcmp(f->tensorData(*emb), f->tensorData(*out), emb->sizeBytes), 0);
        QVERIFY(!f->findTensor("no.such.tensor"));
        QCOMPARE(f->getU32("no.such.key").error().code, ws::ErrorCode::NotFound);
        QCOMPARE(f->getU32("general.architecture").error().code, ws::ErrorCode::Format);
    }

    void readsQuantizedTypes_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("tensor");
        QTest::addColumn<int>("type");
        QTest::newRow("Q8_0 attn_q") << "stories260K/stories260K-Q8_0.gguf"
                                     << "blk.0.attn_q.weight" << 8;
        QTest::newRow("Q8_0 ffn_down falls back to F16") << "stories260K/stories260K-Q8_0.gguf"
                                                         << "blk.0.ffn_down.weight" << 1;
        QTest::newRow("Q4_0 attn_q") << "stories260K/stories260K-Q4_0.gguf"
                                     << "blk.4.attn_q.weight" << 2;
        QTest::newRow("Q4_0 output is Q8_0") << "stories260K/stories260K-Q4_0.gguf"
                                             << "output.weight" << 8;
        QTest::newRow("qwen2 tied Q4_0 embedding") << "random/qwen2-tiny-random.gguf"
                                                   << "token_embd.weight" << 2;
        QTest::newRow("qwen2 bias") << "random/qwen2-tiny-random.gguf"
                                    << "blk.1.attn_k.bias" << 0;
        QTest::newRow("llama3 Q8_0") << "random/llama3-tiny-random.gguf"
                                     << "blk.1.ffn_down.weight" << 8;
    }
    void readsQuantizedTypes()
    {
        QFETCH(QString, file);
        QFETCH(QString, tensor);
        QFETCH(int, type);
        const QString full = wstest::testModelPath(file);
        WS_REQUIRE_MODEL_FILE(full);
        auto f = GgufFile::open(full.toStdString());
        QVERIFY2(f, f ? "" : f.error().message().c_str());
        const auto* t = f->findTensor(tensor.toStdString());
        QVERIFY(t);
        QCOMPARE(static_cast<int>(t->type), type);
        const auto traits = ws::ggmlTypeTraits(static_cast<uint32_t>(t->type));
        QCOMPARE(t->sizeBytes, t->elementCount() / traits->blockValues * traits->blockBytes);
    }

    void readsBpeVocabulary()
    {
        WS_REQUIRE_MODEL(path, "random/qwen2-tiny-random.gguf");
        auto f = GgufFile::open(path);
        QVERIFY2(f, f ? "" : f.error().message().c_str());
        QCOMPARE(f->getStringArray("tokenizer.ggml.tokens")->size(), size_t(151936));
        QVERIFY(f->getStringArray("tokenizer.ggml.merges")->size() > 100000);
        QCOMPARE(std::string(*f->getString("tokenizer.ggml.pre")), std::string("qwen2"));
        QCOMPARE(*f->getU32("qwen2.attention.head_count"), 4u);
        QCOMPARE(*f->getF32("qwen2.rope.freq_base"), 1e6f);
    }

    void writerRoundTripsEveryType_data()
    {
        QTest::addColumn<int>("version");
        QTest::newRow("v2") << 2;
        QTest::newRow("v3") << 3;
    }
    void writerRoundTripsEveryType()
    {
        QFETCH(int, version);
        QTemporaryDir dir;
        const std::string path = dir.filePath("all.gguf").toStdString();
        GgufWriter w;
        w.setVersion(static_cast<uint32_t>(version));
        w.setAlignment(64);
        w.addU8("u8", 200);
        w.addI8("i8", -100);
        w.addU16("u16", 60000);
        w.addI16("i16", -30000);
        w.addU32("u32", 4000000000u);
        w.addI32("i32", -2000000000);
        w.addU64("u64", uint64_t(1) << 40);
        w.addI64("i64", -(int64_t(1) << 40));
        w.addF32("f32", 1.5f);
        w.addF64("f64", 0.25);
        w.addBool("bool", true);
        w.addString("str", "h\xc3\xa9llo");
        w.addStringArray("strs", {"", "x", "yz"});
        w.addF32Array("f32s", {1.f, -2.f});
        w.addI32Array("i32s", {-1, 7});
        w.addTensor("t", GgmlType::F16, {32, 2}, std::vector<uint8_t>(128, 0x3c));
        QVERIFY(w.writeFile(path));
        auto f = GgufFile::open(path);
        QVERIFY2(f, f ? "" : f.error().message().c_str());
        QCOMPARE(f->version(), uint32_t(version));
        QCOMPARE(f->alignment(), uint64_t(64));
        QCOMPARE(*f->getU32("u8"), 200u);
        QCOMPARE(*f->getI32("i8"), -100);
        QCOMPARE(*f->getU32("u16"), 60000u);
        QCOMPARE(*f->getI32("i16"), -30000);
        QCOMPARE(*f->getU32("u32"), 4000000000u);
        QVERIFY(!f->getI32("u32")); // does not fit
        QCOMPARE(*f->getI32("i32"), -2000000000);
        QVERIFY(!f->getU32("i32")); // negative
        QCOMPARE(*f->getU64("u64"), uint64_t(1) << 40);
        QVERIFY(!f->getU32("u64"));
        QVERIFY(!f->getU64("i64"));
        QCOMPARE(*f->getF32("f32"), 1.5f);
        QCOMPARE(*f->getF32("f64"), 0.25f);
        QCOMPARE(*f->getBool("bool"), true);
        QCOMPARE(std::string(*f->getString("str")), std::string("h\xc3\xa9llo"));
        const auto strs = f->getStringArray("strs");
        QCOMPARE(strs->size(), size_t(3));
        QCOMPARE(std::string((*strs)[2]), std::string("yz"));
        QCOMPARE(*f->getF32Array("f32s"), (std::vector<float>{1.f, -2.f}));
        QCOMPARE(*f->getI32Array("i32s"), (std::vector<int32_t>{-1, 7}));
        QCOMPARE(*f->arrayLength("strs"), uint64_t(3));
        QCOMPARE(*f->getU32Or("absent", 9), 9u);
        QVERIFY(!f->getU32Or("str", 9));
        const auto* t = f->findTensor("t");
        QVERIFY(t);
        QCOMPARE(t->type, GgmlType::F16);
        QCOMPARE(t->fileOffset % 64, uint64_t(0));
        QCOMPARE(f->tensorData(*t)[0], uint8_t(0x3c));
        // Copies share the mapping and stay valid after the original goes away.
        GgufFile copy = *f;
        f = ws::Error{};
        QCOMPARE(copy.tensorData(*copy.findTensor("t"))[127], uint8_t(0x3c));
    }

    void rejectsMalformed_data()
    {
        QTest::addColumn<Mutator>("make");
        QTest::addColumn<QString>("expected");
        const std::vector<uint8_t> good = smallWriter().toBytes();
        QTest::newRow("empty file") << Mutator([] { return std::vector<uint8_t>{}; }) << "the file is empty";
        QTest::newRow("three bytes") << Mutator([good] { return std::vector<uint8_t>(good.begin(), good.begin() + 3); })
                                     << "too short";
        QTest::newRow("wrong magic") << Mutator([good] {
            auto b = good;
            b[0] = 'X';
            return b;
        }) << "bad magic";
        QTest::newRow("version 1") << Mutator([good] {
            auto b = good;
            patch<uint32_t>(b, 4, 1);
            return b;
        }) << "unsupported GGUF version 1";
        QTest::newRow("version 4") << Mutator([good] {
            auto b = good;
            patch<uint32_t>(b, 4, 4);
            return b;
        }) << "unsupported GGUF version 4";
        QTest::newRow("big-endian") << Mutator([good] {
            auto b = good;
            patch<uint32_t>(b, 4, 0x03000000);
            return b;
        }) << "big-endian";
        QTest::newRow("absurd tensor count") << Mutator([good] {
            auto b = good;
            patch<uint64_t>(b, 8, ~uint64_t(0));
            return b;
        }) << "tensor count";
        QTest::newRow("absurd metadata count") << Mutator([good] {
            auto b = good;
            patch<uint64_t>(b, 16, uint64_t(1) << 60);
            return b;
        }) << "metadata count";
        QTest::newRow("tensor data past the end") << Mutator([] {
            GgufWriter w;
            w.addTensor("big", GgmlType::F32, {32, 1000}, std::vector<uint8_t>(128, 0));
            return w.toBytes();
        }) << "runs past the end of the file";
        QTest::newRow("absurd dimension") << Mutator([] {
            GgufWriter w;
            w.addTensor("huge", GgmlType::F32, {uint64_t(1) << 62}, std::vector<uint8_t>(128, 0));
            return w.toBytes();
        }) << "dimension";
        QTest::newRow("absurd element count") << Mutator([] {
            GgufWriter w;
            w.addTensor("huge", GgmlType::F32, {uint64_t(1) << 30, uint64_t(1) << 30, 1 << 20},
                        std::vector<uint8_t>(128, 0));
            return w.toBytes();
        }) << "absurd number of elements";
        QTest::newRow("five dimensions") << Mutator([] {
            GgufWriter w;
            w.addTensor("t", GgmlType::F32, {1, 1, 1, 1, 1}, std::vector<uint8_t>(4, 0));
            return w.toBytes();
        }) << "5 dimensions";
        QTest::newRow("unknown tensor type") << Mutator([] {
            GgufWriter w;
            w.addTensor("odd", static_cast<GgmlType>(99), {32}, std::vector<uint8_t>(128, 0));
            return w.toBytes();
        }) << "unknown or unsupported tensor type 99";
        QTest::newRow("row not a whole number of blocks") << Mutator([] {
            GgufWriter w;
            w.addTensor("q", GgmlType::Q8_0, {31, 2}, std::vector<uint8_t>(68, 0));
            return w.toBytes();
        }) << "not a multiple of the Q8_0 block";
        QTest::newRow("string length past the end") << Mutator([] {
            GgufWriter w;
            std::vector<uint8_t> payload(8 + 3);
            patch<uint64_t>(payload, 0, uint64_t(1) << 40);
            std::memcpy(payload.data() + 8, "abc", 3);
            w.addRaw("general.name", static_cast<uint32_t>(ws::GgufValueType::String), payload);
            return w.toBytes();
        }) << "string length 1099511627776 runs past the end";
        QTest::newRow("string array count past the end") << Mutator([] {
            GgufWriter w;
            std::vector<uint8_t> payload(12);
            patch<uint32_t>(payload, 0, static_cast<uint32_t>(ws::GgufValueType::String));
            patch<uint64_t>(payload, 4, uint64_t(1) << 50);
            w.addRaw("tokenizer.ggml.tokens", static_cast<uint32_t>(ws::GgufValueType::Array), payload);
            return w.toBytes();
        }) << "strings runs past the end";
        QTest::newRow("float array count past the end") << Mutator([] {
            GgufWriter w;
            std::vector<uint8_t> payload(12);
            patch<uint32_t>(payload, 0, static_cast<uint32_t>(ws::GgufValueType::Float32));
            patch<uint64_t>(payload, 4, ~uint64_t(0) / 2);
            w.addRaw("tokenizer.ggml.scores", static_cast<uint32_t>(ws::GgufValueType::Array), payload);
            return w.toBytes();
        }) << "float32 runs past the end";
        QTest::newRow("unknown value type") << Mutator([] {
            GgufWriter w;
            w.addRaw("x", 77, {1, 2, 3, 4});
            return w.toBytes();
        }) << "unknown value type 77";
        QTest::newRow("nested array") << Mutator([] {
            GgufWriter w;
            std::vector<uint8_t> payload(12);
            patch<uint32_t>(payload, 0, static_cast<uint32_t>(ws::GgufValueType::Array));
            w.addRaw("x", static_cast<uint32_t>(ws::GgufValueType::Array), payload);
            return w.toBytes();
        }) << "arrays of arrays";
        QTest::newRow("alignment not a power of two") << Mutator([] {
            GgufWriter w;
            w.addU32("general.alignment", 24);
            return w.toBytes();
        }) << "not a power of two";
        QTest::newRow("duplicate key") << Mutator([] {
            GgufWriter w;
            w.addU32("k", 1);
            w.addU32("k", 2);
            return w.toBytes();
        }) << "duplicate metadata key";
    }
    void rejectsMalformed()
    {
        QFETCH(Mutator, make);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const std::string path = dir.filePath("bad.gguf").toStdString();
        writeBytes(path, make());
        const auto f = GgufFile::open(path);
        QVERIFY(!f);
        const std::string msg = f.error().message();
        QCOMPARE(f.error().file, path);
        QVERIFY2(msg.find(path) == 0, msg.c_str());
        QVERIFY2(msg.find(expected.toStdString()) != std::string::npos, msg.c_str());
    }

    // Every proper prefix of a valid file is an error, never a crash or a silent success.
    void rejectsEveryTruncation()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("cut.gguf").toStdString();
        const std::vector<uint8_t> good = smallWriter().toBytes();
        writeBytes(path, good);
        QVERIFY(GgufFile::open(path));
        for (size_t n = 0; n < good.size(); ++n) {
            writeBytes(path, std::vector<uint8_t>(good.begin(), good.begin() + static_cast<ptrdiff_t>(n)));
            const auto f = GgufFile::open(path);
            QVERIFY2(!f, ("prefix of " + std::to_string(n) + " bytes was accepted").c_str());
            QCOMPARE(f.error().code, ws::ErrorCode::Format);
            QCOMPARE(f.error().file, path);
        }
    }

    void missingFileIsNotFound()
    {
        const auto f = GgufFile::open("/nonexistent/model.gguf");
        QVERIFY(!f);
        QCOMPARE(f.error().code, ws::ErrorCode::NotFound);
        QVERIFY(f.error().message().find("/nonexistent/model.gguf") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestGgufFile)
#include "tst_gguffile.moc"
