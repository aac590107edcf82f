// waferscope-cli record --tour, run as a real process: the tour recorded offscreen in the real window is an MP4
// that FFmpeg decodes with fps × the tour's length frames; a bad tour exits 2 with one line naming the step.
#include "app/common/languagemanager.h"
#include "app/common/presetlibrary.h"
#include "app/dataflow/dataflowdock.h"
#include "app/record/videoprobe.h"
#include "app/window/mainwindow.h"
#include "tests/common/clirunner.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace ws;

class TestTourRecord : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void recordsEveryFrameOfTheTour()
    {
        QTemporaryDir dir;
        const QString tour = dir.filePath(QStringLiteral("short.json"));
        QFile file(tour);
        QVERIFY(file.open(QIODevice::WriteOnly));
        // 1.5 + 1 + 0.5 s of captions, race and wait, and one token of the placement's dataflow.
        file.write(R"({"version": 1, "title": "Short", "steps": [
            {"kind": "open", "model": "qwen3-32b", "hardware": "wse3", "precision": "bf16", "context": 8192},
            {"kind": "layer", "layer": "dataflow"},
            {"kind": "caption", "text": "One token of {model}: {token_time}", "seconds": 1.5},
            {"kind": "play", "tokens": 1, "wafer_us_per_second": 1000},
            {"kind": "race", "seconds": 1},
            {"kind": "wait", "seconds": 0.5}]})");
        file.close();
        const QString out = dir.filePath(QStringLiteral("tour.mp4"));
        const int fps = 10;
        const auto run = wstest::runCli({QStringLiteral("record"), QStringLiteral("--tour"), tour,
                                         QStringLiteral("--out"), out, QStringLiteral("--fps"), QString::number(fps),
                                         QStringLiteral("--width"), QStringLiteral("640"), QStringLiteral("--height"),
                                         QStringLiteral("360"), QStringLiteral("--json")},
                                        wstest::headlessEnvironment());
        QVERIFY2(run.exitCode == 0, run.err.constData());

        // The length of the token from the engine's schedule for the same placement, in this process.
        const PresetLibrary presets{QString()};
        LanguageManager languages;
        MainWindow window(presets, languages);
        QSignalSpy placed(&window, &MainWindow::placementFinished);
        window.setRequest(MainWindow::defaultRequest()); // Qwen3-32B, bf16, WSE-3, 8,192 tokens
        QVERIFY(placed.wait(120000));
        const double tokenSeconds = window.dataflowDock()->controller()->schedule()->seconds();
        QVERIFY(tokenSeconds > 0);
        const double tourSeconds = 1.5 + tokenSeconds / 1000e-6 + 1 + 0.5;
        const int expected = int(std::ceil(tourSeconds * fps - 1e-6));

        QString error;
        const auto probe = VideoProbe::probe(out, &error);
        QVERIFY2(probe, qPrintable(error));
        QCOMPARE(probe->codecName, QStringLiteral("h264"));
        QCOMPARE(probe->frameSize, QSize(640, 360));
        QCOMPARE(probe->frameCount, expected);
        const QJsonObject json = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(json.value(QStringLiteral("frames")).toInt(), expected);
        QVERIFY(std::abs(json.value(QStringLiteral("tour_seconds")).toDouble() - tourSeconds) < 1e-6);
    }

    void badTourIsRefused()
    {
        QTemporaryDir dir;
        const QString tour = dir.filePath(QStringLiteral("bad.json"));
        QFile file(tour);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(
            R"({"version": 1, "title": "Bad", "steps": [{"kind": "wait", "seconds": 1}, {"kind": "zoom", "region": "all"}]})");
        file.close();
        const QString out = dir.filePath(QStringLiteral("bad.mp4"));
        const auto run =
            wstest::runCli({QStringLiteral("record"), QStringLiteral("--tour"), tour, QStringLiteral("--out"), out},
                           wstest::headlessEnvironment());
        QCOMPARE(run.exitCode, 2);
        const QByteArray line = run.err.trimmed();
        QVERIFY2(!line.contains('\n'), line.constData());
        QVERIFY2(line.contains(tour.toUtf8() + ": step 2 (zoom): 'region' must be [x, y, width, height]"),
                 line.constData());
        QVERIFY(!QFile::exists(out));

        // The window's --present refuses it the same way.
        QProcess app;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("HOME"), dir.path()); // no settings or autosave of the user's
        app.setProcessEnvironment(env);
        app.start(wstest::appBinary(), {QStringLiteral("--present"), tour});
        QVERIFY(app.waitForFinished(120000));
        QCOMPARE(app.exitCode(), 2);
        const QByteArray appErr = app.readAllStandardError().trimmed();
        QVERIFY2(appErr.endsWith("waferscope: " + tour.toUtf8() +
                                 ": step 2 (zoom): 'region' must be [x, y, width, height] in cores "
                                 "(x, y >= 0; width, height >= 1)"),
                 appErr.constData());
    }
};

QTEST_MAIN(TestTourRecord)
#include "tst_tourrecord.moc"
