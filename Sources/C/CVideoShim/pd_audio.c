// A video's sound for playback: decoded frames resampled to interleaved
// signed 16-bit at the output device's rate and channel count, through
// FFmpeg's filters (abuffer, aresample, aformat, abuffersink), as
// ffplay converts for SDL.

#include "pd_video.h"
#include "pd_ffmpeg.h"
#include "pd_filters.h"

#include <stdio.h>
#include <stdlib.h>

struct pd_audio_converter {
    const pd_ffmpeg *av;
    AVFilterGraph *graph;
    AVFilterContext *source;
    AVFilterContext *sink;
};

int pd_audio_converter_open(const AVFrame *frame, AVRational time_base, int rate, int channels, pd_audio_converter **out) {
    const pd_ffmpeg *av = pd_ffmpeg_loaded();
    if (!av || !frame || !out || rate < 1000 || rate > 768000 || channels < 1 || channels > 8) return AVERROR(EINVAL);
    *out = NULL;
    pd_audio_converter *converter = calloc(1, sizeof *converter);
    if (!converter) return AVERROR(ENOMEM);
    converter->av = av;
    converter->graph = av->avfilter_graph_alloc();
    int result = converter->graph ? 0 : AVERROR(ENOMEM);
    char arguments[512];
    AVFilterContext *previous = NULL;
    if (result >= 0) result = pd_audio_source_arguments(av, frame->sample_rate, frame->format, &frame->ch_layout, time_base, arguments, sizeof arguments);
    if (result >= 0) result = pd_filter_chain(av, converter->graph, "abuffer", "in", arguments, &previous);
    converter->source = previous;
    if (result >= 0) result = pd_filter_chain(av, converter->graph, "aresample", "resample", NULL, &previous);
    if (result >= 0) {
        char layout[128] = "";
        AVChannelLayout target;
        av->av_channel_layout_default(&target, channels);
        av->av_channel_layout_describe(&target, layout, sizeof layout);
        av->av_channel_layout_uninit(&target);
        snprintf(arguments, sizeof arguments, "sample_fmts=s16:sample_rates=%d:channel_layouts=%s", rate, layout);
        result = pd_filter_chain(av, converter->graph, "aformat", "format", arguments, &previous);
    }
    if (result >= 0) result = pd_filter_chain(av, converter->graph, "abuffersink", "out", NULL, &previous);
    converter->sink = previous;
    if (result >= 0) result = av->avfilter_graph_config(converter->graph, NULL);
    if (result < 0) {
        pd_audio_converter_free(&converter);
        return result;
    }
    *out = converter;
    return 0;
}

int pd_audio_converter_push(pd_audio_converter *converter, AVFrame *frame) {
    if (!converter) return AVERROR(EINVAL);
    return converter->av->av_buffersrc_add_frame_flags(converter->source, frame, 0);
}

int pd_audio_converter_pull(pd_audio_converter *converter, AVFrame *frame) {
    if (!converter || !frame) return AVERROR(EINVAL);
    return converter->av->av_buffersink_get_frame(converter->sink, frame);
}

void pd_audio_converter_free(pd_audio_converter **converter) {
    if (!converter || !*converter) return;
    if ((*converter)->graph) (*converter)->av->avfilter_graph_free(&(*converter)->graph);
    free(*converter);
    *converter = NULL;
}
