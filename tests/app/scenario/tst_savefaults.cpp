// Save, autosave, export and recording into a folder that is read-only or whose disk is full: each
// reports the error and the previous file stays byte for byte (they all write through QSaveFile).
// As root (CI) permissions do not stop writes, so the folder is a tiny tmpfs, remounted read-only or
// filled up; where mounting is not allowed, read-only falls back to chmod and "full" is skipped (an
// allow-listed skip, tests/common/testskips.h, as is a read-only remount refused while a file is open).
#include "app/export/exporter.h"
#include "app/record/videoencoder.h"
#include "app/scenario/autosave.h"
#include "app/scenario/scenarioformat.h"
#include "tests/common/testskips.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>

#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

namespace {

enum class Fault
{
    ReadOnly,
    Full
};

// What came of making a fault happen.
enum class Applied
{
    Yes,
    NoMount,     // a full disk needs a tmpfs, and mount(2) was refused
    RemountBusy, // the tmpfs cannot turn read-only while a file in it is open for writing
    Failed,      // anything else: the test fails
};

class FaultyFolder
{
public:
    FaultyFolder() : m_path(m_dir.path())
    {
        m_mounted =
            ::geteuid() == 0 && ::mount("tmpfs", m_path.toLocal8Bit().constData(), "tmpfs", 0, "size=256k") == 0;
    }
    ~FaultyFolder()
    {
        if (m_mounted)
            ::umount2(m_path.toLocal8Bit().constData(), MNT_DETACH);
        else
            QFile::setPermissions(m_path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    QString file(const QString& name) const { return QDir(m_path).filePath(name); }
    // Makes the fault happen, or says why this machine cannot.
    Applied apply(Fault fault)
    {
        if (fault == Fault::ReadOnly) {
            if (m_mounted)
                return ::mount("tmpfs", m_path.toLocal8Bit().constData(), "tmpfs", MS_REMOUNT | MS_RDONLY,
                               "size=256k") == 0
                           ? Applied::Yes
                           : Applied::RemountBusy;
            return QFile::setPermissions(m_path, QFile::ReadOwner | QFile::ExeOwner) ? Applied::Yes : Applied::Failed;
        }
        if (!m_mounted)
            return Applied::NoMount;
        const int fd = ::open(file(QStringLiteral("filler")).toLocal8Bit().constData(), O_WRONLY | O_CREAT, 0600);
        if (fd < 0)
            return Applied::Failed;
        const char chunk[512] = {};
        while (::write(fd, chunk, sizeof chunk) > 0) {
        }
        const bool full = errno == ENOSPC;
        ::close(fd);
        return full ? Applied::Yes : Applied::Failed; // the filler stopped before the disk was full
    }
    QStringList entries() const
    {
        QStringList e = QDir(m_path).entryList(QDir::Files | QDir::Hidden);
        e.removeAll(QStringLiteral("filler"));
        return e;
    }

private:
    QTemporaryDir m_dir;
    QString m_path;
    bool m_mounted = false;
};

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

ws::Scenario scenarioWithBatch(int batch)
{
    ws::Scenario s;
    s.modelPreset = QStringLiteral("qwen3-32b");
    s.batch = batch;
    return s;
}

void addFaults()
{
    QTest::addColumn<int>("fault");
    QTest::newRow("read-only folder") << int(Fault::ReadOnly);
    QTest::newRow("disk full") << int(Fault::Full);
}

} // namespace

#define APPLY_FAULT(folder)                                                                                            \
    do {                                                                                                               \
        QFETCH(int, fault);                                                                                            \
        switch ((folder).apply(Fault(fault))) {                                                                        \
        case Applied::Yes:                                                                                             \
            break;                                                                                                     \
        case Applied::NoMount:                                                                                         \
            WS_SKIP(kNoMount, QStringLiteral("a full disk needs a tmpfs mount, which this machine refuses"));          \
        case Applied::RemountBusy:                                                                                     \
            WS_SKIP(kRemountBusy, QStringLiteral("cannot remount read-only while a file in it is open for writing "    \
                                                 "(the autosave's session lock)"));                                    \
        case Applied::Failed:                                                                                          \
            QFAIL("the fault could not be made");                                                                      \
        }                                                                                                              \
    } while (false)

class TestSaveFaults : public QObject
{
    Q_OBJECT

private slots:
    void scenarioSave_data() { addFaults(); }
    void scenarioSave()
    {
        FaultyFolder folder;
        const QString path = folder.file(QStringLiteral("plan.waferscope"));
        QString error;
        QVERIFY2(ws::ScenarioFormat::save(scenarioWithBatch(4), path, &error), qPrintable(error));
        const QByteArray before = readAll(path);
        APPLY_FAULT(folder);
        QVERIFY(!ws::ScenarioFormat::save(scenarioWithBatch(4096), path, &error));
        QVERIFY2(error.contains(QStringLiteral("cannot save")), qPrintable(error));
        QCOMPARE(readAll(path), before);
        QCOMPARE(folder.entries(), QStringList{"plan.waferscope"});
    }

    void autosave_data() { addFaults(); }
    void autosave()
    {
        FaultyFolder folder;
        ws::Autosave autosave;
        autosave.setDirectory(folder.file(QString()));
        int batch = 4;
        autosave.setProvider([&] { return scenarioWithBatch(batch); });
        QVERIFY(autosave.beginSession());
        QVERIFY(autosave.saveNow());
        const QByteArray before = readAll(autosave.autosavePath());
        QVERIFY(before.contains("\"batch\""));
        APPLY_FAULT(folder);
        QSignalSpy failed(&autosave, &ws::Autosave::autosaveFailed);
        batch = 4096;
        QVERIFY(!autosave.saveNow());
        QCOMPARE(failed.count(), 1);
        QVERIFY2(failed.at(0).at(0).toString().contains(QStringLiteral("cannot autosave")),
                 qPrintable(failed.at(0).at(0).toString()));
        QCOMPARE(readAll(autosave.autosavePath()), before);
    }

    void exportImageAndTable_data() { addFaults(); }
    void exportImageAndTable()
    {
        FaultyFolder folder;
        const QString png = folder.file(QStringLiteral("wafer.png"));
        QImage image(64, 64, QImage::Format_RGB32);
        image.fill(Qt::darkCyan);
        QString error;
        QVERIFY2(ws::Exporter::saveImage(image, png, &error), qPrintable(error));
        const QByteArray before = readAll(png);
        APPLY_FAULT(folder);
        QImage bigger(512, 512, QImage::Format_RGB32);
        for (int y = 0; y < bigger.height(); ++y)
            for (int x = 0; x < bigger.width(); ++x)
                bigger.setPixel(x, y, qRgb((x * 7) & 255, (y * 13) & 255, (x * y) & 255)); // does not compress away
        error.clear();
        QVERIFY(!ws::Exporter::saveImage(bigger, png, &error));
        QVERIFY(!error.isEmpty());
        QCOMPARE(readAll(png), before);
        QCOMPARE(folder.entries(), QStringList{"wafer.png"});
    }

    void recording_data() { addFaults(); }
    void recording()
    {
        FaultyFolder folder;
        const QString gif = folder.file(QStringLiteral("demo.gif"));
        QFile old(gif);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("the earlier recording");
        old.close();
        APPLY_FAULT(folder);
        ws::VideoEncoder encoder;
        bool ok = encoder.open(gif, ws::VideoSettings{ws::VideoFormat::Gif, QSize(128, 128), 10});
        for (int i = 0; ok && i < 60; ++i) {
            QImage frame(128, 128, QImage::Format_RGB32);
            for (int y = 0; y < 128; ++y)
                for (int x = 0; x < 128; ++x)
                    frame.setPixel(x, y, qRgb((x * i) & 255, (y * 3 + i) & 255, (x ^ y) & 255));
            ok = encoder.addFrame(frame);
        }
        if (ok)
            ok = encoder.finish();
        QVERIFY(!ok);
        QVERIFY(!encoder.errorString().isEmpty());
        QCOMPARE(readAll(gif), QByteArray("the earlier recording"));
        QCOMPARE(folder.entries(), QStringList{"demo.gif"});
    }
};

QTEST_MAIN(TestSaveFaults)
#include "tst_savefaults.moc"
