#include "app/record/gifwriter.h"

#include <QIODevice>

#include <gif_lib.h>

#include <algorithm>
#include <array>

namespace ws {

namespace {

constexpr int kLevelsR = 6;
constexpr int kLevelsG = 7;
constexpr int kLevelsB = 6;
constexpr int kCubeColours = kLevelsR * kLevelsG * kLevelsB; // 252

// 4x4 Bayer matrix, values 0..15.
constexpr std::array<std::array<int, 4>, 4> kBayer{{{0, 8, 2, 10}, {12, 4, 14, 6}, {3, 11, 1, 9}, {15, 7, 13, 5}}};

// level = floor(v * (levels - 1) / 255 + (b + 0.5) / 16), clamped: an ordered dither between neighbouring levels.
struct ChannelTable
{
    std::array<std::array<uint8_t, 256>, 16> level{};
    explicit ChannelTable(int levels, int weight)
    {
        for (int b = 0; b < 16; ++b)
            for (int v = 0; v < 256; ++v) {
                const int numerator = v * (levels - 1) * 32 + (2 * b + 1) * 255;
                level[size_t(b)][size_t(v)] = uint8_t(std::min(numerator / (255 * 32), levels - 1) * weight);
            }
    }
};

const ChannelTable& tableR()
{
    static const ChannelTable t(kLevelsR, kLevelsG * kLevelsB);
    return t;
}
const ChannelTable& tableG()
{
    static const ChannelTable t(kLevelsG, kLevelsB);
    return t;
}
const ChannelTable& tableB()
{
    static const ChannelTable t(kLevelsB, 1);
    return t;
}

int writeToDevice(GifFileType* gif, const GifByteType* bytes, int size)
{
    auto* device = static_cast<QIODevice*>(gif->UserData);
    return int(device->write(reinterpret_cast<const char*>(bytes), size));
}

} // namespace

uint8_t GifWriter::paletteIndex(QRgb colour, int x, int y)
{
    const size_t b = size_t(kBayer[size_t(y & 3)][size_t(x & 3)]);
    return uint8_t(tableR().level[b][size_t(qRed(colour))] + tableG().level[b][size_t(qGreen(colour))] +
                   tableB().level[b][size_t(qBlue(colour))]);
}

QRgb GifWriter::paletteColour(uint8_t index)
{
    if (index >= kCubeColours)
        return qRgb(0, 0, 0);
    const int r = index / (kLevelsG * kLevelsB);
    const int g = (index / kLevelsB) % kLevelsG;
    const int b = index % kLevelsB;
    return qRgb((r * 255 + (kLevelsR - 1) / 2) / (kLevelsR - 1), (g * 255 + (kLevelsG - 1) / 2) / (kLevelsG - 1),
                (b * 255 + (kLevelsB - 1) / 2) / (kLevelsB - 1));
}

GifWriter::~GifWriter()
{
    if (m_gif)
        EGifCloseFile(m_gif, nullptr);
}

bool GifWriter::gifFailed(const QString& what, int code, QString* error)
{
    *error = tr("%1: %2").arg(what, QString::fromUtf8(GifErrorString(code)));
    return false;
}

bool GifWriter::open(QIODevice* device, const VideoSettings& settings, QString* error)
{
    m_size = settings.frameSize;
    m_fps = settings.fps;
    int code = 0;
    m_gif = EGifOpen(device, writeToDevice, &code);
    if (!m_gif)
        return gifFailed(tr("cannot start the GIF file"), code, error);
    EGifSetGifVersion(m_gif, true);

    std::array<GifColorType, 256> colours{};
    for (int i = 0; i < kCubeColours; ++i) {
        const QRgb c = paletteColour(uint8_t(i));
        colours[size_t(i)] = GifColorType{GifByteType(qRed(c)), GifByteType(qGreen(c)), GifByteType(qBlue(c))};
    }
    ColorMapObject* map = GifMakeMapObject(256, colours.data());
    if (!map) {
        *error = tr("out of memory while setting up the GIF palette");
        return false;
    }
    const int rc = EGifPutScreenDesc(m_gif, m_size.width(), m_size.height(), 8, 0, map);
    GifFreeMapObject(map);
    if (rc == GIF_ERROR)
        return gifFailed(tr("cannot write the GIF header"), m_gif->Error, error);

    // Netscape application extension: loop forever.
    static const GifByteType kNetscape[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
    static const GifByteType kLoopForever[] = {1, 0, 0};
    if (EGifPutExtensionLeader(m_gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
        EGifPutExtensionBlock(m_gif, sizeof(kNetscape), kNetscape) == GIF_ERROR ||
        EGifPutExtensionBlock(m_gif, sizeof(kLoopForever), kLoopForever) == GIF_ERROR ||
        EGifPutExtensionTrailer(m_gif) == GIF_ERROR)
        return gifFailed(tr("cannot write the GIF header"), m_gif->Error, error);
    // Comment extension (giflib splits it into 255-byte sub-blocks): the version and scenario that made it.
    if (!settings.comment.isEmpty() && EGifPutComment(m_gif, settings.comment.toUtf8().constData()) == GIF_ERROR)
        return gifFailed(tr("cannot write the GIF header"), m_gif->Error, error);

    m_current.assign(size_t(m_size.width()) * size_t(m_size.height()), 0);
    m_previous.clear();
    m_frames = 0;
    return true;
}

bool GifWriter::addFrame(const QImage& rgb32, QString* error)
{
    const int width = m_size.width();
    const int height = m_size.height();
    for (int y = 0; y < height; ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(rgb32.constScanLine(y));
        uint8_t* out = m_current.data() + size_t(y) * size_t(width);
        const auto& bayerRow = kBayer[size_t(y & 3)];
        for (int x = 0; x < width; ++x) {
            const size_t b = size_t(bayerRow[size_t(x & 3)]);
            const QRgb c = line[x];
            out[x] = uint8_t(tableR().level[b][size_t(qRed(c))] + tableG().level[b][size_t(qGreen(c))] +
                             tableB().level[b][size_t(qBlue(c))]);
        }
    }

    // Only the bounding box of changed pixels is stored after the first frame (the rest is kept: DISPOSE_DO_NOT).
    int left = 0, top = 0, right = width - 1, bottom = height - 1;
    if (!m_previous.empty()) {
        left = width;
        top = height;
        right = -1;
        bottom = -1;
        for (int y = 0; y < height; ++y) {
            const uint8_t* a = m_current.data() + size_t(y) * size_t(width);
            const uint8_t* b = m_previous.data() + size_t(y) * size_t(width);
            for (int x = 0; x < width; ++x)
                if (a[x] != b[x]) {
                    left = std::min(left, x);
                    right = std::max(right, x);
                    top = std::min(top, y);
                    bottom = y;
                }
        }
        if (right < 0) // identical frame: a single unchanged pixel keeps the frame and its delay
            left = right = top = bottom = 0;
    }

    // Cumulative rounding: frame i ends at round((i + 1) * 100 / fps) hundredths of a second.
    const auto endCs = [this](int64_t frame) { return (frame * 200 / m_fps + 1) / 2; };
    GraphicsControlBlock control{};
    control.DisposalMode = DISPOSE_DO_NOT;
    control.UserInputFlag = false;
    control.DelayTime = int(endCs(m_frames + 1) - endCs(m_frames));
    control.TransparentColor = NO_TRANSPARENT_COLOR;
    GifByteType extension[4];
    const size_t extensionBytes = EGifGCBToExtension(&control, extension);
    if (EGifPutExtension(m_gif, GRAPHICS_EXT_FUNC_CODE, int(extensionBytes), extension) == GIF_ERROR)
        return gifFailed(tr("cannot write GIF frame %1").arg(m_frames), m_gif->Error, error);

    const int boxWidth = right - left + 1;
    if (EGifPutImageDesc(m_gif, left, top, boxWidth, bottom - top + 1, false, nullptr) == GIF_ERROR)
        return gifFailed(tr("cannot write GIF frame %1").arg(m_frames), m_gif->Error, error);
    for (int y = top; y <= bottom; ++y) {
        uint8_t* line = m_current.data() + size_t(y) * size_t(width) + size_t(left);
        if (EGifPutLine(m_gif, line, boxWidth) == GIF_ERROR)
            return gifFailed(tr("cannot write GIF frame %1").arg(m_frames), m_gif->Error, error);
    }
    m_previous.swap(m_current);
    if (m_current.size() != m_previous.size())
        m_current.assign(m_previous.size(), 0);
    ++m_frames;
    return true;
}

bool GifWriter::finish(QString* error)
{
    int code = 0;
    const int rc = EGifCloseFile(m_gif, &code);
    m_gif = nullptr;
    if (rc == GIF_ERROR)
        return gifFailed(tr("cannot finish the GIF file"), code, error);
    return true;
}

} // namespace ws
