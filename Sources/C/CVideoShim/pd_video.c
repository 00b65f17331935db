#include "pd_video.h"
#include "pd_ffmpeg.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { PD_VIDEO_IO_BUFFER = 64 * 1024 };

static int pd_video_read(void *opaque, uint8_t *buffer, int size) {
    pd_video_source *source = opaque;
    if (__atomic_load_n(&source->cancelled, __ATOMIC_RELAXED)) return AVERROR_EXIT;
    if (size <= 0) return 0;
    int64_t left = source->length - source->position;
    if (left <= 0) return AVERROR_EOF;
    int64_t want = size < left ? size : left;
    int64_t allowed = source->budget - source->consumed;
    if (allowed <= 0) {
        source->over_budget = 1;
        return AVERROR_EXIT;
    }
    if (want > allowed) want = allowed;
    ssize_t got;
    do {
        got = pread(source->descriptor, buffer, (size_t)want, (off_t)(source->start + source->position));
    } while (got < 0 && errno == EINTR);
    if (got < 0) {
        source->read_failed = errno;
        return AVERROR(errno);
    }
    if (got == 0) return AVERROR_EOF;
    source->position += got;
    source->consumed += got;
    return (int)got;
}

static int64_t pd_video_seek(void *opaque, int64_t offset, int whence) {
    pd_video_source *source = opaque;
    if (__atomic_load_n(&source->cancelled, __ATOMIC_RELAXED)) return AVERROR_EXIT;
    int64_t target;
    switch (whence & ~AVSEEK_FORCE) {
    case AVSEEK_SIZE: return source->length;
    case SEEK_SET: target = offset; break;
    case SEEK_CUR:
        if ((offset > 0 && source->position > INT64_MAX - offset) || (offset < 0 && source->position < INT64_MIN - offset)) return AVERROR(EINVAL);
        target = source->position + offset;
        break;
    case SEEK_END:
        if (offset > 0 && source->length > INT64_MAX - offset) return AVERROR(EINVAL);
        target = source->length + offset;
        break;
    default: return AVERROR(EINVAL);
    }
    if (target < 0 || target > source->length) return AVERROR(EINVAL);
    source->position = target;
    return target;
}

static int pd_video_interrupted(void *opaque) {
    pd_video_source *source = opaque;
    return __atomic_load_n(&source->cancelled, __ATOMIC_RELAXED) || source->over_budget;
}

int pd_video_open(pd_video_source *source, const char *formats, int64_t probe_bytes, int64_t analyze_microseconds, int max_streams) {
    source->io = NULL;
    source->format = NULL;
    const pd_ffmpeg *av = pd_ffmpeg_loaded();
    if (!av) return AVERROR(ENOSYS);
    unsigned char *buffer = av->av_malloc(PD_VIDEO_IO_BUFFER);
    if (!buffer) return AVERROR(ENOMEM);
    source->io = av->avio_alloc_context(buffer, PD_VIDEO_IO_BUFFER, 0, source, pd_video_read, NULL, pd_video_seek);
    if (!source->io) {
        av->av_free(buffer);
        return AVERROR(ENOMEM);
    }
    AVFormatContext *format = av->avformat_alloc_context();
    if (!format) {
        pd_video_close(source);
        return AVERROR(ENOMEM);
    }
    format->pb = source->io;
    format->flags |= AVFMT_FLAG_CUSTOM_IO;
    format->interrupt_callback.callback = pd_video_interrupted;
    format->interrupt_callback.opaque = source;
    format->max_streams = max_streams;
    AVDictionary *options = NULL;
    // Every option is a bound or a wall: if one cannot be set (out of memory), nothing is opened.
    int result = av->av_dict_set(&options, "format_whitelist", formats, 0);
    if (result >= 0) result = av->av_dict_set(&options, "protocol_whitelist", "none", 0);
    if (result >= 0) result = av->av_dict_set_int(&options, "probesize", probe_bytes, 0);
    if (result >= 0) result = av->av_dict_set_int(&options, "analyzeduration", analyze_microseconds, 0);
    // Never follow references out of the file (QuickTime reference movies, external tracks).
    if (result >= 0) result = av->av_dict_set(&options, "enable_drefs", "0", 0);
    if (result >= 0) result = av->av_dict_set(&options, "use_absolute_path", "0", 0);
    if (result < 0) {
        av->av_dict_free(&options);
        av->avformat_free_context(format);
        source->format = NULL;
        pd_video_close(source);
        return result;
    }
    result = av->avformat_open_input(&format, NULL, NULL, &options);
    av->av_dict_free(&options);
    if (result < 0) {
        // avformat_open_input frees the context on failure; the AVIO context is ours.
        source->format = NULL;
        pd_video_close(source);
        return result;
    }
    source->format = format;
    return 0;
}

void pd_video_cancel(pd_video_source *source) { __atomic_store_n(&source->cancelled, 1, __ATOMIC_RELAXED); }

void pd_video_close(pd_video_source *source) {
    const pd_ffmpeg *av = pd_ffmpeg_loaded();
    if (!av) return; // Nothing can have been opened.
    if (source->format) av->avformat_close_input(&source->format);
    if (source->io) {
        av->av_freep(&source->io->buffer);
        av->avio_context_free(&source->io);
    }
}

void pd_video_error_text(int error, char *buffer, size_t size) {
    const pd_ffmpeg *av = pd_ffmpeg_loaded();
    if (!av || av->av_strerror(error, buffer, size) < 0) snprintf(buffer, size, "FFmpeg error %d", error);
}
