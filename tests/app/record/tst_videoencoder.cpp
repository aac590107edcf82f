// VideoEncoder, GifWriter, Recorder and VideoProbe: files written with FFmpeg's
// libraries and giflib decode back (with FFmpeg) to the frames that went in.
#include "app/record/gifwriter.h"
#include "app/record/recorder.h"
#include "app/record/videoencoder.h"
#include "app/record/videoprobe.h"

#include <QFile>
#include <QPainter>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace ws;

namespace {

// A frame with a moving bar, so successive frames differ.
QImage testFrame(QSize size, int index, QRgb background = qRgb(20, 40, 200))
{
    QImage image(size, QImage::Format_ARGB32);
    image.fill(background);
    QPainter painter(&image);
    painter.fillRect(QRect((index * 7) % size.width(), 0, 6, size.height()), Qt::yellow);
    return image;
}

int channelDistance(QRgb a, QRgb b)
{
    return std::max({std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)), std::abs(qBlue(a) - qBlue(b))});
}

} // namespace

class TestVideoEncoder : public QObject
{
    Q_OBJECT

private slots:
    void formatFromSuffix_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("format"); // -1: not a video file
        QTest::newRow("mp4") << "a/b.mp4" << int(VideoFormat::Mp4);
        QTest::newRow("webm upper case") << "clip.WEBM" << int(VideoFormat::WebM);
        QTest::newRow("gif") << "x.gif" << int(VideoFormat::Gif);
        QTest::newRow("png") << "x.png" << -1;
        QTest::newRow("no suffix") << "movie" << -1;
    }
    void formatFromSuffix()
    {
        QFETCH(QString, path);
        QFETCH(int, format);
        const auto parsed = videoFormatFromPath(path);
        QCOMPARE(parsed ? int(*parsed) : -1, format);
    }

    void writesAndDecodes_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<QSize>("requested");
        QTest::addColumn<QSize>("expected");
        QTest::addColumn<QString>("codec");
        QTest::addColumn<int>("frames");
        QTest::newRow("mp4 even size") << int(VideoFormat::Mp4) << QSize(96, 64) << QSize(96, 64) << "h264" << 7;
        QTest::newRow("mp4 odd size rounds down")
            << int(VideoFormat::Mp4) << QSize(97, 65) << QSize(96, 64) << "h264" << 5;
        QTest::newRow("webm") << int(VideoFormat::WebM) << QSize(80, 48) << QSize(80, 48) << "vp9" << 6;
        QTest::newRow("gif odd size kept") << int(VideoFormat::Gif) << QSize(81, 47) << QSize(81, 47) << "gif" << 5;
    }
    void writesAndDecodes()
    {
        QFETCH(int, format);
        QFETCH(QSize, requested);
        QFETCH(QSize, expected);
        QFETCH(QString, codec);
        QFETCH(int, frames);
        QTemporaryDir dir;
        const QString suffix = format == int(VideoFormat::Mp4)    ? "mp4"
                               : format == int(VideoFormat::WebM) ? "webm"
                                                                  : "gif";
        const QString path = dir.filePath("clip." + suffix);
        VideoEncoder encoder;
        VideoSettings settings{VideoFormat(format), requested, 10};
        QVERIFY2(encoder.open(path, settings), qPrintable(encoder.errorString()));
        QCOMPARE(encoder.frameSize(), expected);
        for (int i = 0; i < frames; ++i) // frames at another size are scaled
            QVERIFY2(encoder.addFrame(testFrame(i % 2 ? requested : requested * 2, i)),
                     qPrintable(encoder.errorString()));
        QVERIFY(!QFile::exists(path)); // atomic: nothing at the target until finish()
        QVERIFY2(encoder.finish(), qPrintable(encoder.errorString()));
        QVERIFY(QFile::exists(path));

        QString error;
        const auto probed = VideoProbe::probe(path, &error);
        QVERIFY2(probed, qPrintable(error));
        QCOMPARE(probed->frameCount, frames);
        QCOMPARE(probed->frameSize, expected);
        QCOMPARE(probed->codecName, codec);
        // Colours survive: the background of frame 0 (away from the bar) decodes to what went in.
        const QRgb background = testFrame(expected, 0).pixel(expected.width() - 10, expected.height() / 2);
        const QRgb decoded = probed->firstFrame.pixel(expected.width() - 10, expected.height() / 2);
        QVERIFY2(channelDistance(background, decoded) <= 30,
                 qPrintable(QString("decoded %1, wrote %2").arg(decoded, 0, 16).arg(background, 0, 16)));
    }

    void metadataCarriesTheComment_data()
    {
        QTest::addColumn<int>("format");
        QTest::newRow("mp4") << int(VideoFormat::Mp4);
        QTest::newRow("webm") << int(VideoFormat::WebM);
        QTest::newRow("gif") << int(VideoFormat::Gif);
    }
    void metadataCarriesTheComment()
    {
        QFETCH(int, format);
        // Longer than one 255-byte GIF sub-block, and not ASCII only: the scenario's prompt can be anything.
        const QString comment = QStringLiteral("WaferScope 9.8.7 (git 0123456789); scenario: {\"prompt\":\"晶圆 %1\"}")
                                    .arg(QString(300, QLatin1Char('x')));
        QTemporaryDir dir;
        const QString suffix = format == int(VideoFormat::Mp4)    ? "mp4"
                               : format == int(VideoFormat::WebM) ? "webm"
                                                                  : "gif";
        const QString path = dir.filePath("stamped." + suffix);
        VideoEncoder encoder;
        QVERIFY2(encoder.open(path, VideoSettings{VideoFormat(format), QSize(32, 32), 10, comment}),
                 qPrintable(encoder.errorString()));
        for (int i = 0; i < 3; ++i)
            QVERIFY2(encoder.addFrame(testFrame(QSize(32, 32), i)), qPrintable(encoder.errorString()));
        QVERIFY2(encoder.finish(), qPrintable(encoder.errorString()));
        QString error;
        const auto probed = VideoProbe::probe(path, &error);
        QVERIFY2(probed, qPrintable(error));
        QCOMPARE(probed->frameCount, 3);
        QCOMPARE(probed->comment, comment);
    }

    void noCommentWritesNone()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("plain.gif");
        VideoEncoder encoder;
        QVERIFY(encoder.open(path, VideoSettings{VideoFormat::Gif, QSize(16, 16), 10}));
        QVERIFY(encoder.addFrame(testFrame(QSize(16, 16), 0)));
        QVERIFY(encoder.finish());
        QString error;
        const auto probed = VideoProbe::probe(path, &error);
        QVERIFY2(probed, qPrintable(error));
        QVERIFY(probed->comment.isEmpty());
    }

    void gifPaletteKeepsCubeColoursExactly()
    {
        for (int index = 0; index < 252; index += 5) {
            const QRgb colour = GifWriter::paletteColour(uint8_t(index));
            for (int y = 0; y < 4; ++y)
                for (int x = 0; x < 4; ++x)
                    QCOMPARE(int(GifWriter::paletteIndex(colour, x, y)), index);
        }
    }

    void gifDitherAveragesToTheInput_data()
    {
        QTest::addColumn<QRgb>("colour");
        QTest::newRow("mid grey") << qRgb(128, 128, 128);
        QTest::newRow("orange") << qRgb(240, 130, 20);
        QTest::newRow("dark teal") << qRgb(10, 90, 100);
    }
    void gifDitherAveragesToTheInput()
    {
        QFETCH(QRgb, colour);
        double sum[3] = {0, 0, 0};
        for (int y = 0; y < 4; ++y)
            for (int x = 0; x < 4; ++x) {
                const QRgb c = GifWriter::paletteColour(GifWriter::paletteIndex(colour, x, y));
                sum[0] += qRed(c);
                sum[1] += qGreen(c);
                sum[2] += qBlue(c);
            }
        // A 4x4 dither resolves 1/16 of a level step (51 or 42.5): within about 4 of the input.
        QVERIFY(std::abs(sum[0] / 16 - qRed(colour)) <= 4.0);
        QVERIFY(std::abs(sum[1] / 16 - qGreen(colour)) <= 4.0);
        QVERIFY(std::abs(sum[2] / 16 - qBlue(colour)) <= 4.0);
    }

    void badSettingsWriteNothing_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QSize>("size");
        QTest::addColumn<int>("fps");
        QTest::newRow("zero fps") << "a.mp4" << QSize(64, 64) << 0;
        QTest::newRow("huge fps") << "a.webm" << QSize(64, 64) << 1000;
        QTest::newRow("gif faster than 50 fps") << "a.gif" << QSize(64, 64) << 60;
        QTest::newRow("tiny size") << "a.gif" << QSize(4, 4) << 10;
        QTest::newRow("missing directory") << "no/such/dir/a.mp4" << QSize(64, 64) << 10;
    }
    void badSettingsWriteNothing()
    {
        QFETCH(QString, name);
        QFETCH(QSize, size);
        QFETCH(int, fps);
        QTemporaryDir dir;
        const QString path = dir.filePath(name);
        VideoEncoder encoder;
        QVERIFY(!encoder.open(path, VideoSettings{*videoFormatFromPath(path), size, fps}));
        QVERIFY(!encoder.errorString().isEmpty());
        QVERIFY(!QFile::exists(path));
    }

    void cancelKeepsTheOldFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("keep.gif");
        {
            QFile old(path);
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write("old contents");
        }
        VideoEncoder encoder;
        QVERIFY(encoder.open(path, VideoSettings{VideoFormat::Gif, QSize(32, 32), 10}));
        QVERIFY(encoder.addFrame(testFrame(QSize(32, 32), 0)));
        encoder.cancel();
        QFile old(path);
        QVERIFY(old.open(QIODevice::ReadOnly));
        QCOMPARE(old.readAll(), QByteArray("old contents"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1); // no temporary file left behind
    }

    void finishWithoutFramesFails()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("empty.mp4");
        VideoEncoder encoder;
        QVERIFY(encoder.open(path, VideoSettings{VideoFormat::Mp4, QSize(32, 32), 10}));
        QVERIFY(!encoder.finish());
        QVERIFY(!QFile::exists(path));
    }

    void probeRejectsCorruptFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("junk.mp4");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(1000, 'x'));
        file.close();
        QString error;
        QVERIFY(!VideoProbe::probe(path, &error));
        QVERIFY(error.contains(path));
    }

    void recorderReportsProgressAndFinishes()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("rec.webm");
        Recorder recorder;
        QSignalSpy progress(&recorder, &Recorder::progressChanged);
        QSignalSpy finished(&recorder, &Recorder::finished);
        int provided = 0;
        const bool ok = recorder.record(path, VideoSettings{VideoFormat::WebM, QSize(64, 48), 12}, 9, [&](int i) {
            ++provided;
            return testFrame(QSize(64, 48), i);
        });
        QVERIFY2(ok, qPrintable(recorder.errorString()));
        QCOMPARE(provided, 9);
        QCOMPARE(finished.size(), 1);
        QCOMPARE(progress.size(), 9);
        QCOMPARE(progress.last().at(0).toInt(), 9);
        QString error;
        const auto probed = VideoProbe::probe(path, &error);
        QVERIFY2(probed, qPrintable(error));
        QCOMPARE(probed->frameCount, 9);
    }

    void recorderRealTimePacing()
    {
        // Live capture: one frame every 1/fps seconds, whatever the encoder's speed.
        QTemporaryDir dir;
        const QString path = dir.filePath("live.gif");
        Recorder recorder;
        recorder.setPacing(Recorder::Pacing::RealTime);
        QList<int> asked;
        const bool ok = recorder.record(path, VideoSettings{VideoFormat::Gif, QSize(40, 30), 25}, 6, [&](int i) {
            asked << i;
            return testFrame(QSize(40, 30), i);
        });
        QVERIFY2(ok, qPrintable(recorder.errorString()));
        QCOMPARE(asked, QList<int>({0, 1, 2, 3, 4, 5}));
        QString error;
        const auto probed = VideoProbe::probe(path, &error);
        QVERIFY2(probed, qPrintable(error));
        QCOMPARE(probed->frameCount, 6);
    }

    void recorderCancelWritesNothing()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("rec.mp4");
        Recorder recorder;
        QSignalSpy cancelled(&recorder, &Recorder::cancelled);
        connect(&recorder, &Recorder::progressChanged, &recorder, [&](int done, int) {
            if (done == 3)
                recorder.cancel();
        });
        const bool ok = recorder.record(path, VideoSettings{VideoFormat::Mp4, QSize(64, 48), 12}, 200,
                                        [](int i) { return testFrame(QSize(64, 48), i); });
        QVERIFY(!ok);
        QCOMPARE(cancelled.size(), 1);
        QVERIFY(!recorder.isRunning());
        QVERIFY(!QFile::exists(path));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 0);
    }

    void recorderReportsAFailedFrame()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("rec.gif");
        Recorder recorder;
        QSignalSpy failed(&recorder, &Recorder::failed);
        const bool ok = recorder.record(path, VideoSettings{VideoFormat::Gif, QSize(32, 32), 12}, 10,
                                        [](int i) { return i == 4 ? QImage() : testFrame(QSize(32, 32), i); });
        QVERIFY(!ok);
        QCOMPARE(failed.size(), 1);
        QVERIFY(failed.first().at(0).toString().contains("4"));
        QVERIFY(!QFile::exists(path));
    }

    void destroyingARunningRecorderIsSafe()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("rec.mp4");
        {
            Recorder recorder;
            QVERIFY(recorder.start(path, VideoSettings{VideoFormat::Mp4, QSize(64, 48), 12}, 100,
                                   [](int i) { return testFrame(QSize(64, 48), i); }));
            QTest::qWait(20);
        }
        QVERIFY(!QFile::exists(path));
    }
};

QTEST_MAIN(TestVideoEncoder)
#include "tst_videoencoder.moc"
