#include "app/record/ffmpegwriter.h"

#include <QIODevice>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <cstdio>

namespace ws {

namespace {

constexpr int kAvioBufferBytes = 1 << 16;

QString avError(int code)
{
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, text, sizeof(text));
    return QString::fromUtf8(text);
}

int writeToDevice(void* opaque, uint8_t* buffer, int size)
{
    auto* device = static_cast<QIODevice*>(opaque);
    return device->write(reinterpret_cast<const char*>(buffer), size) == size ? size : AVERROR(EIO);
}

int64_t seekDevice(void* opaque, int64_t offset, int whence)
{
    auto* device = static_cast<QIODevice*>(opaque);
    if (whence & AVSEEK_SIZE)
        return device->size();
    whence &= ~AVSEEK_FORCE;
    qint64 target = offset;
    if (whence == SEEK_CUR)
        target = device->pos() + offset;
    else if (whence == SEEK_END)
        target = device->size() + offset;
    else if (whence != SEEK_SET)
        return AVERROR(EINVAL);
    return device->seek(target) ? target : AVERROR(EIO);
}

} // namespace

struct FfmpegWriter::State
{
    AVFormatContext* format = nullptr;
    AVIOContext* io = nullptr;
    AVCodecContext* codec = nullptr;
    AVStream* stream = nullptr;
    SwsContext* scaler = nullptr;
    AVFrame* frame = nullptr;
    AVPacket* packet = nullptr;
    int64_t nextPts = 0;

    // An unfinished file needs no trailer: the owner discards the QSaveFile.
    ~State()
    {
        av_packet_free(&packet);
        av_frame_free(&frame);
        sws_freeContext(scaler);
        avcodec_free_context(&codec);
        if (io) {
            av_freep(&io->buffer);
            avio_context_free(&io);
        }
        avformat_free_context(format);
    }
};

FfmpegWriter::FfmpegWriter() = default;
FfmpegWriter::~FfmpegWriter() = default;

bool FfmpegWriter::open(QIODevice* device, const VideoSettings& settings, QString* error)
{
    av_log_set_level(AV_LOG_ERROR); // FFmpeg's chatter is not ours to print; errors come back as values
    m_state = std::make_unique<State>();
    State& s = *m_state;
    const bool h264 = settings.format == VideoFormat::Mp4;
    const char* muxerName = h264 ? "mp4" : "webm";
    const char* encoderName = h264 ? "libx264" : "libvpx-vp9";

    int rc = avformat_alloc_output_context2(&s.format, nullptr, muxerName, nullptr);
    if (rc < 0 || !s.format) {
        *error = tr("FFmpeg cannot write %1 files: %2").arg(QLatin1String(muxerName), avError(rc));
        return false;
    }
    const AVCodec* encoder = avcodec_find_encoder_by_name(encoderName);
    if (!encoder) {
        *error = tr("FFmpeg was built without the %1 encoder").arg(QLatin1String(encoderName));
        return false;
    }
    s.stream = avformat_new_stream(s.format, nullptr);
    s.codec = avcodec_alloc_context3(encoder);
    s.frame = av_frame_alloc();
    s.packet = av_packet_alloc();
    if (!s.stream || !s.codec || !s.frame || !s.packet) {
        *error = tr("out of memory while setting up the video encoder");
        return false;
    }

    AVCodecContext* c = s.codec;
    c->width = settings.frameSize.width();
    c->height = settings.frameSize.height();
    c->pix_fmt = AV_PIX_FMT_YUV420P;
    c->time_base = AVRational{1, settings.fps};
    c->framerate = AVRational{settings.fps, 1};
    c->gop_size = settings.fps * 2; // a key frame every two seconds keeps seeking in slides quick
    c->color_range = AVCOL_RANGE_MPEG;
    c->colorspace = AVCOL_SPC_BT709;
    c->color_primaries = AVCOL_PRI_BT709;
    c->color_trc = AVCOL_TRC_BT709;
    c->thread_count = 0; // let the codec choose
    if (s.format->oformat->flags & AVFMT_GLOBALHEADER)
        c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;

    AVDictionary* options = nullptr;
    if (h264) {
        av_dict_set(&options, "preset", "veryfast", 0);
        av_dict_set(&options, "crf", "20", 0);
    } else {
        c->bit_rate = 0; // constant quality
        av_dict_set(&options, "crf", "32", 0);
        av_dict_set(&options, "deadline", "realtime", 0);
        av_dict_set(&options, "cpu-used", "8", 0);
        av_dict_set(&options, "row-mt", "1", 0);
    }
    rc = avcodec_open2(c, encoder, &options);
    av_dict_free(&options);
    if (rc < 0) {
        *error = tr("cannot start the %1 encoder: %2").arg(QLatin1String(encoderName), avError(rc));
        return false;
    }
    rc = avcodec_parameters_from_context(s.stream->codecpar, c);
    s.stream->time_base = c->time_base;
    s.stream->avg_frame_rate = c->framerate;

    auto* buffer = static_cast<unsigned char*>(av_malloc(kAvioBufferBytes));
    s.io =
        buffer ? avio_alloc_context(buffer, kAvioBufferBytes, 1, device, nullptr, writeToDevice, seekDevice) : nullptr;
    if (rc < 0 || !s.io) {
        if (!s.io)
            av_free(buffer);
        *error = tr("out of memory while setting up the video encoder");
        return false;
    }
    s.format->pb = s.io;
    s.format->flags |= AVFMT_FLAG_CUSTOM_IO;
    if (!settings.comment.isEmpty())
        av_dict_set(&s.format->metadata, "comment", settings.comment.toUtf8().constData(), 0);
    rc = avformat_write_header(s.format, nullptr);
    if (rc < 0) {
        *error = tr("cannot write the video header: %1").arg(avError(rc));
        return false;
    }

    s.frame->format = c->pix_fmt;
    s.frame->width = c->width;
    s.frame->height = c->height;
    s.frame->color_range = c->color_range;
    s.frame->colorspace = c->colorspace;
    rc = av_frame_get_buffer(s.frame, 0);
    s.scaler = sws_getContext(c->width, c->height, AV_PIX_FMT_RGB32, c->width, c->height, AV_PIX_FMT_YUV420P,
                              SWS_BILINEAR, nullptr, nullptr, nullptr);
    if (rc < 0 || !s.scaler) {
        *error = tr("cannot set up the colour conversion for the video");
        return false;
    }
    // RGB (full range) -> BT.709 limited-range YUV, matching what the stream says it is.
    const int* bt709 = sws_getCoefficients(SWS_CS_ITU709);
    sws_setColorspaceDetails(s.scaler, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16);
    return true;
}

bool FfmpegWriter::addFrame(const QImage& rgb32, QString* error)
{
    State& s = *m_state;
    int rc = av_frame_make_writable(s.frame);
    if (rc < 0) {
        *error = tr("video encoder error: %1").arg(avError(rc));
        return false;
    }
    const uint8_t* source[1] = {rgb32.constBits()};
    const int sourceStride[1] = {int(rgb32.bytesPerLine())};
    sws_scale(s.scaler, source, sourceStride, 0, rgb32.height(), s.frame->data, s.frame->linesize);
    s.frame->pts = s.nextPts++;
    return encode(false, error);
}

bool FfmpegWriter::encode(bool flush, QString* error)
{
    State& s = *m_state;
    int rc = avcodec_send_frame(s.codec, flush ? nullptr : s.frame);
    if (rc < 0) {
        *error = tr("video encoder error: %1").arg(avError(rc));
        return false;
    }
    for (;;) {
        rc = avcodec_receive_packet(s.codec, s.packet);
        if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF)
            return true;
        if (rc < 0) {
            *error = tr("video encoder error: %1").arg(avError(rc));
            return false;
        }
        av_packet_rescale_ts(s.packet, s.codec->time_base, s.stream->time_base);
        s.packet->stream_index = s.stream->index;
        rc = av_interleaved_write_frame(s.format, s.packet); // takes the packet's reference
        if (rc < 0) {
            *error = tr("cannot write video data: %1").arg(avError(rc));
            return false;
        }
    }
}

bool FfmpegWriter::finish(QString* error)
{
    State& s = *m_state;
    if (!encode(true, error))
        return false;
    const int rc = av_write_trailer(s.format);
    if (rc < 0) {
        *error = tr("cannot finish the video file: %1").arg(avError(rc));
        return false;
    }
    avio_flush(s.io);
    if (s.io->error < 0) {
        *error = tr("cannot write video data: %1").arg(avError(s.io->error));
        return false;
    }
    return true;
}

} // namespace ws
