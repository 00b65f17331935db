#ifndef PHOTODECK_PD_VIDEO_H
#define PHOTODECK_PD_VIDEO_H

#include <stdint.h>
#include <libavformat/avformat.h>

#ifdef __cplusplus
extern "C" {
#endif

/// FFmpeg's error codes that are function-like macros in C.
static const int PD_AVERROR_EOF = AVERROR_EOF;
static const int PD_AVERROR_EAGAIN = AVERROR(EAGAIN);
static const int PD_AVERROR_EXIT = AVERROR_EXIT;
static const int PD_AVERROR_INVALIDDATA = AVERROR_INVALIDDATA;
static const int PD_AVERROR_ENOMEM = AVERROR(ENOMEM);
static const int PD_AVERROR_EINVAL = AVERROR(EINVAL);
static const int64_t PD_AV_NOPTS_VALUE = AV_NOPTS_VALUE;

/// A byte range of an open file read through FFmpeg's AVIO with `pread`,
/// never past the range's end, and never more than `budget` bytes in all
/// (seeks back and reads again count again), so that a hostile container
/// cannot make the demuxer read without end. `cancelled` is polled by the
/// interrupt callback: set it from any thread to stop a blocked demuxer.
typedef struct pd_video_source {
    int descriptor;
    int64_t start;        ///< Where the range starts in the file.
    int64_t length;       ///< The range's length.
    int64_t position;     ///< The next read's offset inside the range.
    int64_t budget;       ///< The most bytes that may be read in all.
    int64_t consumed;     ///< Bytes read so far.
    int over_budget;      ///< 1 once a read was refused for the budget.
    int read_failed;      ///< errno of a failed pread, or 0.
    int cancelled;        ///< Read and written only through pd_video_cancel and atomics.
    AVIOContext *io;
    AVFormatContext *format;
} pd_video_source;

/// Opens the demuxer on `source` (its descriptor, range and budget set by
/// the caller) with only the containers named in `formats` (FFmpeg's
/// comma-separated short names) and `probe_bytes` of probing. Returns 0 or
/// an AVERROR; on error nothing is left to free but `source` itself.
int pd_video_open(pd_video_source *source, const char *formats, int64_t probe_bytes, int64_t analyze_microseconds, int max_streams);

/// Asks a blocked demuxer to stop (any thread): its reads then fail with AVERROR_EXIT.
void pd_video_cancel(pd_video_source *source);

/// Closes what `pd_video_open` opened. Safe to call twice.
void pd_video_close(pd_video_source *source);

/// The message for an AVERROR, into `buffer` of `size` bytes.
void pd_video_error_text(int error, char *buffer, size_t size);

#ifdef __cplusplus
}
#endif

#endif
