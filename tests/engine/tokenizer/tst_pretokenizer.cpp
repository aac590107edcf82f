#include "engine/tokenizer/pretokenizer.h"
#include "engine/tokenizer/unicode.h"

#include <QStringList>
#include <QTest>

using namespace ws;

namespace {

// Words joined by "|" so a failure shows the whole split.
QString splitJoined(PreTokenizer::Kind kind, const QString& text)
{
    const QByteArray utf8 = text.toUtf8();
    const auto cpts = unicode::decodeUtf8(std::string_view(utf8.constData(), static_cast<size_t>(utf8.size())));
    QStringList words;
    size_t pos = 0;
    for (const size_t length : PreTokenizer(kind).split(cpts)) {
        std::string word;
        for (size_t i = pos; i < pos + length; ++i)
            unicode::appendUtf8(word, cpts[i]);
        words << QString::fromStdString(word);
        pos += length;
    }
    return words.join(QLatin1Char('|'));
}

} // namespace

class TestPreTokenizer : public QObject
{
    Q_OBJECT
private slots:
    // Expected splits worked out by hand from the regular expression in pretokenizer.h.
    void split_data()
    {
        QTest::addColumn<bool>("qwen2");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("words");
        QTest::newRow("words keep their leading space") << false << "Hello world"
                                                        << "Hello| world";
        QTest::newRow("contraction, digits in threes") << false << "I've 12345 apples!!\n\n"
                                                       << "I|'ve| |123|45| apples|!!\n\n";
        QTest::newRow("qwen2 digits one by one") << true << "I've 12345"
                                                 << "I|'ve| |1|2|3|4|5";
        QTest::newRow("upper-case contraction") << false << "DON'T"
                                                << "DON|'T";
        QTest::newRow("apostrophe before a word") << false << "'hello"
                                                  << "'hello";
        QTest::newRow("last space joins the next word") << false << "  x"
                                                        << " | x";
        QTest::newRow("trailing spaces stay together") << false << "a   "
                                                       << "a|   ";
        QTest::newRow("whitespace up to the last newline") << false << "\t\n  \n x"
                                                           << "\t\n  \n| x";
        QTest::newRow("punctuation with a space") << false << "a ?!b"
                                                  << "a| ?!|b";
        QTest::newRow("punctuation prefixes a CJK word") << true << "你好，世界"
                                                         << "你好|，世界";
        QTest::newRow("space then CJK") << false << "! 你好"
                                        << "!| 你好";
        QTest::newRow("combining mark is not a letter") << false << "e\u0301x"
                                                        << "e|\u0301x";
        QTest::newRow("no-break space before a word") << false << "a\u00A0b"
                                                      << "a|\u00A0b";
        QTest::newRow("empty") << false << ""
                               << "";
    }
    void split()
    {
        QFETCH(bool, qwen2);
        QFETCH(QString, text);
        QFETCH(QString, words);
        QCOMPARE(splitJoined(qwen2 ? PreTokenizer::Kind::Qwen2 : PreTokenizer::Kind::Llama3, text), words);
    }
};

QTEST_GUILESS_MAIN(TestPreTokenizer)
#include "tst_pretokenizer.moc"
