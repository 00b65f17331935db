#ifndef PHOTODECK_PD_FFMPEG_H
#define PHOTODECK_PD_FFMPEG_H

// FFmpeg's libraries are loaded when the first video is opened, not when the
// process starts: linking them makes every program that links VideoCodecs
// map some 180 shared libraries (30 MB, 60 ms) whether or not it ever opens
// a video, and a machine without them could not start such a program at
// all. Each function PhotoDeck calls is listed once below; its pointer's type
// is the header's own declaration (`__typeof__`), so a signature cannot
// drift from the headers the code is compiled against, and the libraries are
// opened by the SONAME those headers' major versions name.

#include <stddef.h>
#include <libavcodec/avcodec.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libavutil/pixdesc.h>
#include <libavutil/opt.h>
#include <libavutil/channel_layout.h>
#include <libavutil/samplefmt.h>
#include <libavutil/mathematics.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PD_FFMPEG_AVUTIL(X) \
    X(av_malloc) X(av_free) X(av_freep) X(av_strerror) X(av_log_set_level) \
    X(av_dict_set) X(av_dict_set_int) X(av_dict_get) X(av_dict_free) \
    X(av_frame_alloc) X(av_frame_free) X(av_frame_unref) X(av_frame_move_ref) \
    X(av_display_rotation_get) X(av_pix_fmt_desc_get) \
    X(av_opt_set) X(av_opt_set_int) X(av_channel_layout_describe) X(av_channel_layout_default) X(av_channel_layout_uninit) \
    X(av_get_sample_fmt_name) X(av_rescale_q)

#define PD_FFMPEG_AVCODEC(X) \
    X(av_packet_alloc) X(av_packet_free) X(av_packet_unref) X(av_packet_make_writable) X(av_shrink_packet) \
    X(avcodec_find_decoder) X(avcodec_get_name) X(avcodec_alloc_context3) X(avcodec_free_context) \
    X(avcodec_parameters_to_context) X(avcodec_open2) X(avcodec_send_packet) X(avcodec_receive_frame) \
    X(avcodec_flush_buffers) X(avcodec_parameters_copy) X(av_packet_rescale_ts) \
    X(avcodec_find_encoder_by_name) X(avcodec_send_frame) X(avcodec_receive_packet) X(avcodec_parameters_from_context)

#define PD_FFMPEG_AVFORMAT(X) \
    X(avio_alloc_context) X(avio_context_free) X(avformat_alloc_context) X(avformat_free_context) X(avformat_open_input) \
    X(avformat_close_input) X(avformat_find_stream_info) X(av_find_best_stream) X(av_read_frame) \
    X(av_seek_frame) X(av_stream_get_side_data) \
    X(avformat_alloc_output_context2) X(avformat_new_stream) X(avformat_query_codec) X(av_stream_new_side_data) \
    X(avio_open2) X(avio_closep) X(avformat_write_header) X(av_interleaved_write_frame) X(av_write_trailer)

#define PD_FFMPEG_AVFILTER(X) \
    X(avfilter_get_by_name) X(avfilter_graph_alloc) X(avfilter_graph_free) X(avfilter_graph_create_filter) \
    X(avfilter_link) X(avfilter_graph_config) X(av_buffersrc_add_frame_flags) X(av_buffersink_get_frame) \
    X(av_buffersink_set_frame_size)

#define PD_FFMPEG_FIELD(name) __typeof__(name) *_Nonnull name;

/// The FFmpeg functions PhotoDeck calls, resolved from the loaded libraries.
typedef struct pd_ffmpeg {
    PD_FFMPEG_AVUTIL(PD_FFMPEG_FIELD)
    PD_FFMPEG_AVCODEC(PD_FFMPEG_FIELD)
    PD_FFMPEG_AVFORMAT(PD_FFMPEG_FIELD)
    PD_FFMPEG_AVFILTER(PD_FFMPEG_FIELD)
} pd_ffmpeg;

#undef PD_FFMPEG_FIELD

/// Loads libavutil, libavcodec, libavformat and libavfilter (once per
/// process, whichever thread asks first; later calls return at once) and
/// quiets FFmpeg's own logging. Returns the table, or NULL with the loader's
/// reason copied into `message` (at most `size` bytes, terminated).
const pd_ffmpeg *_Nullable pd_ffmpeg_load(char *_Nonnull message, size_t size);

/// The same table without the reason: what the shim's own C code uses.
const pd_ffmpeg *_Nullable pd_ffmpeg_loaded(void);

#ifdef __cplusplus
}
#endif

#endif
