#include "app/present/tourrecorder.h"

#include "app/present/presentationmode.h"
#include "app/present/tourcaptions.h"
#include "app/record/videoencoder.h"
#include "app/record/widgetframesource.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QMainWindow>
#include <QThread>

namespace ws {

namespace {
constexpr int kMaxFrames = 100000;        // as `record` without a tour
constexpr qint64 kMaxBusyMs = 10 * 60000; // a placement or remap that takes longer is an error
} // namespace

std::optional<TourRecording> TourRecorder::record(const TourWindow& target, const QString& tourPath, const QString& out,
                                                  const VideoSettings& settings, QString* error,
                                                  const TitleCardText& title, int titleFrames)
{
    PresentationMode* mode = target.presentation;
    mode->setFullScreen(false);
    mode->setAutoPlay(false);
    target.window->resize(settings.frameSize);
    target.window->show();
    if (!mode->present(tourPath, error))
        return std::nullopt;
    VideoEncoder encoder;
    if (!encoder.open(out, settings)) {
        *error = encoder.errorString();
        return std::nullopt;
    }
    TourPlayer* player = mode->player();
    const double frameSeconds = 1.0 / double(settings.fps);
    TourRecording recording;
    bool titled = titleFrames <= 0;
    for (;;) {
        QElapsedTimer busy;
        busy.start();
        while (mode->stage()->isBusy()) { // the placement or remap of an open or defects step
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
            QThread::msleep(5);
            if (busy.elapsed() > kMaxBusyMs) {
                *error = QStringLiteral("%1: the placement or defect remap took longer than %2 minutes")
                             .arg(tourPath, QString::number(kMaxBusyMs / 60000));
                return std::nullopt;
            }
        }
        player->advance(0); // the steps waiting for the stage
        if (mode->stage()->isBusy())
            continue;
        if (!player->error().isEmpty()) {
            *error = player->error();
            return std::nullopt;
        }
        if (player->isFinished())
            break;
        if (!titled) { // once the first steps opened the scenario: its placeholders ({devices}) have values
            titled = true;
            TitleCardText shown = title;
            shown.subtitle = TourCaptions::display(title.subtitle, mode->stage()->values());
            const QImage card = TitleCard::draw(encoder.frameSize(), shown, target.window->palette());
            for (; recording.titleFrames < titleFrames;
                 ++recording.titleFrames, ++recording.frames) // time stands still
                if (!encoder.addFrame(card)) {
                    *error = encoder.errorString();
                    return std::nullopt;
                }
        }
        QCoreApplication::processEvents(); // layouts of the docks the step showed
        if (!encoder.addFrame(WidgetFrameSource::grab(target.window, nullptr, encoder.frameSize()))) {
            *error = encoder.errorString();
            return std::nullopt;
        }
        if (++recording.frames > kMaxFrames) {
            *error = QStringLiteral("%1: more than %2 frames").arg(tourPath, QString::number(kMaxFrames));
            return std::nullopt;
        }
        player->advance(frameSeconds);
    }
    recording.seconds = player->elapsedSeconds();
    if (!encoder.finish()) {
        *error = encoder.errorString();
        return std::nullopt;
    }
    return recording;
}

} // namespace ws
