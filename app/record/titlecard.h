#pragma once
// The first frames of a recording: a card that says what the video shows
// (a tour's or scenario's title), on what (model and hardware, by display
// name) and what made it (the build's generator and revision, and the date:
// ExportStamp). Drawn in the window's palette (the dark theme), centred, the
// text scaled with the frame height so it reads the same at 640 × 360 and
// 1920 × 1080. `record` shows it for --title-seconds (kDefaultSeconds).

#include <QImage>
#include <QPalette>
#include <QSize>
#include <QString>

namespace ws {

struct TitleCardText
{
    QString title;    // "Wafer, GPU and Groq on the same answer"
    QString subtitle; // "Llama 3.1 70B on WSE-3"
    QString stamp;    // "WaferScope 0.1.0 (git abc1234) · 2026-12-04"
};

class TitleCard
{
public:
    static constexpr double kDefaultSeconds = 2.0;
    static constexpr double kMaxSeconds = 30.0;

    static QImage draw(QSize size, const TitleCardText& text, const QPalette& palette);
    // The generator ("WaferScope 0.1.0 (git …)") and today's date (ISO 8601).
    static QString stampLine(const QString& generator);
    // Frames the card takes at `fps`: seconds × fps, rounded.
    static int frameCount(double seconds, int fps);
};

} // namespace ws
