#include "engine/tokenizer/unicode.h"

#include <QTest>

using namespace ws;

class TestUnicode : public QObject
{
    Q_OBJECT
private slots:
    void categories_data()
    {
        QTest::addColumn<uint>("cp");
        QTest::addColumn<bool>("letter");
        QTest::addColumn<bool>("number");
        QTest::addColumn<bool>("whitespace");
        QTest::newRow("ASCII letter") << uint('q') << true << false << false;
        QTest::newRow("ASCII digit") << uint('7') << false << true << false;
        QTest::newRow("ASCII punctuation") << uint('!') << false << false << false;
        QTest::newRow("space") << uint(' ') << false << false << true;
        QTest::newRow("e acute (Ll)") << 0xE9u << true << false << false;
        QTest::newRow("vulgar half (No)") << 0xBDu << false << true << false;
        QTest::newRow("Arabic-Indic three (Nd)") << 0x663u << false << true << false;
        QTest::newRow("roman numeral one (Nl)") << 0x2160u << false << true << false;
        QTest::newRow("CJK ideograph (Lo)") << 0x4E2Du << true << false << false;
        QTest::newRow("Khmer vowel sign (Mc)") << 0x17B6u << false << false << false;
        QTest::newRow("combining acute (Mn)") << 0x301u << false << false << false;
        QTest::newRow("fullwidth comma (Po)") << 0xFF0Cu << false << false << false;
        QTest::newRow("no-break space") << 0xA0u << false << false << true;
        QTest::newRow("ideographic space") << 0x3000u << false << false << true;
        QTest::newRow("next line U+0085") << 0x85u << false << false << true;
        QTest::newRow("zero width joiner (Cf)") << 0x200Du << false << false << false;
        QTest::newRow("llama emoji (So)") << 0x1F999u << false << false << false;
        QTest::newRow("Deseret capital (Lu, astral)") << 0x10400u << true << false << false;
        QTest::newRow("unassigned U+0378") << 0x378u << false << false << false;
    }
    void categories()
    {
        QFETCH(uint, cp);
        QFETCH(bool, letter);
        QFETCH(bool, number);
        QFETCH(bool, whitespace);
        QCOMPARE(unicode::isLetter(cp), letter);
        QCOMPARE(unicode::isNumber(cp), number);
        QCOMPARE(unicode::isWhitespace(cp), whitespace);
    }

    void decodeMarksBadBytes()
    {
        const auto cpts = unicode::decodeUtf8("a\xFF\xE4\xB8\xAD\xE4\xB8");
        const std::vector<char32_t> expected{U'a', 0xFFFD, 0x4E2D, 0xFFFD, 0xFFFD};
        QVERIFY(cpts == expected);
        std::string back;
        for (const char32_t c : {U'a', char32_t(0xE9), char32_t(0x4E2D), char32_t(0x1F999)})
            unicode::appendUtf8(back, c);
        QCOMPARE(back, std::string("a\xC3\xA9\xE4\xB8\xAD\xF0\x9F\xA6\x99"));
    }

    void gpt2ByteAlphabet()
    {
        QCOMPARE(unicode::byteToCharacter(' '), std::string("\xC4\xA0"));  // "Ġ"
        QCOMPARE(unicode::byteToCharacter('\n'), std::string("\xC4\x8A")); // "Ċ"
        QCOMPARE(unicode::byteToCharacter('A'), std::string("A"));
        for (int b = 0; b < 256; ++b) {
            const auto cpts = unicode::decodeUtf8(unicode::byteToCharacter(static_cast<uint8_t>(b)));
            QCOMPARE(cpts.size(), size_t(1));
            QCOMPARE(unicode::byteFromCharacter(cpts[0]), b);
        }
        QCOMPARE(unicode::byteFromCharacter(0x4E2D), -1);
    }

    void sanitize_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("valid text unchanged") << QByteArray("h\xC3\xA9 \xE4\xB8\xAD\xF0\x9F\xA6\x99")
                                              << QByteArray("h\xC3\xA9 \xE4\xB8\xAD\xF0\x9F\xA6\x99");
        // The example of the Unicode Standard, section 3.9 (U+FFFD substitution of maximal subparts).
        QTest::newRow("Unicode 3.9 example") << QByteArray("\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64")
                                             << QByteArray("a\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"
                                                           "b\xEF\xBF\xBD"
                                                           "c\xEF\xBF\xBD\xEF\xBF\xBD"
                                                           "d");
        QTest::newRow("surrogate is ill-formed")
            << QByteArray("\xED\xA0\x80") << QByteArray("\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
        QTest::newRow("overlong is ill-formed") << QByteArray("\xC0\xAF") << QByteArray("\xEF\xBF\xBD\xEF\xBF\xBD");
        QTest::newRow("truncated at end") << QByteArray("x\xF0\x9F\xA6") << QByteArray("x\xEF\xBF\xBD");
    }
    void sanitize()
    {
        QFETCH(QByteArray, input);
        QFETCH(QByteArray, expected);
        QCOMPARE(QByteArray::fromStdString(unicode::sanitizeUtf8(input.toStdString())), expected);
    }

    void completePrefix_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<int>("complete");
        QTest::newRow("empty") << QByteArray() << 0;
        QTest::newRow("ASCII") << QByteArray("abc") << 3;
        QTest::newRow("half a CJK character held") << QByteArray("a\xE4\xB8") << 1;
        QTest::newRow("whole CJK character") << QByteArray("a\xE4\xB8\xAD") << 4;
        QTest::newRow("three quarters of an emoji held") << QByteArray("\xF0\x9F\xA6") << 0;
        QTest::newRow("stray continuation is final") << QByteArray("\x80") << 1;
        QTest::newRow("broken sequence is final") << QByteArray("\xE4"
                                                                "a")
                                                  << 2;
    }
    void completePrefix()
    {
        QFETCH(QByteArray, input);
        QFETCH(int, complete);
        QCOMPARE(unicode::completeUtf8Prefix(input.toStdString()), size_t(complete));
    }
};

QTEST_GUILESS_MAIN(TestUnicode)
#include "tst_unicode.moc"
