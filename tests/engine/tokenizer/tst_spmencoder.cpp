#include "engine/tokenizer/spmencoder.h"
#include "engine/tokenizer/tokenindex.h"

#include <QTest>

using namespace ws;

namespace {

struct Entry
{
    std::string text;
    float score;
    TokenType type = TokenType::Normal;
};

QString encode(const std::vector<Entry>& entries, const std::string& text)
{
    Vocab vocab;
    for (const Entry& e : entries) {
        vocab.tokens.push_back(e.text);
        vocab.scores.push_back(e.score);
        vocab.types.push_back(e.type);
    }
    vocab.unknownId = 0;
    const TokenIndex index(vocab.tokens);
    const SpmEncoder encoder(vocab, index);
    std::vector<TokenId> ids;
    encoder.encode(text, vocab, index, ids);
    QStringList parts;
    for (const TokenId id : ids)
        parts << QString::fromStdString(vocab.tokens[static_cast<size_t>(id)]);
    return parts.join(QLatin1Char('|'));
}

} // namespace

class TestSpmEncoder : public QObject
{
    Q_OBJECT
private slots:
    void highestScoreMergesFirst()
    {
        const std::vector<Entry> base{{"<unk>", 0, TokenType::Unknown}, {"a", -1}, {"b", -1}, {"c", -1}};
        auto vocab = base;
        vocab.push_back({"ab", -5});
        vocab.push_back({"bc", -2});
        QCOMPARE(encode(vocab, "abc"), QStringLiteral("a|bc"));
        vocab = base;
        vocab.push_back({"ab", -2});
        vocab.push_back({"bc", -5});
        QCOMPARE(encode(vocab, "abc"), QStringLiteral("ab|c"));
    }
    void equalScoresMergeLeftmostFirst()
    {
        QCOMPARE(encode({{"<unk>", 0, TokenType::Unknown}, {"a", -1}, {"aa", -1}}, "aaa"), QStringLiteral("aa|a"));
    }
    void unknownCharactersBecomeByteTokens()
    {
        std::vector<Entry> vocab{{"<unk>", 0, TokenType::Unknown}, {"a", -1}};
        vocab.push_back({"<0xC3>", 0, TokenType::Byte});
        vocab.push_back({"<0xA9>", 0, TokenType::Byte});
        QCOMPARE(encode(vocab, "a\xC3\xA9"), QStringLiteral("a|<0xC3>|<0xA9>"));
        // Without byte tokens the bytes become <unk>.
        QCOMPARE(encode({{"<unk>", 0, TokenType::Unknown}, {"a", -1}}, "\xC3\xA9"
                                                                       "a"),
                 QStringLiteral("<unk>|<unk>|a"));
    }
};

QTEST_GUILESS_MAIN(TestSpmEncoder)
#include "tst_spmencoder.moc"
