// File > Export Data on a full wafer: the per-core SRAM map of Llama 3.1 8B on
// one WSE-3 (every core of the wafer, ~900,000 rows) written to JSON and CSV on
// a worker thread, with progress rising to the row count; the file parses and
// has one row per core of the hardware preset's mesh. Cancelling midway
// leaves no file (nor a temporary one), keeps an older file as it was and
// changes nothing else. Prints the time and peak memory of each export.
#include "app/common/presetlibrary.h"
#include "app/export/tableexportjob.h"
#include "app/window/filemenucontroller.h"
#include "tests/app/window/filemenufixture.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QMainWindow>
#include <QProgressDialog>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/resource.h>

using namespace ws;

namespace {

const QString kSramMap = QStringLiteral("SRAM map (per core)");

long peakRssMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024; // Linux: KiB
}

} // namespace

class TestDataExport : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        Scenario shown;
        shown.modelPreset = QStringLiteral("llama-3.1-8b");
        shown.hardwarePreset = QStringLiteral("wse3");
        shown.devices = 1;
        m_files.setUp(shown);
        m_files.controller->addScenarioDataExports(m_presets);
        const auto hardware = m_presets.hardware("wse3");
        QVERIFY(hardware);
        m_cores = qsizetype(hardware->wafer.meshCols) * hardware->wafer.meshRows; // one row per core of one wafer
        QVERIFY(m_cores > 800'000);
    }
    void cleanup() { m_files.tearDown(); }

    void fullWaferStreams_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::newRow("json") << "json";
        QTest::newRow("csv") << "csv";
    }

    void fullWaferStreams()
    {
        QFETCH(QString, suffix);
        QTemporaryDir dir;
        const QString path = dir.filePath("sram." + suffix);
        QSignalSpy status(m_files.controller, &FileMenuController::statusMessage);
        QElapsedTimer timer;
        timer.start();
        const long rssBefore = peakRssMiB();
        TableExportJob* job = m_files.controller->exportDataTo(kSramMap, path);
        const qint64 placed = timer.elapsed(); // the placement, on the GUI thread; the rows are written after
        QVERIFY(job);
        QSignalSpy progress(job, &TableExportJob::progressChanged);
        QSignalSpy finished(job, &TableExportJob::finished);
        QVERIFY(finished.wait(300'000));
        qInfo("bench: SRAM map of a full WSE-3 (%lld rows) as %s: %lld ms (%lld ms placing), %lld MB, peak RSS %ld MiB "
              "before, "
              "%ld MiB after",
              qlonglong(m_cores), qPrintable(suffix), qlonglong(timer.elapsed()), qlonglong(placed),
              qlonglong(QFileInfo(path).size() / 1'000'000), rssBefore, peakRssMiB());
        QTRY_VERIFY(status.size() >= 1);
        QVERIFY(status.last().at(0).toString().contains(path));

        QVERIFY(progress.size() > 10); // rows reported as they go, not once at the end
        qint64 last = -1;
        for (const QList<QVariant>& report : progress) {
            QVERIFY(report.at(0).toLongLong() >= last);
            QCOMPARE(report.at(1).toLongLong(), qint64(m_cores));
            last = report.at(0).toLongLong();
        }
        QCOMPARE(last, qint64(m_cores));

        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        if (suffix == "json") {
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
            QCOMPARE(error.error, QJsonParseError::NoError);
            const QJsonArray rows = doc.object()["rows"].toArray();
            QCOMPARE(rows.size(), m_cores);
            const QJsonObject lastCore = rows.last().toObject();
            QCOMPARE(lastCore["x"].toInt(), m_presets.hardware("wse3")->wafer.meshCols - 1);
            QVERIFY(lastCore["activity"].isNull()); // no dataflow frame: unknown, not 0
        } else {
            qsizetype lines = 0;
            while (!file.atEnd()) {
                const QByteArray line = file.readLine();
                if (line.startsWith('#'))
                    continue;
                QVERIFY(line.endsWith("\r\n"));
                QCOMPARE(line.count(','), 9); // ten fields (tensor kinds and states have no commas)
                if (lines > 0)
                    QCOMPARE(line.split(',').at(8), QByteArray()); // activity: no dataflow frame, unknown, empty
                ++lines;
            }
            QCOMPARE(lines, m_cores + 1); // the header row, then one row per core
        }
    }

    void cancelLeavesNothing()
    {
        QTemporaryDir dir;
        const QString fresh = dir.filePath("fresh.json");
        const QString older = dir.filePath("older.csv");
        QFile old(older);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("kept\n");
        old.close();
        const Scenario before = m_files.shown;
        const bool modifiedBefore = m_files.controller->isModified();

        for (const QString& path : {fresh, older}) {
            QSignalSpy status(m_files.controller, &FileMenuController::statusMessage);
            TableExportJob* job = m_files.controller->exportDataTo(kSramMap, path);
            QVERIFY(job);
            QSignalSpy cancelled(job, &TableExportJob::cancelled);
            QSignalSpy finished(job, &TableExportJob::finished);
            qint64 doneAtCancel = 0;
            connect(job, &TableExportJob::progressChanged, job, [job, &doneAtCancel](qint64 done, qint64 total) {
                if (!doneAtCancel && done >= total / 3) {
                    doneAtCancel = done;
                    job->cancel();
                }
            });
            QVERIFY(cancelled.wait(300'000));
            QCOMPARE(finished.size(), 0);
            QVERIFY(doneAtCancel > 0 && doneAtCancel < m_cores); // it was cancelled midway
            QTRY_VERIFY(status.size() >= 1);
            QVERIFY(status.last().at(0).toString().contains("cancelled"));
            QVERIFY(status.last().at(0).toString().contains(path));
        }
        QVERIFY(!QFile::exists(fresh));
        QVERIFY(old.open(QIODevice::ReadOnly));
        QCOMPARE(old.readAll(), QByteArray("kept\n"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"older.csv"}); // no temp files
        QVERIFY(m_files.shown == before);
        QCOMPARE(m_files.controller->isModified(), modifiedBefore);
        // The controller takes the next export.
        QVERIFY(m_files.controller->exportDataTo(QStringLiteral("Prediction"), dir.filePath("prediction.csv")));
        QTRY_VERIFY(QFile::exists(dir.filePath("prediction.csv")));
    }

    void progressDialogCancels()
    {
        // In the window: a progress dialog counts rows of all, and its Cancel stops the export.
        m_files.controller->setInteractive(true);
        m_files.window->show();
        QTemporaryDir dir;
        const QString path = dir.filePath("dialog.csv");
        TableExportJob* job = m_files.controller->exportDataTo(kSramMap, path);
        QVERIFY(job);
        QSignalSpy cancelled(job, &TableExportJob::cancelled);
        auto* dialog = m_files.window->findChild<QProgressDialog*>();
        QVERIFY(dialog);
        QCOMPARE(dialog->maximum(), int(m_cores));
        QTRY_VERIFY_WITH_TIMEOUT(dialog->value() > 0, 60'000);
        QVERIFY(dialog->labelText().contains(QLocale().toString(qlonglong(m_cores))));
        if (const QString keep = qEnvironmentVariable("WAFERSCOPE_TEST_FRAMES_DIR"); !keep.isEmpty())
            dialog->grab().save(keep + "/export-progress.png"); // for a person to look at
        auto* cancel = dialog->findChild<QPushButton*>();
        QVERIFY(cancel && cancel->text() == "Cancel");
        cancel->click(); // as a user does
        QVERIFY(cancelled.wait(60'000));
        QVERIFY(!QFile::exists(path));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{});
        QTRY_VERIFY(!m_files.window->findChild<QProgressDialog*>()); // the dialog goes with the job
    }

private:
    PresetLibrary m_presets{QString{}};
    wstest::FileMenuFixture m_files;
    qsizetype m_cores = 0;
};

QTEST_MAIN(TestDataExport)
#include "tst_dataexport.moc"
