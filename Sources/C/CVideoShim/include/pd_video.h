#ifndef PHOTODECK_PD_VIDEO_H
#define PHOTODECK_PD_VIDEO_H

#include <stdint.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/frame.h>

#ifdef __cplusplus
extern "C" {
#endif

/// FFmpeg's error codes that are function-like macros in C.
static const int PD_AVERROR_EOF = AVERROR_EOF;
static const int PD_AVERROR_EAGAIN = AVERROR(EAGAIN);
static const int PD_AVERROR_EXIT = AVERROR_EXIT;
static const int PD_AVERROR_ENCODER_NOT_FOUND = AVERROR_ENCODER_NOT_FOUND;
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

/// What a transcode writes: H.264 (libx264) and AAC in MP4.
typedef struct pd_transcode_options {
    int width;                 ///< The output's coded width (even).
    int height;                ///< The output's coded height (even).
    int64_t video_bit_rate;    ///< Bits a second, the average aimed at.
    int64_t audio_bit_rate;    ///< Bits a second; 0 leaves the sound out.
    int threads;               ///< The encoder's and decoders' threads.
    const char *preset;        ///< x264's preset (`veryfast`).
    AVDictionary *container_metadata; ///< Copied into the output (already filtered by the caller).
    AVDictionary *video_metadata;
    AVDictionary *audio_metadata;
} pd_transcode_options;

/// Called after each packet written with how far the output is (0...1);
/// a nonzero return stops the transcode (AVERROR_EXIT).
typedef int (*pd_transcode_progress)(void *context, double fraction);

/// Decodes the best video stream (and the best audio stream) of the open
/// `source`, scales the pictures to the options' size, and encodes them as
/// H.264 and AAC into an MP4 at `output_path` (created or truncated; the
/// index first). The display matrix and HDR side data of the source's video
/// stream are copied: the pictures stay as stored, and players turn them.
/// Returns 0, or an AVERROR (AVERROR_ENCODER_NOT_FOUND without libx264).
int pd_transcode(pd_video_source *source, const char *output_path, const pd_transcode_options *options,
                 pd_transcode_progress progress, void *context);

/// Turns a decoder's sound frames into interleaved signed 16-bit samples
/// at a rate and channel count (resampled and remixed as needed).
typedef struct pd_audio_converter pd_audio_converter;

/// Makes a converter for frames shaped as `frame` (its rate, sample format
/// and channel layout; stamped in `time_base`) to `rate` Hz (1000...768000)
/// with `channels` (1...8). 0 or an AVERROR.
int pd_audio_converter_open(const AVFrame *frame, AVRational time_base, int rate, int channels,
                            pd_audio_converter **converter);

/// Hands the converter a decoded frame (taken: `frame` is left empty), or
/// NULL at the end of the sound.
int pd_audio_converter_push(pd_audio_converter *converter, AVFrame *frame);

/// Takes a converted frame into `frame`; AVERROR(EAGAIN) when it needs
/// more, AVERROR_EOF after the end.
int pd_audio_converter_pull(pd_audio_converter *converter, AVFrame *frame);

/// Frees the converter and sets `*converter` to NULL; safe on NULL.
void pd_audio_converter_free(pd_audio_converter **converter);

/// The message for an AVERROR, into `buffer` of `size` bytes.
void pd_video_error_text(int error, char *buffer, size_t size);

#ifdef __cplusplus
}
#endif

#endif
