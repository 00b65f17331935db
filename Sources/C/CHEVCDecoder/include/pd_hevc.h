#ifndef PHOTODECK_PD_HEVC_H
#define PHOTODECK_PD_HEVC_H

/// Registers, once per process, a libheif decoder plugin for HEVC that runs
/// libde265 with `threads` worker threads (wavefront-parallel decoding of
/// one picture). libheif 1.15's own libde265 plugin decodes on one thread;
/// this one takes priority over it. Thread-safe; later calls do nothing.
void pd_hevc_register(int threads);

/// The identifier of libheif's built-in libde265 decoder, to ask for it
/// by name (`heif_decoding_options.decoder_id`).
extern const char *const pd_hevc_builtin_decoder_id;

#endif
