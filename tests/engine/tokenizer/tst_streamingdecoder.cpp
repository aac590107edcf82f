#include "engine/tokenizer/streamingdecoder.h"
#include "engine/tokenizer/unicode.h"
#include "tests/common/testmodels.h"
#include "tests/engine/tokenizer/testvectors.h"
#include "tests/engine/tokenizer/tokenizerloader.h"

#include <QTest>

using namespace ws;

class TestStreamingDecoder : public QObject
{
    Q_OBJECT
private slots:
    // "🦙" has no token in the Llama 2 vocabulary: it is four byte tokens, and
    // nothing may come out before the fourth.
    void holdsBackPartialCharacters()
    {
        WS_REQUIRE_MODEL(path, "tokenizer/ggml-vocab-llama-spm.gguf");
        const auto tok = wstest::loadTokenizer(path);
        QVERIFY(tok);
        const std::vector<TokenId> ids = tok->encode("\xF0\x9F\xA6\x99", false, false);
        // "▁" then <0xF0> <0x9F> <0xA6> <0x99>
        QCOMPARE(ids.size(), size_t(5));
        StreamingDecoder decoder(*tok);
        QCOMPARE(decoder.push(ids[0]), std::string(" "));
        QCOMPARE(decoder.push(ids[1]), std::string());
        QCOMPARE(decoder.push(ids[2]), std::string());
        QCOMPARE(decoder.push(ids[3]), std::string());
        QCOMPARE(decoder.pendingBytes(), size_t(3));
        QCOMPARE(decoder.push(ids[4]), std::string("\xF0\x9F\xA6\x99"));
        QCOMPARE(decoder.flush(), std::string());
    }

    void incompleteTailIsReplacedOnFlush()
    {
        WS_REQUIRE_MODEL(path, "tokenizer/ggml-vocab-llama-spm.gguf");
        const auto tok = wstest::loadTokenizer(path);
        QVERIFY(tok);
        const std::vector<TokenId> ids = tok->encode("\xF0\x9F\xA6\x99", false, false); // four byte tokens
        QCOMPARE(ids.size(), size_t(5));
        StreamingDecoder decoder(*tok);
        std::string out;
        for (size_t i = 0; i + 1 < ids.size(); ++i) // the last byte never comes
            out += decoder.push(ids[i]);
        out += decoder.flush();
        QCOMPARE(out, std::string(" \xEF\xBF\xBD")); // the cut character became one U+FFFD
        QCOMPARE(decoder.pendingBytes(), size_t(0));
    }

    // Streaming every test string of every vocabulary, token by token, gives
    // only whole characters and, joined, the decoded text.
    void streamsTestStrings_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QByteArray>("text");
        for (const char* model : {"stories260K/stories260K.gguf", "tokenizer/ggml-vocab-llama-spm.gguf",
                                  "tokenizer/ggml-vocab-llama3.gguf", "tokenizer/ggml-vocab-qwen3.gguf"}) {
            const QString base = wstest::testModelPath(QString::fromLatin1(model));
            const auto vectors = wstest::readTokenizerVectors(base + ".inp", base + ".out");
            if (vectors.empty()) // a row that names the unreadable file, for WS_REQUIRE_MODEL_FILE
                QTest::newRow(model) << wstest::unreadableVectorFile(base) << QByteArray();
            for (size_t i = 0; i < vectors.size(); ++i)
                QTest::newRow(qPrintable(QStringLiteral("%1 #%2").arg(QLatin1String(model)).arg(i)))
                    << QString::fromLatin1(model) << QByteArray::fromStdString(vectors[i].text);
        }
    }
    void streamsTestStrings()
    {
        QFETCH(QString, model);
        QFETCH(QByteArray, text);
        const QString path = wstest::testModelPath(model);
        WS_REQUIRE_MODEL_FILE(path);
        const auto tok = wstest::loadTokenizer(path.toStdString());
        QVERIFY(tok);
        const auto ids = tok->encode(text.toStdString(), false, false);
        StreamingDecoder decoder(*tok);
        std::string joined;
        for (const TokenId id : ids) {
            const std::string part = decoder.push(id);
            QCOMPARE(unicode::completeUtf8Prefix(part), part.size());
            QCOMPARE(unicode::sanitizeUtf8(part), part);
            joined += part;
        }
        joined += decoder.flush();
        QCOMPARE(joined, tok->decode(ids));
    }
};

QTEST_GUILESS_MAIN(TestStreamingDecoder)
#include "tst_streamingdecoder.moc"
