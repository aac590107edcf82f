// The downloader's readers of outside text: the file name from the typed address stays in the download folder,
// and a Content-Range answer gives the offset and total or is refused, also past qint64 (where toLongLong's 0
// once read as "resumed at byte 0").
#include "app/session/downloadresume.h"

#include <QTest>

class TestDownloadResume : public QObject
{
    Q_OBJECT
private slots:
    void fileNames_data()
    {
        QTest::addColumn<QString>("address");
        QTest::addColumn<QString>("name");
        QTest::newRow("plain") << "https://example.org/m/stories260K.gguf"
                               << "stories260K.gguf";
        QTest::newRow("query dropped") << "https://example.org/a/b.bin?download=true"
                                       << "b.bin";
        QTest::newRow("spaces and unicode") << "https://example.org/my%20model%C3%A9.gguf"
                                            << "my_model_.gguf";
        QTest::newRow("hidden") << "https://example.org/.bashrc"
                                << "model.bin";
        QTest::newRow("dot dot") << "https://example.org/a/.."
                                 << "model.bin";
        QTest::newRow("no path") << "https://example.org"
                                 << "model.bin";
    }
    void fileNames()
    {
        QFETCH(QString, address);
        QFETCH(QString, name);
        QCOMPARE(ws::DownloadResume::fileNameFor(QUrl(address)), name);
    }

    void contentRanges_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("total");
        QTest::newRow("range") << QByteArray("bytes 100-199/1000") << qint64(100) << qint64(1000);
        QTest::newRow("unsatisfied") << QByteArray("bytes */1000") << qint64(-1) << qint64(1000);
        QTest::newRow("unknown total") << QByteArray("bytes 100-199/*") << qint64(100) << qint64(-1);
        QTest::newRow("spaces around") << QByteArray("  bytes 5-9/10 ") << qint64(5) << qint64(10);
        QTest::newRow("not bytes") << QByteArray("items 1-2/3") << qint64(-2) << qint64(-1);
        QTest::newRow("negative") << QByteArray("bytes -5-9/10") << qint64(-2) << qint64(-1);
        QTest::newRow("empty") << QByteArray() << qint64(-2) << qint64(-1);
        QTest::newRow("start past qint64") << QByteArray("bytes 99999999999999999999-1/10") << qint64(-2) << qint64(-1);
        QTest::newRow("total past qint64") << QByteArray("bytes 0-1/99999999999999999999") << qint64(-2) << qint64(-1);
    }
    void contentRanges()
    {
        QFETCH(QByteArray, header);
        QFETCH(qint64, start);
        QFETCH(qint64, total);
        const auto [gotStart, gotTotal] = ws::DownloadResume::parseContentRange(header);
        QCOMPARE(gotStart, start);
        QCOMPARE(gotTotal, total);
    }
};

QTEST_GUILESS_MAIN(TestDownloadResume)
#include "tst_downloadresume.moc"
