// A transcode to H.264 and AAC in MP4, on the FFmpeg functions of the
// loaded table (pd_ffmpeg.h): decode, a filter graph per stream (scale and
// pixel format for the pictures; resample, sample format, layout and frame
// size for the sound), encode, interleave. The structure is FFmpeg's own
// doc/examples/transcode.c, with every allocation and return checked.

#include "pd_video.h"
#include "pd_ffmpeg.h"
#include "pd_filters.h"

#include <stdio.h>
#include <string.h>

/// One stream's decoder, filter graph and encoder.
typedef struct pd_lane {
    int input_index;
    int output_index;
    AVCodecContext *decoder;
    AVCodecContext *encoder;
    AVFilterGraph *graph;
    AVFilterContext *source;
    AVFilterContext *sink;
    AVFrame *decoded;
    AVFrame *filtered;
} pd_lane;

typedef struct pd_job {
    const pd_ffmpeg *av;
    AVFormatContext *input;
    AVFormatContext *output;
    pd_lane video;
    pd_lane audio;
    int has_audio;
    AVPacket *packet;
    AVPacket *encoded;
    int64_t duration_us;
    pd_transcode_progress progress;
    void *context;
} pd_job;

/// Copies every entry of `from` (filtered by the caller) into `*to`.
static void pd_copy_tags(const pd_ffmpeg *av, const AVDictionary *from, AVDictionary **to) {
    const AVDictionaryEntry *tag = NULL;
    while (from && (tag = av->av_dict_get(from, "", tag, AV_DICT_IGNORE_SUFFIX))) av->av_dict_set(to, tag->key, tag->value, 0);
}

/// Opens the lane's encoder and makes its output stream (parameters, time
/// base, the caller's filtered tags); the stream in `*stream`.
static int pd_open_encoder(pd_job *job, pd_lane *lane, const AVCodec *codec, const AVDictionary *tags, AVStream **stream) {
    const pd_ffmpeg *av = job->av;
    if (job->output->oformat->flags & AVFMT_GLOBALHEADER) lane->encoder->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    int result = av->avcodec_open2(lane->encoder, codec, NULL);
    if (result < 0) return result;
    AVStream *out = av->avformat_new_stream(job->output, NULL);
    if (!out) return AVERROR(ENOMEM);
    result = av->avcodec_parameters_from_context(out->codecpar, lane->encoder);
    if (result < 0) return result;
    out->time_base = lane->encoder->time_base;
    lane->output_index = out->index;
    pd_copy_tags(av, tags, &out->metadata);
    *stream = out;
    return 0;
}

static void pd_lane_free(const pd_ffmpeg *av, pd_lane *lane) {
    if (lane->decoder) av->avcodec_free_context(&lane->decoder);
    if (lane->encoder) av->avcodec_free_context(&lane->encoder);
    if (lane->graph) av->avfilter_graph_free(&lane->graph);
    if (lane->decoded) av->av_frame_free(&lane->decoded);
    if (lane->filtered) av->av_frame_free(&lane->filtered);
}

static int pd_open_decoder(pd_job *job, pd_lane *lane, int threads) {
    const pd_ffmpeg *av = job->av;
    AVStream *stream = job->input->streams[lane->input_index];
    const AVCodec *codec = av->avcodec_find_decoder(stream->codecpar->codec_id);
    if (!codec) return AVERROR_DECODER_NOT_FOUND;
    lane->decoder = av->avcodec_alloc_context3(codec);
    if (!lane->decoder) return AVERROR(ENOMEM);
    int result = av->avcodec_parameters_to_context(lane->decoder, stream->codecpar);
    if (result < 0) return result;
    lane->decoder->pkt_timebase = stream->time_base;
    lane->decoder->thread_count = threads;
    result = av->avcodec_open2(lane->decoder, codec, NULL);
    if (result < 0) return result;
    lane->decoded = av->av_frame_alloc();
    lane->filtered = av->av_frame_alloc();
    return lane->decoded && lane->filtered ? 0 : AVERROR(ENOMEM);
}

static int pd_open_video(pd_job *job, const pd_transcode_options *options) {
    const pd_ffmpeg *av = job->av;
    pd_lane *lane = &job->video;
    int result = pd_open_decoder(job, lane, options->threads);
    if (result < 0) return result;
    AVStream *in = job->input->streams[lane->input_index];
    AVRational rate = in->avg_frame_rate.num > 0 && in->avg_frame_rate.den > 0 ? in->avg_frame_rate : in->r_frame_rate;
    if (rate.num <= 0 || rate.den <= 0) rate = (AVRational){30, 1};

    const AVCodec *codec = av->avcodec_find_encoder_by_name("libx264");
    if (!codec) return AVERROR_ENCODER_NOT_FOUND;
    AVCodecContext *encoder = lane->encoder = av->avcodec_alloc_context3(codec);
    if (!encoder) return AVERROR(ENOMEM);
    encoder->width = options->width;
    encoder->height = options->height;
    encoder->pix_fmt = AV_PIX_FMT_YUV420P;
    encoder->sample_aspect_ratio = lane->decoder->sample_aspect_ratio;
    encoder->time_base = in->time_base;
    encoder->framerate = rate;
    encoder->bit_rate = options->video_bit_rate;
    encoder->rc_max_rate = options->video_bit_rate + options->video_bit_rate / 2;
    encoder->rc_buffer_size = (int)(options->video_bit_rate * 2 > INT32_MAX ? INT32_MAX : options->video_bit_rate * 2);
    encoder->thread_count = options->threads;
    // A key frame every two seconds: a service's player seeks and starts fast.
    int64_t gop = (int64_t)rate.num * 2 / rate.den;
    encoder->gop_size = gop < 1 ? 1 : gop > 600 ? 600 : (int)gop;
    encoder->color_range = AVCOL_RANGE_MPEG;
    encoder->colorspace = lane->decoder->colorspace;
    encoder->color_primaries = lane->decoder->color_primaries;
    encoder->color_trc = lane->decoder->color_trc;
    av->av_opt_set(encoder->priv_data, "preset", options->preset ? options->preset : "veryfast", 0);
    AVStream *out = NULL;
    if ((result = pd_open_encoder(job, lane, codec, options->video_metadata, &out)) < 0) return result;
    out->avg_frame_rate = rate;
    // The display matrix and the HDR description stay with the pictures as stored.
    for (int index = 0; index < in->nb_side_data; index++) {
        AVPacketSideData *entry = &in->side_data[index];
        if (entry->size == 0 || entry->size > (1 << 20)) continue;
        uint8_t *target = av->av_stream_new_side_data(out, entry->type, entry->size);
        if (!target) return AVERROR(ENOMEM);
        memcpy(target, entry->data, entry->size);
    }

    lane->graph = av->avfilter_graph_alloc();
    if (!lane->graph) return AVERROR(ENOMEM);
    char arguments[512];
    AVRational aspect = lane->decoder->sample_aspect_ratio.num > 0 ? lane->decoder->sample_aspect_ratio : (AVRational){1, 1};
    snprintf(arguments, sizeof arguments, "video_size=%dx%d:pix_fmt=%d:time_base=%d/%d:pixel_aspect=%d/%d", lane->decoder->width,
             lane->decoder->height, lane->decoder->pix_fmt, in->time_base.num, in->time_base.den, aspect.num, aspect.den);
    AVFilterContext *previous = NULL;
    if ((result = pd_filter_chain(av, lane->graph, "buffer", "in", arguments, &previous)) < 0) return result;
    lane->source = previous;
    snprintf(arguments, sizeof arguments, "w=%d:h=%d:flags=bicubic", options->width, options->height);
    if ((result = pd_filter_chain(av, lane->graph, "scale", "scale", arguments, &previous)) < 0) return result;
    if ((result = pd_filter_chain(av, lane->graph, "format", "format", "pix_fmts=yuv420p", &previous)) < 0) return result;
    if ((result = pd_filter_chain(av, lane->graph, "buffersink", "out", NULL, &previous)) < 0) return result;
    lane->sink = previous;
    return av->avfilter_graph_config(lane->graph, NULL);
}

static int pd_open_audio(pd_job *job, const pd_transcode_options *options) {
    const pd_ffmpeg *av = job->av;
    pd_lane *lane = &job->audio;
    int result = pd_open_decoder(job, lane, 1);
    if (result < 0) return result;
    AVStream *in = job->input->streams[lane->input_index];
    const AVCodec *codec = av->avcodec_find_encoder_by_name("aac");
    if (!codec) return AVERROR_ENCODER_NOT_FOUND;
    AVCodecContext *encoder = lane->encoder = av->avcodec_alloc_context3(codec);
    if (!encoder) return AVERROR(ENOMEM);
    int channels = lane->decoder->ch_layout.nb_channels >= 2 ? 2 : 1;
    int rate = lane->decoder->sample_rate > 0 && lane->decoder->sample_rate <= 48000 ? lane->decoder->sample_rate : 48000;
    av->av_channel_layout_default(&encoder->ch_layout, channels);
    encoder->sample_rate = rate;
    encoder->sample_fmt = AV_SAMPLE_FMT_FLTP;
    encoder->bit_rate = options->audio_bit_rate;
    encoder->time_base = (AVRational){1, rate};
    AVStream *out = NULL;
    if ((result = pd_open_encoder(job, lane, codec, options->audio_metadata, &out)) < 0) return result;

    lane->graph = av->avfilter_graph_alloc();
    if (!lane->graph) return AVERROR(ENOMEM);
    char arguments[512];
    if ((result = pd_audio_source_arguments(av, lane->decoder->sample_rate, lane->decoder->sample_fmt, &lane->decoder->ch_layout, in->time_base,
                                             arguments, sizeof arguments)) < 0) return result;
    AVFilterContext *previous = NULL;
    if ((result = pd_filter_chain(av, lane->graph, "abuffer", "in", arguments, &previous)) < 0) return result;
    lane->source = previous;
    char target[128] = "";
    av->av_channel_layout_describe(&encoder->ch_layout, target, sizeof target);
    snprintf(arguments, sizeof arguments, "sample_fmts=fltp:sample_rates=%d:channel_layouts=%s", rate, target);
    if ((result = pd_filter_chain(av, lane->graph, "aresample", "resample", NULL, &previous)) < 0) return result;
    if ((result = pd_filter_chain(av, lane->graph, "aformat", "format", arguments, &previous)) < 0) return result;
    if ((result = pd_filter_chain(av, lane->graph, "abuffersink", "out", NULL, &previous)) < 0) return result;
    lane->sink = previous;
    result = av->avfilter_graph_config(lane->graph, NULL);
    if (result < 0) return result;
    if (encoder->frame_size > 0) av->av_buffersink_set_frame_size(lane->sink, (unsigned)encoder->frame_size);
    return 0;
}

/// Drains the lane's encoder (after `frame`, or its end when NULL) into the output.
static int pd_encode(pd_job *job, pd_lane *lane, AVFrame *frame) {
    const pd_ffmpeg *av = job->av;
    int result = av->avcodec_send_frame(lane->encoder, frame);
    if (result < 0 && result != AVERROR_EOF) return result;
    for (;;) {
        result = av->avcodec_receive_packet(lane->encoder, job->encoded);
        if (result == AVERROR(EAGAIN) || result == AVERROR_EOF) return 0;
        if (result < 0) return result;
        AVStream *out = job->output->streams[lane->output_index];
        job->encoded->stream_index = lane->output_index;
        av->av_packet_rescale_ts(job->encoded, lane->encoder->time_base, out->time_base);
        int64_t written_us = job->encoded->dts == AV_NOPTS_VALUE
                                 ? -1
                                 : av->av_rescale_q(job->encoded->dts, out->time_base, (AVRational){1, 1000000});
        result = av->av_interleaved_write_frame(job->output, job->encoded);
        if (result < 0) return result;
        if (job->progress && lane == &job->video && written_us >= 0 && job->duration_us > 0) {
            double fraction = (double)written_us / (double)job->duration_us;
            if (job->progress(job->context, fraction < 0 ? 0 : fraction > 1 ? 1 : fraction)) return AVERROR_EXIT;
        }
    }
}

/// Pushes `frame` (NULL at the end) through the lane's filters and encodes what comes out.
static int pd_filter(pd_job *job, pd_lane *lane, AVFrame *frame) {
    const pd_ffmpeg *av = job->av;
    int result = av->av_buffersrc_add_frame_flags(lane->source, frame, 0);
    if (result < 0) return result;
    for (;;) {
        result = av->av_buffersink_get_frame(lane->sink, lane->filtered);
        if (result == AVERROR(EAGAIN) || result == AVERROR_EOF) return 0;
        if (result < 0) return result;
        lane->filtered->pict_type = AV_PICTURE_TYPE_NONE;
        result = pd_encode(job, lane, lane->filtered);
        av->av_frame_unref(lane->filtered);
        if (result < 0) return result;
    }
}

/// Decodes `packet` (NULL at the end) and filters every frame it gives.
static int pd_decode(pd_job *job, pd_lane *lane, AVPacket *packet) {
    const pd_ffmpeg *av = job->av;
    int result = av->avcodec_send_packet(lane->decoder, packet);
    // A damaged packet is skipped, as players skip it; the next key frame recovers.
    if (result == AVERROR_INVALIDDATA) return 0;
    if (result < 0 && result != AVERROR_EOF) return result;
    for (;;) {
        result = av->avcodec_receive_frame(lane->decoder, lane->decoded);
        if (result == AVERROR(EAGAIN) || result == AVERROR_EOF) return 0;
        if (result == AVERROR_INVALIDDATA) continue;
        if (result < 0) return result;
        lane->decoded->pts = lane->decoded->best_effort_timestamp;
        result = pd_filter(job, lane, lane->decoded);
        av->av_frame_unref(lane->decoded);
        if (result < 0) return result;
    }
}

static int pd_run(pd_job *job, const char *output_path, const pd_transcode_options *options) {
    const pd_ffmpeg *av = job->av;
    int result = av->avformat_alloc_output_context2(&job->output, NULL, "mp4", output_path);
    if (result < 0) return result;
    if (!job->output) return AVERROR(ENOMEM);
    job->output->flags |= AVFMT_FLAG_BITEXACT;
    if ((result = pd_open_video(job, options)) < 0) return result;
    if (job->has_audio && (result = pd_open_audio(job, options)) < 0) return result;
    pd_copy_tags(av, options->container_metadata, &job->output->metadata);
    AVDictionary *io = NULL;
    av->av_dict_set(&io, "protocol_whitelist", "file", 0);
    result = av->avio_open2(&job->output->pb, output_path, AVIO_FLAG_WRITE, NULL, &io);
    av->av_dict_free(&io);
    if (result < 0) return result;
    AVDictionary *muxer = NULL;
    av->av_dict_set(&muxer, "movflags", "+faststart", 0);
    result = av->avformat_write_header(job->output, &muxer);
    av->av_dict_free(&muxer);
    if (result < 0) return result;

    job->packet = av->av_packet_alloc();
    job->encoded = av->av_packet_alloc();
    if (!job->packet || !job->encoded) return AVERROR(ENOMEM);
    for (;;) {
        result = av->av_read_frame(job->input, job->packet);
        if (result == AVERROR_EOF) break;
        if (result < 0) return result;
        pd_lane *lane = job->packet->stream_index == job->video.input_index ? &job->video
                        : job->has_audio && job->packet->stream_index == job->audio.input_index ? &job->audio
                                                                                                 : NULL;
        result = lane ? pd_decode(job, lane, job->packet) : 0;
        av->av_packet_unref(job->packet);
        if (result < 0) return result;
    }
    pd_lane *lanes[2] = {&job->video, job->has_audio ? &job->audio : NULL};
    for (int index = 0; index < 2; index++) {
        pd_lane *lane = lanes[index];
        if (!lane) continue;
        if ((result = pd_decode(job, lane, NULL)) < 0) return result;
        if ((result = pd_filter(job, lane, NULL)) < 0) return result;
        if ((result = pd_encode(job, lane, NULL)) < 0) return result;
    }
    return av->av_write_trailer(job->output);
}

int pd_transcode(pd_video_source *source, const char *output_path, const pd_transcode_options *options, pd_transcode_progress progress,
                 void *context) {
    const pd_ffmpeg *av = pd_ffmpeg_loaded();
    if (!av || !source || !source->format || !output_path || !options) return AVERROR(EINVAL);
    if (options->width < 2 || options->height < 2 || options->width % 2 || options->height % 2 || options->video_bit_rate <= 0)
        return AVERROR(EINVAL);
    pd_job job;
    memset(&job, 0, sizeof job);
    job.av = av;
    job.input = source->format;
    job.progress = progress;
    job.context = context;
    job.duration_us = source->format->duration > 0 ? source->format->duration : 0;
    job.video.input_index = av->av_find_best_stream(job.input, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
    if (job.video.input_index < 0) return job.video.input_index;
    job.audio.input_index = options->audio_bit_rate > 0 ? av->av_find_best_stream(job.input, AVMEDIA_TYPE_AUDIO, -1, -1, NULL, 0) : -1;
    job.has_audio = job.audio.input_index >= 0;
    int result = pd_run(&job, output_path, options);
    if (job.output) {
        if (job.output->pb) av->avio_closep(&job.output->pb);
        av->avformat_free_context(job.output);
    }
    if (job.packet) av->av_packet_free(&job.packet);
    if (job.encoded) av->av_packet_free(&job.encoded);
    pd_lane_free(av, &job.video);
    pd_lane_free(av, &job.audio);
    return result < 0 ? result : 0;
}
