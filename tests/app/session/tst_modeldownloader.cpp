// ModelDownloader against a loopback HTTP server (bound to 127.0.0.1 only)
// that serves the shared test models, can cut a transfer short, and can
// ignore Range requests.
#include "app/session/modeldownloader.h"
#include "tests/common/testmodels.h"

#include <QCryptographicHash>
#include <QFile>
#include <QNetworkProxy>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

namespace {

// sha256 values published in shared/models/README.md (section 1).
const QString kStoriesBinSha = QStringLiteral("b0a507e7ad0f626624f17112325e66691f9076d622e1d3274d103d00299f2696");
const QString kTok512BinSha = QStringLiteral("037cb335abb25d1fa9e8ecae30ed2a3a8ace9302862ebcdc05d51a6bbb10c312");

class LoopbackHttpServer : public QObject
{
public:
    explicit LoopbackHttpServer(QString root) : m_root(std::move(root))
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* socket = m_server.nextPendingConnection())
                serve(socket);
        });
    }
    bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    QUrl url(const QString& path) const
    {
        return QUrl(QStringLiteral("http://127.0.0.1:%1/%2").arg(m_server.serverPort()).arg(path));
    }

    qint64 dropAfterBytes = -1; // close the connection after this many body bytes
    qint64 shortLength = -1;    // claim (and send) only this many bytes as the whole file
    bool ignoreRange = false;
    QList<QByteArray> rangeHeaders; // one per request ("" when none)
    QList<qint64> bodyBytesSent;    // one per request

private:
    void serve(QTcpSocket* socket)
    {
        auto buffer = std::make_shared<QByteArray>();
        connect(socket, &QTcpSocket::readyRead, socket, [this, socket, buffer] {
            buffer->append(socket->readAll());
            if (!buffer->contains("\r\n\r\n") || socket->property("answered").toBool())
                return;
            socket->setProperty("answered", true);
            respond(socket, *buffer);
        });
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    }

    void respond(QTcpSocket* socket, const QByteArray& request)
    {
        const QList<QByteArray> lines = request.split('\n');
        const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
        QByteArray range;
        for (const QByteArray& line : lines) {
            if (line.toLower().startsWith("range:"))
                range = line.mid(6).trimmed();
        }
        rangeHeaders.append(range);
        QFile file(QDir(m_root).filePath(QString::fromUtf8(requestLine.value(1).mid(1))));
        if (requestLine.value(0) != "GET" || !file.open(QIODevice::ReadOnly)) {
            bodyBytesSent.append(0);
            socket->write("HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\nConnection: close\r\n\r\nnot found");
            socket->disconnectFromHost();
            return;
        }
        const QByteArray all = file.readAll();
        qint64 start = 0;
        QByteArray head;
        if (!range.isEmpty() && !ignoreRange && range.startsWith("bytes=") && range.endsWith('-')) {
            start = range.mid(6, range.size() - 7).toLongLong();
            if (start >= all.size()) {
                bodyBytesSent.append(0);
                socket->write("HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */" +
                              QByteArray::number(all.size()) + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
                socket->disconnectFromHost();
                return;
            }
            head = "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes " + QByteArray::number(start) + '-' +
                   QByteArray::number(all.size() - 1) + '/' + QByteArray::number(all.size()) + "\r\n";
        } else {
            head = "HTTP/1.1 200 OK\r\n";
        }
        QByteArray body = all.mid(start);
        if (shortLength >= 0)
            body.truncate(shortLength);
        head += "Content-Type: application/octet-stream\r\nContent-Length: " + QByteArray::number(body.size()) +
                "\r\nConnection: close\r\n\r\n";
        if (dropAfterBytes >= 0)
            body.truncate(dropAfterBytes);
        bodyBytesSent.append(body.size());
        socket->write(head);
        // Send in slices so that the client sees progress (and a cancel can land mid-way).
        auto rest = std::make_shared<QByteArray>(body);
        auto* timer = new QTimer(socket);
        connect(timer, &QTimer::timeout, socket, [socket, rest, timer] {
            const qint64 n = std::min<qint64>(rest->size(), 64 * 1024);
            socket->write(rest->left(n));
            rest->remove(0, n);
            if (rest->isEmpty()) {
                timer->stop();
                socket->disconnectFromHost();
            }
        });
        timer->start(2);
    }

    QTcpServer m_server;
    QString m_root;
};

QString sha256(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromLatin1(QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex());
}

// A server, an empty download folder, a downloader into it and spies on how it ends.
struct DownloadRig
{
    explicit DownloadRig(const QString& root) : server(root) { downloader.setDirectory(dir.path()); }
    LoopbackHttpServer server;
    QTemporaryDir dir;
    ws::ModelDownloader downloader;
    QSignalSpy finished{&downloader, &ws::ModelDownloader::downloadFinished};
    QSignalSpy failed{&downloader, &ws::ModelDownloader::downloadFailed};
};

} // namespace

class TestModelDownloader : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QNetworkProxy::setApplicationProxy(QNetworkProxy::NoProxy); }

    void downloadsAndVerifies()
    {
        WS_REQUIRE_MODEL(source, "stories260K/stories260K.bin");
        LoopbackHttpServer server(wstest::testModelsDir());
        QVERIFY(server.listen());
        QTemporaryDir dir;
        ws::ModelDownloader downloader;
        downloader.setDirectory(dir.path());
        QSignalSpy finished(&downloader, &ws::ModelDownloader::downloadFinished);
        QSignalSpy failed(&downloader, &ws::ModelDownloader::downloadFailed);
        QSignalSpy progress(&downloader, &ws::ModelDownloader::progressChanged);
        const QUrl url = server.url(QStringLiteral("stories260K/stories260K.bin"));
        QVERIFY(downloader.start(url, kStoriesBinSha.toUpper()));
        QVERIFY(downloader.isRunning());
        QVERIFY(!downloader.start(url)); // one at a time
        QVERIFY(finished.wait(10000));
        QCOMPARE(failed.count(), 0);
        const QString path = finished.at(0).at(0).toString();
        QCOMPARE(path, downloader.targetPath(url));
        QCOMPARE(finished.at(0).at(1).toString(), kStoriesBinSha);
        QCOMPARE(sha256(path), kStoriesBinSha);
        QVERIFY(!QFile::exists(downloader.partialPath(url)));
        QVERIFY2(progress.count() >= 2, qPrintable(QString::number(progress.count())));
        QCOMPARE(progress.last().at(0).toLongLong(), QFileInfo(path).size());
        QCOMPARE(progress.last().at(1).toLongLong(), QFileInfo(path).size());
        QVERIFY(!downloader.isRunning());
    }

    void interruptedThenResumed_data()
    {
        QTest::addColumn<bool>("serverHonoursRange");
        QTest::newRow("resumed with a Range request") << true;
        QTest::newRow("server ignores Range: starts over") << false;
    }
    void interruptedThenResumed()
    {
        QFETCH(bool, serverHonoursRange);
        WS_REQUIRE_MODEL(source, "stories260K/stories260K.bin");
        const qint64 size = QFileInfo(source_q).size();
        LoopbackHttpServer server(wstest::testModelsDir());
        QVERIFY(server.listen());
        QTemporaryDir dir;
        ws::ModelDownloader downloader;
        downloader.setDirectory(dir.path());
        QSignalSpy finished(&downloader, &ws::ModelDownloader::downloadFinished);
        QSignalSpy failed(&downloader, &ws::ModelDownloader::downloadFailed);
        const QUrl url = server.url(QStringLiteral("stories260K/stories260K.bin"));

        server.dropAfterBytes = 400000;
        QVERIFY(downloader.start(url, kStoriesBinSha));
        QVERIFY(failed.wait(10000));
        QCOMPARE(finished.count(), 0);
        QCOMPARE(failed.at(0).at(1).toBool(), true); // can resume
        QCOMPARE(downloader.resumableBytes(url), qint64(400000));
        QVERIFY(!QFile::exists(downloader.targetPath(url)));

        server.dropAfterBytes = -1;
        server.ignoreRange = !serverHonoursRange;
        QVERIFY(downloader.start(url, kStoriesBinSha));
        QVERIFY(finished.wait(10000));
        QCOMPARE(failed.count(), 1);
        QCOMPARE(server.rangeHeaders.size(), 2);
        QCOMPARE(server.rangeHeaders.at(0), QByteArray());
        QCOMPARE(server.rangeHeaders.at(1), QByteArray("bytes=400000-"));
        QCOMPARE(server.bodyBytesSent.at(1), serverHonoursRange ? size - 400000 : size);
        QCOMPARE(sha256(finished.at(0).at(0).toString()), kStoriesBinSha);
        QCOMPARE(QFileInfo(finished.at(0).at(0).toString()).size(), size);
    }

    void failures_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("expectedSha");
        QTest::addColumn<QString>("messagePart");
        QTest::newRow("checksum mismatch deletes the download")
            << "stories260K/stories260K.bin" << kTok512BinSha << "Checksum mismatch";
        QTest::newRow("missing file on the server") << "stories260K/nothing.gguf" << QString() << "404";
    }
    void failures()
    {
        QFETCH(QString, path);
        QFETCH(QString, expectedSha);
        QFETCH(QString, messagePart);
        WS_REQUIRE_MODEL(source, "stories260K/stories260K.bin");
        LoopbackHttpServer server(wstest::testModelsDir());
        QVERIFY(server.listen());
        QTemporaryDir dir;
        ws::ModelDownloader downloader;
        downloader.setDirectory(dir.path());
        QSignalSpy finished(&downloader, &ws::ModelDownloader::downloadFinished);
        QSignalSpy failed(&downloader, &ws::ModelDownloader::downloadFailed);
        const QUrl url = server.url(path);
        QVERIFY(downloader.start(url, expectedSha));
        QVERIFY(failed.wait(10000));
        QCOMPARE(finished.count(), 0);
        QVERIFY2(failed.at(0).at(0).toString().contains(messagePart), qPrintable(failed.at(0).at(0).toString()));
        QCOMPARE(failed.at(0).at(1).toBool(), false);
        QVERIFY(!QFile::exists(downloader.targetPath(url)));
        QVERIFY(!QFile::exists(downloader.partialPath(url)));
        QVERIFY(!downloader.isRunning());
    }

    void badInput_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("sha");
        QTest::newRow("not http") << "file:///etc/passwd" << QString();
        QTest::newRow("checksum too short") << "http://127.0.0.1:9/x.gguf"
                                            << "abc123";
        QTest::newRow("checksum not hex") << "http://127.0.0.1:9/x.gguf" << QString(64, QLatin1Char('z'));
    }
    void badInput()
    {
        QFETCH(QString, url);
        QFETCH(QString, sha);
        QTemporaryDir dir;
        ws::ModelDownloader downloader;
        downloader.setDirectory(dir.path());
        QSignalSpy failed(&downloader, &ws::ModelDownloader::downloadFailed);
        QVERIFY(!downloader.start(QUrl(url), sha));
        QCOMPARE(failed.count(), 1);
        QVERIFY(!downloader.isRunning());
    }

    void cancelKeepsPartialForResume()
    {
        WS_REQUIRE_MODEL(source, "stories260K/stories260K.bin");
        LoopbackHttpServer server(wstest::testModelsDir());
        QVERIFY(server.listen());
        QTemporaryDir dir;
        ws::ModelDownloader downloader;
        downloader.setDirectory(dir.path());
        QSignalSpy cancelled(&downloader, &ws::ModelDownloader::downloadCancelled);
        QSignalSpy finished(&downloader, &ws::ModelDownloader::downloadFinished);
        const QUrl url = server.url(QStringLiteral("stories260K/stories260K.bin"));
        connect(&downloader, &ws::ModelDownloader::progressChanged, &downloader, [&](qint64 received, qint64) {
            if (received > 100000)
                downloader.cancel();
        });
        QVERIFY(downloader.start(url));
        QVERIFY(cancelled.wait(10000));
        QCOMPARE(finished.count(), 0);
        const qint64 kept = downloader.resumableBytes(url);
        QVERIFY(kept > 100000);
        downloader.disconnect(&downloader);
        QVERIFY(downloader.start(url, kStoriesBinSha));
        QVERIFY(finished.wait(10000));
        QCOMPARE(server.rangeHeaders.last(), QByteArray("bytes=" + QByteArray::number(kept) + '-'));
        QCOMPARE(sha256(finished.at(0).at(0).toString()), kStoriesBinSha);
    }

    // Cut at every stage of the body: never a file under the model's name, the partial kept only for a resume.
    void interruptedAtEveryStage_data()
    {
        QTest::addColumn<qint64>("dropAfter");
        for (qint64 n : {qint64(0), qint64(1), qint64(4096), qint64(65537), qint64(1056539)})
            QTest::addRow("after %lld bytes", static_cast<long long>(n)) << n;
    }
    void interruptedAtEveryStage()
    {
        QFETCH(qint64, dropAfter);
        WS_REQUIRE_MODEL(source, "stories260K/stories260K.bin");
        DownloadRig rig(wstest::testModelsDir());
        QVERIFY(rig.server.listen());
        const QUrl url = rig.server.url(QStringLiteral("stories260K/stories260K.bin"));
        rig.server.dropAfterBytes = dropAfter;
        QVERIFY(rig.downloader.start(url)); // no checksum: only the length and the format guard it
        QVERIFY(rig.failed.wait(10000));
        QCOMPARE(rig.finished.count(), 0);
        QVERIFY(!QFile::exists(rig.downloader.targetPath(url)));
        QCOMPARE(QDir(rig.dir.path()).entryList(QDir::Files),
                 dropAfter > 0 ? QStringList{"stories260K.bin.part"} : QStringList{});
        QCOMPARE(rig.failed.at(0).at(1).toBool(), dropAfter > 0);
        QCOMPARE(rig.downloader.resumableBytes(url), dropAfter);
    }

    // The server says the file is shorter than it is, or sends garbage: the length matches what came, so
    // only the format check stands between it and the model list. Nothing is kept.
    void wrongLengthOrGarbageIsNeverUsed_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<qint64>("shortLength");
        QTest::newRow("llama2.c, short length") << "stories260K/stories260K.bin" << qint64(500000);
        QTest::newRow("gguf, short length") << "stories260K/stories260K.gguf" << qint64(600000);
        QTest::newRow("garbage gguf") << "junk.gguf" << qint64(-1);
        QTest::newRow("html error page") << "page.gguf" << qint64(-1);
    }
    void wrongLengthOrGarbageIsNeverUsed()
    {
        QFETCH(QString, path);
        QFETCH(qint64, shortLength);
        WS_REQUIRE_MODEL(source, "stories260K/stories260K.bin");
        QTemporaryDir root;
        QVERIFY(QDir().mkpath(root.filePath(QStringLiteral("stories260K"))));
        for (const QString& name :
             {QStringLiteral("stories260K/stories260K.bin"), QStringLiteral("stories260K/stories260K.gguf")})
            QVERIFY(QFile::copy(wstest::testModelPath(name), root.filePath(name)));
        QFile junk(root.filePath(QStringLiteral("junk.gguf")));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        QByteArray bytes("GGUF\x03\0\0\0", 8);
        for (int i = 0; i < 70000; ++i)
            bytes.append(char((i * 2654435761u) >> 13));
        junk.write(bytes);
        junk.close();
        QFile page(root.filePath(QStringLiteral("page.gguf")));
        QVERIFY(page.open(QIODevice::WriteOnly));
        page.write("<html><body>Please log in to download this model</body></html>");
        page.close();

        DownloadRig rig(root.path());
        QVERIFY(rig.server.listen());
        rig.server.shortLength = shortLength;
        QVERIFY(rig.downloader.start(rig.server.url(path)));
        QVERIFY(rig.failed.wait(10000));
        QCOMPARE(rig.finished.count(), 0);
        QVERIFY2(rig.failed.at(0).at(0).toString().contains(QStringLiteral("not a model file")),
                 qPrintable(rig.failed.at(0).at(0).toString()));
        QCOMPARE(rig.failed.at(0).at(1).toBool(), false);
        QCOMPARE(QDir(rig.dir.path()).entryList(QDir::Files), QStringList{});
    }

    void existingFileIsKept()
    {
        WS_REQUIRE_MODEL(source, "stories260K/tok512.bin");
        LoopbackHttpServer server(wstest::testModelsDir());
        QVERIFY(server.listen());
        QTemporaryDir dir;
        ws::ModelDownloader downloader;
        downloader.setDirectory(dir.path());
        const QUrl url = server.url(QStringLiteral("stories260K/tok512.bin"));
        QFile old(downloader.targetPath(url));
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("my own file");
        old.close();
        QSignalSpy finished(&downloader, &ws::ModelDownloader::downloadFinished);
        QVERIFY(downloader.start(url, kTok512BinSha));
        QVERIFY(finished.wait(10000));
        const QString path = finished.at(0).at(0).toString();
        QVERIFY(path != downloader.targetPath(url));
        QCOMPARE(sha256(path), kTok512BinSha);
        QVERIFY(old.open(QIODevice::ReadOnly));
        QCOMPARE(old.readAll(), QByteArray("my own file"));
    }
};

QTEST_GUILESS_MAIN(TestModelDownloader)
#include "tst_modeldownloader.moc"
