#include "engine/gguf/gguffile.h"
#include "engine/gguf/ggufwriter.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/vocabloader.h"
#include "tests/common/testmodels.h"
#include "tests/engine/tokenizer/testvectors.h"

#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <functional>

using namespace ws;

namespace {

std::string writeBytes(const QTemporaryDir& dir, const std::string& name, const std::string& bytes)
{
    const QString path = dir.filePath(QString::fromStdString(name));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(bytes.data(), static_cast<qint64>(bytes.size()));
    return path.toStdString();
}

void putI32(std::string& bytes, size_t offset, int32_t value)
{
    std::memcpy(bytes.data() + offset, &value, 4);
}

// A tiny byte-level BPE vocabulary: a, b, ab with the merge "a b".
GgufWriter tinyBpe()
{
    GgufWriter w;
    w.addString("general.architecture", "qwen2");
    w.addString("tokenizer.ggml.model", "gpt2");
    w.addString("tokenizer.ggml.pre", "qwen2");
    w.addStringArray("tokenizer.ggml.tokens", {"a", "b", "ab", "<|im_end|>"});
    w.addI32Array("tokenizer.ggml.token_type", {1, 1, 1, 3});
    w.addStringArray("tokenizer.ggml.merges", {"a b"});
    w.addU32("tokenizer.ggml.eos_token_id", 3);
    w.addU32("tokenizer.ggml.bos_token_id", 3);
    return w;
}

} // namespace

class TestVocabLoader : public QObject
{
    Q_OBJECT
private slots:
    // tok512.bin becomes the same vocabulary as stories260K.gguf.
    void llama2cEqualsGguf()
    {
        WS_REQUIRE_MODEL(bin, "stories260K/tok512.bin");
        WS_REQUIRE_MODEL(gguf, "stories260K/stories260K.gguf");
        auto fromBin = VocabLoader::fromLlama2cFile(bin, 512);
        QVERIFY2(fromBin, fromBin ? "" : fromBin.error().message().c_str());
        auto file = GgufFile::open(gguf);
        QVERIFY(file);
        auto fromGguf = VocabLoader::fromGguf(*file);
        QVERIFY2(fromGguf, fromGguf ? "" : fromGguf.error().message().c_str());
        QCOMPARE(fromBin->tokens, fromGguf->tokens);
        QCOMPARE(fromBin->scores, fromGguf->scores);
        QVERIFY(fromBin->types == fromGguf->types);
        QCOMPARE(fromBin->bosId, fromGguf->bosId);
        QCOMPARE(fromBin->eosId, fromGguf->eosId);
        QCOMPARE(fromBin->unknownId, fromGguf->unknownId);
        QCOMPARE(fromBin->addBos, fromGguf->addBos);
        QCOMPARE(fromBin->addSpacePrefix, fromGguf->addSpacePrefix);
        QCOMPARE(fromGguf->padId, kNoToken); // 0xFFFFFFFF in the file means none
    }

    void badLlama2cFiles_data()
    {
        QTest::addColumn<QString>("mutation");
        QTest::addColumn<int>("vocabSize");
        QTest::addColumn<int>("code");
        QTest::newRow("truncated by one byte") << "truncate" << 512 << int(ErrorCode::Format);
        QTest::newRow("bytes after the last token") << "append" << 512 << int(ErrorCode::Format);
        QTest::newRow("negative token length") << "negative" << 512 << int(ErrorCode::Format);
        QTest::newRow("token length past the end") << "huge" << 512 << int(ErrorCode::Format);
        QTest::newRow("empty file") << "empty" << 512 << int(ErrorCode::Format);
        QTest::newRow("model expects more tokens") << "none" << 513 << int(ErrorCode::Format);
        QTest::newRow("model expects fewer tokens") << "none" << 511 << int(ErrorCode::Format);
        QTest::newRow("zero vocabulary size") << "none" << 0 << int(ErrorCode::InvalidArgument);
        QTest::newRow("missing file") << "missing" << 512 << int(ErrorCode::NotFound);
    }
    void badLlama2cFiles()
    {
        QFETCH(QString, mutation);
        QFETCH(int, vocabSize);
        QFETCH(int, code);
        WS_REQUIRE_MODEL(bin, "stories260K/tok512.bin");
        std::string bytes = wstest::readAll(QString::fromStdString(bin));
        QCOMPARE(bytes.size(), size_t(6227));
        if (mutation == "truncate")
            bytes.pop_back();
        else if (mutation == "append")
            bytes.push_back('x');
        else if (mutation == "negative")
            putI32(bytes, 8, -5); // first token's length
        else if (mutation == "huge")
            putI32(bytes, 8, 1000000);
        else if (mutation == "empty")
            bytes.clear();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path =
            mutation == "missing" ? dir.filePath("nope.bin").toStdString() : writeBytes(dir, "tok.bin", bytes);
        auto tok = Tokenizer::fromLlama2cFile(path, vocabSize);
        QVERIFY(!tok);
        QCOMPARE(int(tok.error().code), code);
        QCOMPARE(tok.error().file, path);
        QVERIFY(!tok.error().message().empty());
    }

    void tinyGgufBpeLoads()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("tiny.gguf").toStdString();
        QVERIFY(tinyBpe().writeFile(path));
        auto file = GgufFile::open(path);
        QVERIFY(file);
        auto tok = Tokenizer::fromGguf(*file);
        QVERIFY2(tok, tok ? "" : tok.error().message().c_str());
        QCOMPARE(wstest::idsToString(tok->encode("abba", false, false)), QStringLiteral("2 1 0"));
        QCOMPARE(wstest::idsToString(tok->encode("ab<|im_end|>", false, true)), QStringLiteral("2 3"));
        QVERIFY(tok->isEndOfGeneration(3));
        QVERIFY(!tok->addsBos());
    }

    void badGgufMetadata_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("field");
        QTest::newRow("unknown tokenizer model")
            << "model bert" << int(ErrorCode::Unsupported) << "tokenizer.ggml.model";
        QTest::newRow("unknown pre-tokenizer") << "pre gpt-4o" << int(ErrorCode::Unsupported) << "tokenizer.ggml.pre";
        QTest::newRow("no merges") << "no merges" << int(ErrorCode::NotFound) << "tokenizer.ggml.merges";
        QTest::newRow("no tokens") << "no tokens" << int(ErrorCode::NotFound) << "tokenizer.ggml.tokens";
        QTest::newRow("tokens not an array") << "tokens string" << int(ErrorCode::Format) << "tokenizer.ggml.tokens";
        QTest::newRow("too few token types") << "short types" << int(ErrorCode::Format) << "tokenizer.ggml.token_type";
        QTest::newRow("too few scores") << "short scores" << int(ErrorCode::Format) << "tokenizer.ggml.scores";
        QTest::newRow("BOS added but none") << "spm no bos" << int(ErrorCode::Format) << "tokenizer.ggml.bos_token_id";
    }
    void badGgufMetadata()
    {
        QFETCH(QString, change);
        QFETCH(int, code);
        QFETCH(QString, field);
        GgufWriter w;
        const bool spm = change == "spm no bos";
        w.addString("tokenizer.ggml.model", change == "model bert" ? "bert" : spm ? "llama" : "gpt2");
        w.addString("tokenizer.ggml.pre", change == "pre gpt-4o" ? "gpt-4o" : "qwen2");
        if (change == "tokens string")
            w.addString("tokenizer.ggml.tokens", "a");
        else if (change != "no tokens")
            w.addStringArray("tokenizer.ggml.tokens", {"a", "b", "ab"});
        w.addI32Array("tokenizer.ggml.token_type",
                      change == "short types" ? std::vector<int32_t>{1, 1} : std::vector<int32_t>{1, 1, 1});
        if (change == "short scores")
            w.addF32Array("tokenizer.ggml.scores", {0.0f});
        if (change != "no merges")
            w.addStringArray("tokenizer.ggml.merges", {"a b"});
        QTemporaryDir dir;
        const std::string path = dir.filePath("bad.gguf").toStdString();
        if (spm) { // SPM adds BOS (default id 1), but this vocabulary has only one token
            GgufWriter s;
            s.addString("tokenizer.ggml.model", "llama");
            s.addStringArray("tokenizer.ggml.tokens", {"<unk>"});
            QVERIFY(s.writeFile(path));
        } else {
            QVERIFY(w.writeFile(path));
        }
        auto file = GgufFile::open(path);
        QVERIFY(file);
        auto tok = Tokenizer::fromGguf(*file);
        QVERIFY(!tok);
        QCOMPARE(int(tok.error().code), code);
        QCOMPARE(QString::fromStdString(tok.error().field), field);
    }
};

QTEST_GUILESS_MAIN(TestVocabLoader)
#include "tst_vocabloader.moc"
