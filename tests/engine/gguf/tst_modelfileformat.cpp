// modelFileFormat: a GGUF file and a llama2.c checkpoint are told apart; an empty file is refused as empty,
// and a file of neither format with an error that names both formats, never with a llama2.c header
// complaint alone.
#include "engine/gguf/modelfileformat.h"
#include "tests/common/testmodels.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace ws;

class TestModelFileFormat : public QObject
{
    Q_OBJECT

private slots:
    void recognisesTheTestModels()
    {
        WS_REQUIRE_MODEL(gguf, "stories260K/stories260K.gguf");
        WS_REQUIRE_MODEL(llama2c, "stories260K/stories260K.bin");
        const auto a = modelFileFormat(gguf);
        QVERIFY2(a, a ? "" : a.error().message().c_str());
        QCOMPARE(*a, ModelFileFormat::Gguf);
        const auto b = modelFileFormat(llama2c);
        QVERIFY2(b, b ? "" : b.error().message().c_str());
        QCOMPARE(*b, ModelFileFormat::Llama2c);
    }

    void refusesWhatIsNeither_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QString>("notExpected");
        QTest::newRow("empty") << QByteArray() << "the file is empty"
                               << "header";
        QTest::newRow("three bytes") << QByteArray("GGU") << "not a GGUF file"
                                     << "";
        QTest::newRow("text") << QByteArray("Once upon a time there was a file that was not a model.\n")
                              << "not a GGUF file (it does not begin with \"GGUF\") and not a llama2.c checkpoint"
                              << "";
    }
    void refusesWhatIsNeither()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        QFETCH(QString, notExpected);
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("model.bin")).toStdString();
        {
            std::ofstream f(path, std::ios::binary | std::ios::trunc);
            f.write(bytes.constData(), bytes.size());
        }
        const auto format = modelFileFormat(path);
        QVERIFY(!format);
        QCOMPARE(format.error().code, ErrorCode::Format);
        const QString message = QString::fromStdString(format.error().message());
        QVERIFY2(message.startsWith(QString::fromStdString(path)), qPrintable(message));
        QVERIFY2(message.contains(expected), qPrintable(message));
        if (!notExpected.isEmpty())
            QVERIFY2(!message.contains(notExpected), qPrintable(message));
        QVERIFY(message.indexOf(QLatin1Char('\n')) < 0);
    }

    void missingFileIsNotAFormatError()
    {
        const auto format = modelFileFormat("/nonexistent/model.gguf");
        QVERIFY(!format);
        QVERIFY(format.error().code != ErrorCode::Format);
        QVERIFY(format.error().message().find("/nonexistent/model.gguf") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestModelFileFormat)
#include "tst_modelfileformat.moc"
