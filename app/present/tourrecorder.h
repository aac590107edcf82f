#pragma once
// Records a tour offscreen: the real main window in presentation mode (not
// full screen, its own size), the tour's time advanced one frame at a time
// (1 / fps seconds; time stands still while a placement or remap runs), each
// frame the whole window (WidgetFrameSource), encoded with VideoEncoder.
// The recording opens with a title card (TitleCard, in the window's palette)
// of `titleFrames` frames, drawn once the tour's first steps have opened its
// scenario, so that the subtitle's caption placeholders ({devices}, {model},
// TourCaptions) have values; a tour of T seconds then gives ceil(T × fps) frames.

#include "app/record/titlecard.h"
#include "app/record/videosettings.h"

#include <QString>

#include <functional>
#include <memory>
#include <optional>

class QMainWindow;

namespace ws {

class PresentationMode;

// A main window to record in, with what keeps it alive (presets, language); app/window makes it (the CLI's main).
struct TourWindow
{
    std::shared_ptr<void> owner;
    QMainWindow* window = nullptr;
    PresentationMode* presentation = nullptr;
};
using TourWindowFactory = std::function<TourWindow(const QString& language)>;

struct TourRecording
{
    int frames = 0;      // every frame written, the title card's included
    int titleFrames = 0; // the title card's
    double seconds = 0;  // tour time played
};

class TourRecorder
{
public:
    static std::optional<TourRecording> record(const TourWindow& window, const QString& tourPath, const QString& out,
                                               const VideoSettings& settings, QString* error,
                                               const TitleCardText& title = {}, int titleFrames = 0);
};

} // namespace ws
