#ifndef PHOTODECK_PD_FILTERS_H
#define PHOTODECK_PD_FILTERS_H

// The shim's own filter-graph helpers, shared by the transcode and the
// playback sound converter (not part of the module's interface).

#include "pd_ffmpeg.h"

#include <stddef.h>

/// Makes `name` with `arguments` in `graph` and links `*previous` to it;
/// the new filter in `*previous`.
int pd_filter_chain(const pd_ffmpeg *av, AVFilterGraph *graph, const char *name, const char *label, const char *arguments,
                    AVFilterContext **previous);

/// The `abuffer` arguments for sound frames of `rate`, `format` and
/// `layout` stamped in `time_base` (mono when the layout names no
/// channels) into `buffer`. AVERROR_INVALIDDATA without a rate or format.
int pd_audio_source_arguments(const pd_ffmpeg *av, int rate, int format, const AVChannelLayout *layout, AVRational time_base,
                              char *buffer, size_t size);

#endif
