#include "pd_ffmpeg.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <libavcodec/version.h>
#include <libavfilter/version.h>
#include <libavformat/version.h>
#include <libavutil/version.h>

#define PD_SONAME(library, major) "lib" library ".so." AV_STRINGIFY(major)

static pd_ffmpeg pd_table;
static const pd_ffmpeg *pd_result;
static char pd_failure[512];
static pthread_once_t pd_once = PTHREAD_ONCE_INIT;

/// Opens one library by SONAME; NULL with the reason in pd_failure.
static void *pd_open(const char *soname) {
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(pd_failure, sizeof pd_failure, "%s", reason ? reason : soname);
    }
    return handle;
}

/// Resolves one symbol; 0 with the reason in pd_failure.
static int pd_resolve(void *handle, const char *name, void **slot) {
    *slot = dlsym(handle, name);
    if (*slot) return 1;
    snprintf(pd_failure, sizeof pd_failure, "FFmpeg's libraries have no %s: not the release PhotoDeck was built against", name);
    return 0;
}

static void pd_load_once(void) {
    // The libraries are never closed: their code may still be on a stack.
    void *avutil = pd_open(PD_SONAME("avutil", LIBAVUTIL_VERSION_MAJOR));
    void *avcodec = avutil ? pd_open(PD_SONAME("avcodec", LIBAVCODEC_VERSION_MAJOR)) : NULL;
    void *avformat = avcodec ? pd_open(PD_SONAME("avformat", LIBAVFORMAT_VERSION_MAJOR)) : NULL;
    void *avfilter = avformat ? pd_open(PD_SONAME("avfilter", LIBAVFILTER_VERSION_MAJOR)) : NULL;
    if (!avfilter) return;
    int resolved = 1;
#define PD_RESOLVE(handle, name) resolved = resolved && pd_resolve(handle, #name, (void **)&pd_table.name);
#define PD_RESOLVE_AVUTIL(name) PD_RESOLVE(avutil, name)
#define PD_RESOLVE_AVCODEC(name) PD_RESOLVE(avcodec, name)
#define PD_RESOLVE_AVFORMAT(name) PD_RESOLVE(avformat, name)
#define PD_RESOLVE_AVFILTER(name) PD_RESOLVE(avfilter, name)
    PD_FFMPEG_AVUTIL(PD_RESOLVE_AVUTIL)
    PD_FFMPEG_AVCODEC(PD_RESOLVE_AVCODEC)
    PD_FFMPEG_AVFORMAT(PD_RESOLVE_AVFORMAT)
    PD_FFMPEG_AVFILTER(PD_RESOLVE_AVFILTER)
    if (!resolved) return;
    // Errors are reported as values; FFmpeg's own log would reach stderr.
    pd_table.av_log_set_level(AV_LOG_QUIET);
    pd_result = &pd_table;
}

const pd_ffmpeg *pd_ffmpeg_load(char *message, size_t size) {
    pthread_once(&pd_once, pd_load_once);
    if (!pd_result && size > 0) snprintf(message, size, "%s", pd_failure);
    return pd_result;
}

const pd_ffmpeg *pd_ffmpeg_loaded(void) {
    // pthread_once is the barrier: whoever returns from it reads the finished table.
    pthread_once(&pd_once, pd_load_once);
    return pd_result;
}
