// Filter-graph helpers shared by the transcode and the sound converter.

#include "pd_filters.h"

#include <stdio.h>

int pd_filter_chain(const pd_ffmpeg *av, AVFilterGraph *graph, const char *name, const char *label, const char *arguments,
                    AVFilterContext **previous) {
    AVFilterContext *filter = NULL;
    const AVFilter *kind = av->avfilter_get_by_name(name);
    if (!kind) return AVERROR_FILTER_NOT_FOUND;
    int result = av->avfilter_graph_create_filter(&filter, kind, label, arguments, NULL, graph);
    if (result < 0) return result;
    if (*previous) {
        result = av->avfilter_link(*previous, 0, filter, 0);
        if (result < 0) return result;
    }
    *previous = filter;
    return 0;
}

int pd_audio_source_arguments(const pd_ffmpeg *av, int rate, int format, const AVChannelLayout *layout, AVRational time_base,
                              char *buffer, size_t size) {
    char named[128] = "";
    if (layout->nb_channels <= 0) {
        AVChannelLayout fallback;
        av->av_channel_layout_default(&fallback, 1);
        av->av_channel_layout_describe(&fallback, named, sizeof named);
        av->av_channel_layout_uninit(&fallback);
    } else if (av->av_channel_layout_describe(layout, named, sizeof named) < 0) {
        return AVERROR(EINVAL);
    }
    const char *name = av->av_get_sample_fmt_name((enum AVSampleFormat)format);
    if (!name || rate <= 0 || time_base.num <= 0 || time_base.den <= 0) return AVERROR_INVALIDDATA;
    int written = snprintf(buffer, size, "time_base=%d/%d:sample_rate=%d:sample_fmt=%s:channel_layout=%s", time_base.num, time_base.den,
                           rate, name, named);
    return written > 0 && (size_t)written < size ? 0 : AVERROR(EINVAL);
}
