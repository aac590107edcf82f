// waferscope-cli record --tour, run as a real process: the tour recorded offscreen in the real window is an MP4
// that FFmpeg decodes with fps × the tour's length frames; a bad tour exits 2 with one line naming the step.
#include "app/common/languagemanager.h"
#include "app/common/presetlibrary.h"
#include "app/compare/comparecontroller.h"
#include "app/dataflow/dataflowdock.h"
#include "app/present/presentationmode.h"
#include "app/present/tourformat.h"
#include "app/record/videoprobe.h"
#include "app/window/filemenucontroller.h"
#include "app/window/mainwindow.h"
#include "app/window/theme.h"
#include "tests/common/clirunner.h"
#include "tests/common/testmodels.h"
#include "views/compare/racelane.h"
#include "views/compare/tokenrace.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <QMainWindow>
#include <QPlainTextEdit>

#include <cmath>

using namespace ws;

class TestTourRecord : public QObject
{
    Q_OBJECT

    // Each race lane lies wholly inside the window and the frame, and its text area in `frame` (the recording at
    // that moment) holds text: pixels far from the area's background colour.
    static void checkLanes(QMainWindow& window, const QImage& frame, int index)
    {
        QVERIFY2(!frame.isNull(), qPrintable(QStringLiteral("frame %1 did not decode").arg(index)));
        ComparisonController* comparison = window.findChild<PresentationMode*>()->stage()->parts().comparison;
        views::TokenRace* race = comparison->race();
        QVERIFY(race && race->isVisible());
        QCOMPARE(race->laneCount(), 4);
        // The window as WidgetFrameSource draws it into the frame: scaled to fit, centred.
        const QSize fitted = window.size().scaled(frame.size(), Qt::KeepAspectRatio);
        const double scale = double(fitted.width()) / window.width();
        const QPointF offset((frame.width() - fitted.width()) / 2.0, (frame.height() - fitted.height()) / 2.0);
        for (int i = 0; i < race->laneCount(); ++i) {
            const views::RaceLane* lane = race->lane(i);
            const QString what = QStringLiteral("frame %1, lane %2 (%3)").arg(index).arg(i).arg(lane->headerText());
            QVERIFY2(!lane->text().isEmpty(), qPrintable(what));
            QVERIFY2(lane->visibleRegion().boundingRect() == lane->rect(), qPrintable(what + " is cut"));
            // The whole lane, mapped into the frame, lies inside it (none cut at the frame's edge).
            const QRect laneInWindow(lane->mapTo(&window, QPoint(0, 0)), lane->size());
            const QRectF laneInFrame(offset + QPointF(laneInWindow.topLeft()) * scale,
                                     QSizeF(laneInWindow.size()) * scale);
            QVERIFY2(QRectF(frame.rect()).adjusted(-0.5, -0.5, 0.5, 0.5).contains(laneInFrame),
                     qPrintable(what + " is outside the frame"));
            const QWidget* view = lane->textView()->viewport();
            const QRect inWindow(view->mapTo(&window, QPoint(0, 0)), view->size());
            QVERIFY2(window.rect().contains(inWindow), qPrintable(what));
            const QRect inFrame = QRectF(offset + QPointF(inWindow.topLeft()) * scale, QSizeF(inWindow.size()) * scale)
                                      .toAlignedRect()
                                      .adjusted(2, 2, -2, -2) &
                                  frame.rect();
            QMap<QRgb, int> counts;
            for (int y = inFrame.top(); y <= inFrame.bottom(); ++y)
                for (int x = inFrame.left(); x <= inFrame.right(); ++x)
                    ++counts[frame.pixel(x, y) & 0xf0f0f0]; // coarse: the encoder moves colours a little
            QRgb background = 0;
            for (auto it = counts.cbegin(); it != counts.cend(); ++it)
                if (it.value() > counts.value(background))
                    background = it.key();
            int ink = 0;
            for (int y = inFrame.top(); y <= inFrame.bottom(); ++y)
                for (int x = inFrame.left(); x <= inFrame.right(); ++x) {
                    const QRgb p = frame.pixel(x, y);
                    ink += std::abs(qRed(p) - qRed(background)) + std::abs(qGreen(p) - qGreen(background)) +
                               std::abs(qBlue(p) - qBlue(background)) >
                           120;
                }
            QVERIFY2(ink >= 40, qPrintable(what + QStringLiteral(": %1 text pixels in the frame").arg(ink)));
        }
    }

    // The most common colour of `frame` (coarse: the encoder moves colours a little) and its share of the pixels.
    static std::pair<QColor, double> dominantColour(const QImage& frame)
    {
        QMap<QRgb, int> counts;
        for (int y = 0; y < frame.height(); y += 2)
            for (int x = 0; x < frame.width(); x += 2)
                ++counts[frame.pixel(x, y) & 0xf0f0f0];
        QRgb best = 0;
        for (auto it = counts.cbegin(); it != counts.cend(); ++it)
            if (it.value() > counts.value(best))
                best = it.key();
        return {QColor(best), double(counts.value(best)) / ((frame.height() + 1) / 2 * ((frame.width() + 1) / 2))};
    }

    // The window's dark theme: the frame's background is dark and the frame dark overall (mean luminance).
    static void checkDark(const QImage& frame, const QString& what)
    {
        QVERIFY2(!frame.isNull(), qPrintable(what + " did not decode"));
        const QColor background = dominantColour(frame).first;
        QVERIFY2(qGray(background.rgb()) < 64, qPrintable(what + ": background " + background.name()));
        double sum = 0;
        for (int y = 0; y < frame.height(); y += 2)
            for (int x = 0; x < frame.width(); x += 2)
                sum += qGray(frame.pixel(x, y));
        const double mean = sum / ((frame.height() + 1) / 2 * ((frame.width() + 1) / 2));
        QVERIFY2(mean < 80, qPrintable(what + QStringLiteral(": mean luminance %1").arg(mean)));
    }

    // Frames kept for a person to look at when WAFERSCOPE_TEST_FRAMES_DIR names a folder.
    static void keepFrames(const QMap<int, QImage>& frames, const QString& name)
    {
        const QString dir = qEnvironmentVariable("WAFERSCOPE_TEST_FRAMES_DIR");
        if (dir.isEmpty())
            return;
        for (auto it = frames.cbegin(); it != frames.cend(); ++it)
            it.value().save(QStringLiteral("%1/%2-%3.png").arg(dir, name).arg(it.key(), 3, 10, QLatin1Char('0')));
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        applyTheme(*qApp); // as waferscope-cli record does: the lanes are laid out in the same style
    }

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
        const auto run =
            wstest::runCli({QStringLiteral("record"), QStringLiteral("--tour"), tour, QStringLiteral("--out"), out,
                            QStringLiteral("--fps"), QString::number(fps), QStringLiteral("--width"),
                            QStringLiteral("640"), QStringLiteral("--height"), QStringLiteral("360"),
                            QStringLiteral("--title-seconds"), QStringLiteral("1"), QStringLiteral("--json")},
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
        const int titleFrames = 1 * fps; // --title-seconds 1
        const int expected = titleFrames + int(std::ceil(tourSeconds * fps - 1e-6));

        QString error;
        const auto probe = VideoProbe::probe(out, &error);
        QVERIFY2(probe, qPrintable(error));
        QCOMPARE(probe->codecName, QStringLiteral("h264"));
        QCOMPARE(probe->frameSize, QSize(640, 360));
        QCOMPARE(probe->frameCount, expected);
        const QJsonObject json = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(json.value(QStringLiteral("frames")).toInt(), expected);
        QCOMPARE(json.value(QStringLiteral("title_frames")).toInt(), titleFrames);
        QVERIFY(std::abs(json.value(QStringLiteral("tour_seconds")).toDouble() - tourSeconds) < 1e-6);
    }

    void shippedRaceShowsTextInEveryLane()
    {
        // The "Wafer, GPU and Groq" tour recorded by the CLI at 1280 x 720: frames from its race step (4 s in, and
        // half a second before its end) have text in every lane. Where the lanes are comes from the same tour
        // played to the same moment in this process's window (the CLI's window, offscreen, at the same size).
        QTemporaryDir dir;
        const QString tourPath = wstest::sourcePath(QStringLiteral("resources/tours/wafer-gpu-groq.json"));
        const QString out = dir.filePath(QStringLiteral("race.mp4"));
        const int fps = 2;
        QProcessEnvironment env = wstest::headlessEnvironment();
        env.insert(QStringLiteral("HOME"), dir.path()); // no saved layout of the user's
        const int titleFrames = 2 * fps;                // --title-seconds 2
        const auto run = wstest::runCli({QStringLiteral("record"), QStringLiteral("--tour"), tourPath,
                                         QStringLiteral("--out"), out, QStringLiteral("--fps"), QString::number(fps),
                                         QStringLiteral("--title-seconds"), QStringLiteral("2")},
                                        env);
        QVERIFY2(run.exitCode == 0, run.err.constData());

        QString error;
        const auto tour = TourFormat::load(tourPath, &error);
        QVERIFY2(tour, qPrintable(error));
        double raceStart = 0, raceSeconds = 0;
        for (const TourStep& step : tour->steps) {
            if (step.kind == TourStepKind::Race) {
                raceSeconds = step.seconds;
                break;
            }
            raceStart += TourFormat::stepSeconds(step, 0); // captions and waits only before the race
        }
        QVERIFY(raceSeconds > 4);
        // Tour frame n is video frame titleFrames + n.
        const QList<int> frames{int(std::lround((raceStart + 4) * fps)),
                                int(std::lround((raceStart + raceSeconds - 0.5) * fps))};
        const auto probe = VideoProbe::probe(
            out, &error, {0, titleFrames - 1, titleFrames, titleFrames + frames.first(), titleFrames + frames.last()});
        QVERIFY2(probe, qPrintable(error));
        QCOMPARE(probe->frameSize, QSize(1280, 720));
        keepFrames(probe->frames, QStringLiteral("race"));

        // The first frames are the title card: one dark colour over most of the frame, the tour's title and the
        // model in light text across its middle; the tour's first frame (the window) is something else.
        const QImage card = probe->frames.value(0);
        checkDark(card, QStringLiteral("title card"));
        const auto [cardColour, cardShare] = dominantColour(card);
        QVERIFY2(cardShare > 0.9, qPrintable(QStringLiteral("title card background share %1").arg(cardShare)));
        int ink = 0;
        for (int y = card.height() / 5; y < card.height() * 3 / 4; ++y)
            for (int x = 0; x < card.width(); ++x)
                ink += qGray(card.pixel(x, y)) > 160;
        QVERIFY2(ink > 2000, qPrintable(QStringLiteral("%1 light text pixels on the title card").arg(ink)));
        const auto [lastCardColour, lastCardShare] = dominantColour(probe->frames.value(titleFrames - 1));
        QCOMPARE(lastCardColour, cardColour);
        QVERIFY(lastCardShare > 0.9);
        QVERIFY2(dominantColour(probe->frames.value(titleFrames)).second < cardShare - 0.05,
                 "the tour's first frame looks like the title card");

        const PresetLibrary presets{QString()};
        LanguageManager languages;
        languages.setLanguage(QStringLiteral("en"));
        MainWindow window(presets, languages);
        window.fileMenu()->setInteractive(false);
        auto* mode = window.findChild<PresentationMode*>();
        mode->setFullScreen(false);
        mode->setAutoPlay(false);
        window.resize(probe->frameSize);
        window.show();
        QVERIFY2(mode->present(tourPath, &error), qPrintable(error));
        TourPlayer* player = mode->player();
        for (int frame = 0; frame <= frames.last(); ++frame) { // as TourRecorder steps: one frame, 1 / fps seconds
            QTRY_VERIFY_WITH_TIMEOUT(!mode->stage()->isBusy(), 120000);
            player->advance(0);
            QCoreApplication::processEvents();
            if (frames.contains(frame)) {
                checkDark(probe->frames.value(titleFrames + frame), QStringLiteral("race frame %1").arg(frame));
                checkLanes(window, probe->frames.value(titleFrames + frame), frame);
            }
            player->advance(1.0 / fps);
        }
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
