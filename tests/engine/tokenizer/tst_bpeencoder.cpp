#include "engine/tokenizer/bpeencoder.h"
#include "engine/tokenizer/tokenindex.h"

#include <QTest>

using namespace ws;

namespace {

// Encodes one pre-tokenized word (already in the byte alphabet) with a hand-made vocabulary.
QString encodeWord(const std::vector<std::string>& tokens, const std::vector<std::string>& merges,
                   const std::string& word, bool ignoreMerges = false)
{
    const TokenIndex index(tokens);
    const BpeEncoder encoder(merges, index, PreTokenizer(), ignoreMerges);
    std::vector<TokenId> ids;
    encoder.encodeWord(word, index, ids);
    QStringList parts;
    for (const TokenId id : ids)
        parts << QString::fromStdString(id >= 0 ? tokens[static_cast<size_t>(id)] : std::string("?"));
    return parts.join(QLatin1Char('|'));
}

} // namespace

class TestBpeEncoder : public QObject
{
    Q_OBJECT
private slots:
    void lowestRankMergesFirst()
    {
        // "b c" has the better rank, so "abc" becomes a|bc, not ab|c.
        QCOMPARE(encodeWord({"a", "b", "c", "ab", "bc"}, {"b c", "a b"}, "abc"), QStringLiteral("a|bc"));
        QCOMPARE(encodeWord({"a", "b", "c", "ab", "bc"}, {"a b", "b c"}, "abc"), QStringLiteral("ab|c"));
    }
    void equalPairsMergeLeftmostFirst()
    {
        // "aaa": both pairs are "a a"; the left one merges, leaving aa|a.
        QCOMPARE(encodeWord({"a", "aa"}, {"a a"}, "aaa"), QStringLiteral("aa|a"));
        QCOMPARE(encodeWord({"a", "aa"}, {"a a"}, "aaaa"), QStringLiteral("aa|aa"));
    }
    void mergesThroughTextsThatAreNotTokens()
    {
        // "ab" is not a token, yet "ab c" is a merge: the result must still be "abc".
        QCOMPARE(encodeWord({"a", "b", "c", "abc"}, {"a b", "ab c"}, "abc"), QStringLiteral("abc"));
    }
    void firstOfDuplicateMergesWins()
    {
        QCOMPARE(encodeWord({"a", "b", "c", "ab", "bc"}, {"b c", "a b", "b c"}, "abc"), QStringLiteral("a|bc"));
    }
    void ignoreMergesTakesWholeWordTokens()
    {
        // Merges alone cannot reach "abc" (no "ab c" merge), but the word is a token (Llama 3 rule).
        const std::vector<std::string> tokens{"a", "b", "c", "ab", "abc"};
        QCOMPARE(encodeWord(tokens, {"a b"}, "abc", false), QStringLiteral("ab|c"));
        QCOMPARE(encodeWord(tokens, {"a b"}, "abc", true), QStringLiteral("abc"));
    }
    void piecesWithoutTokensFallBackToBytes()
    {
        // "x" is no token: llama.cpp looks up its single bytes and drops what is not found.
        QCOMPARE(encodeWord({"a"}, {}, "axa"), QStringLiteral("a|a"));
    }
};

QTEST_GUILESS_MAIN(TestBpeEncoder)
#include "tst_bpeencoder.moc"
