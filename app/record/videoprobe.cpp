#include "app/record/videoprobe.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
}

#include <memory>

namespace ws {

namespace {

QString avError(int code)
{
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, text, sizeof(text));
    return QString::fromUtf8(text);
}

struct Decoding
{
    AVFormatContext* format = nullptr;
    AVCodecContext* codec = nullptr;
    AVPacket* packet = av_packet_alloc();
    AVFrame* frame = av_frame_alloc();
    ~Decoding()
    {
        av_frame_free(&frame);
        av_packet_free(&packet);
        avcodec_free_context(&codec);
        avformat_close_input(&format);
    }
};

QImage toRgb32(const AVFrame* frame)
{
    SwsContext* scaler = sws_getContext(frame->width, frame->height, AVPixelFormat(frame->format), frame->width,
                                        frame->height, AV_PIX_FMT_RGB32, SWS_BILINEAR, nullptr, nullptr, nullptr);
    if (!scaler)
        return {};
    const int space = frame->colorspace == AVCOL_SPC_BT709 ? SWS_CS_ITU709 : SWS_CS_DEFAULT;
    const int* coefficients = sws_getCoefficients(space);
    sws_setColorspaceDetails(scaler, coefficients, frame->color_range == AVCOL_RANGE_JPEG ? 1 : 0, coefficients, 1, 0,
                             1 << 16, 1 << 16);
    QImage image(frame->width, frame->height, QImage::Format_RGB32);
    uint8_t* destination[1] = {image.bits()};
    const int destinationStride[1] = {int(image.bytesPerLine())};
    sws_scale(scaler, frame->data, frame->linesize, 0, frame->height, destination, destinationStride);
    sws_freeContext(scaler);
    return image;
}

} // namespace

std::optional<VideoProbeResult> VideoProbe::probe(const QString& path, QString* error, const QList<int>& keepFrames)
{
    av_log_set_level(AV_LOG_ERROR); // FFmpeg's chatter is not ours to print; errors come back as values
    Decoding d;
    const QByteArray file = path.toUtf8();
    int rc = avformat_open_input(&d.format, file.constData(), nullptr, nullptr);
    if (rc < 0) {
        *error = tr("cannot open %1: %2").arg(path, avError(rc));
        return std::nullopt;
    }
    rc = avformat_find_stream_info(d.format, nullptr);
    if (rc < 0) {
        *error = tr("cannot read %1: %2").arg(path, avError(rc));
        return std::nullopt;
    }
    const AVCodec* decoder = nullptr;
    const int streamIndex = av_find_best_stream(d.format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
    if (streamIndex < 0 || !decoder) {
        *error = tr("%1 holds no video stream that FFmpeg can decode").arg(path);
        return std::nullopt;
    }
    d.codec = avcodec_alloc_context3(decoder);
    if (!d.codec || !d.packet || !d.frame ||
        avcodec_parameters_to_context(d.codec, d.format->streams[streamIndex]->codecpar) < 0 ||
        (rc = avcodec_open2(d.codec, decoder, nullptr)) < 0) {
        *error = tr("cannot start the %1 decoder: %2").arg(QString::fromUtf8(decoder->name), avError(rc));
        return std::nullopt;
    }

    VideoProbeResult result;
    result.codecName = QString::fromUtf8(decoder->name);
    result.formatName = QString::fromUtf8(d.format->iformat->name);
    const auto drain = [&]() -> bool {
        for (;;) {
            const int r = avcodec_receive_frame(d.codec, d.frame);
            if (r == AVERROR(EAGAIN) || r == AVERROR_EOF)
                return true;
            if (r < 0) {
                *error = tr("cannot decode frame %1 of %2: %3").arg(result.frameCount).arg(path, avError(r));
                return false;
            }
            if (result.frameCount == 0) {
                result.frameSize = QSize(d.frame->width, d.frame->height);
                result.firstFrame = toRgb32(d.frame);
            }
            if (keepFrames.contains(result.frameCount))
                result.frames.insert(result.frameCount, toRgb32(d.frame));
            ++result.frameCount;
            av_frame_unref(d.frame);
        }
    };
    while ((rc = av_read_frame(d.format, d.packet)) >= 0) {
        if (d.packet->stream_index == streamIndex) {
            rc = avcodec_send_packet(d.codec, d.packet);
            av_packet_unref(d.packet);
            if (rc < 0) {
                *error = tr("cannot decode %1: %2").arg(path, avError(rc));
                return std::nullopt;
            }
            if (!drain())
                return std::nullopt;
        } else {
            av_packet_unref(d.packet);
        }
    }
    if (rc != AVERROR_EOF) {
        *error = tr("cannot read %1: %2").arg(path, avError(rc));
        return std::nullopt;
    }
    avcodec_send_packet(d.codec, nullptr);
    if (!drain())
        return std::nullopt;
    // Read at the end: a GIF's comment extension is met while demuxing.
    if (const AVDictionaryEntry* comment = av_dict_get(d.format->metadata, "comment", nullptr, 0))
        result.comment = QString::fromUtf8(comment->value);
    return result;
}

} // namespace ws
