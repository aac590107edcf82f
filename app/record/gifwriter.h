#pragma once
// GifWriter writes an looping animated GIF with giflib. Colours are mapped to
// one fixed 6x7x6 colour cube (252 colours) with a 4x4 ordered dither: fast,
// and the same palette in every frame, so flat heatmap areas do not flicker.
// Each frame after the first stores only the rectangle that changed. Frame
// delays are in hundredths of a second, rounded cumulatively so the average
// rate matches the requested frame rate.

#include "app/record/videosettings.h"

#include <QCoreApplication>
#include <QImage>

#include <cstdint>
#include <vector>

class QIODevice;
struct GifFileType;

namespace ws {

class GifWriter
{
    Q_DECLARE_TR_FUNCTIONS(ws::GifWriter)

public:
    GifWriter() = default;
    ~GifWriter();
    GifWriter(const GifWriter&) = delete;
    GifWriter& operator=(const GifWriter&) = delete;

    bool open(QIODevice* device, const VideoSettings& settings, QString* error);
    bool addFrame(const QImage& rgb32, QString* error); // frameSize, Format_RGB32
    bool finish(QString* error);

    // Palette index of one pixel at (x, y), exposed for tests of the quantiser.
    static uint8_t paletteIndex(QRgb colour, int x, int y);
    static QRgb paletteColour(uint8_t index);

private:
    bool gifFailed(const QString& what, int code, QString* error);

    GifFileType* m_gif = nullptr;
    QSize m_size;
    int m_fps = 30;
    int64_t m_frames = 0;
    std::vector<uint8_t> m_previous; // palette indices of the last frame, row-major
    std::vector<uint8_t> m_current;
};

} // namespace ws
