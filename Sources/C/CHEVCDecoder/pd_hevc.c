// A libheif decoder plugin for HEVC over libde265 with worker threads.
// libheif 1.15's own plugin starts none, so a HEIC decodes on one core;
// x265 and Apple's encoders write wavefront-parallel streams, which
// libde265 decodes on several. The plugin copies libde265's planes into a
// heif_image and leaves colour conversion, cropping and the container's
// transforms to libheif, as the built-in plugin does.

#include "pd_hevc.h"

#include <libheif/heif.h>
#include <libheif/heif_plugin.h>
#include <libde265/de265.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int pd_threads = 2;  // written once, before registration
struct pd_decoder { de265_decoder_context* ctx; };

static struct heif_error ok(void) { struct heif_error e = {heif_error_Ok, heif_suberror_Unspecified, "Success"}; return e; }
static struct heif_error fail(enum heif_error_code c, const char* m) { struct heif_error e = {c, heif_suberror_Unspecified, m}; return e; }

static const char* pd_name(void) { return "PhotoDeck libde265 (threaded)"; }
static void pd_init(void) {}
static void pd_deinit(void) {}
static int pd_supports(enum heif_compression_format f) { return f == heif_compression_HEVC ? 120 : 0; }

static struct heif_error pd_new(void** out) {
  struct pd_decoder* d = calloc(1, sizeof *d);
  if (!d) return fail(heif_error_Memory_allocation_error, "out of memory");
  d->ctx = de265_new_decoder();
  if (!d->ctx) { free(d); return fail(heif_error_Memory_allocation_error, "libde265 could not allocate a decoder"); }
  if (pd_threads > 1) de265_start_worker_threads(d->ctx, pd_threads);
  *out = d;
  return ok();
}
static void pd_free(void* p) { struct pd_decoder* d = p; if (!d) return; de265_free_decoder(d->ctx); free(d); }

static struct heif_error pd_push(void* p, const void* data, size_t size) {
  struct pd_decoder* d = p; const uint8_t* b = data;
  while (size > 0) {
    if (size < 4) return fail(heif_error_Decoder_plugin_error, "a NAL unit's length is cut short");
    uint32_t n = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
    if (n > size - 4) return fail(heif_error_Decoder_plugin_error, "a NAL unit runs past the data");
    de265_push_NAL(d->ctx, b + 4, (int)n, 0, NULL);
    b += 4 + n; size -= 4 + n;
  }
  return ok();
}

static struct heif_error pd_decode(void* p, struct heif_image** out) {
  struct pd_decoder* d = p;
  de265_flush_data(d->ctx);
  int more = 1;
  const struct de265_image* picture = NULL;
  while (more && !picture) {
    more = 0;
    de265_error err = de265_decode(d->ctx, &more);
    if (err != DE265_OK && err != DE265_ERROR_WAITING_FOR_INPUT_DATA && !de265_isOK(err)) break;
    picture = de265_get_next_picture(d->ctx);
  }
  if (!picture) picture = de265_get_next_picture(d->ctx);
  if (!picture) return fail(heif_error_Decoder_plugin_error, "libde265 produced no picture");
  enum de265_chroma chroma = de265_get_chroma_format(picture);
  enum heif_chroma heifChroma; enum heif_colorspace space = heif_colorspace_YCbCr; int planes = 3;
  switch (chroma) {
    case de265_chroma_mono: heifChroma = heif_chroma_monochrome; space = heif_colorspace_monochrome; planes = 1; break;
    case de265_chroma_420: heifChroma = heif_chroma_420; break;
    case de265_chroma_422: heifChroma = heif_chroma_422; break;
    default: heifChroma = heif_chroma_444; break;
  }
  int width = de265_get_image_width(picture, 0), height = de265_get_image_height(picture, 0);
  struct heif_image* image = NULL;
  struct heif_error e = heif_image_create(width, height, space, heifChroma, &image);
  if (e.code) { de265_release_next_picture(d->ctx); return e; }
  static const enum heif_channel channels[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
  for (int c = 0; c < planes; c++) {
    int w = de265_get_image_width(picture, c), h = de265_get_image_height(picture, c), bits = de265_get_bits_per_pixel(picture, c);
    if (w <= 0 || h <= 0 || bits <= 0 || bits > 16) { heif_image_release(image); de265_release_next_picture(d->ctx); return fail(heif_error_Decoder_plugin_error, "libde265 returned an invalid plane"); }
    e = heif_image_add_plane(image, channels[c], w, h, bits);
    if (e.code) { heif_image_release(image); de265_release_next_picture(d->ctx); return e; }
    int srcStride = 0, dstStride = 0;
    const uint8_t* src = de265_get_image_plane(picture, c, &srcStride);
    uint8_t* dst = heif_image_get_plane(image, channels[c], &dstStride);
    int rowBytes = w * ((bits + 7) / 8);
    for (int y = 0; y < h; y++) memcpy(dst + (size_t)y * dstStride, src + (size_t)y * srcStride, rowBytes);
  }
  de265_release_next_picture(d->ctx);
  *out = image;
  return ok();
}

static const struct heif_decoder_plugin pd_plugin = {
  .plugin_api_version = 1, .get_plugin_name = pd_name, .init_plugin = pd_init, .deinit_plugin = pd_deinit,
  .does_support_format = pd_supports, .new_decoder = pd_new, .free_decoder = pd_free, .push_data = pd_push, .decode_image = pd_decode,
};


const char *const pd_hevc_builtin_decoder_id = "libde265";

static pthread_once_t pd_once = PTHREAD_ONCE_INIT;
static void pd_register_once(void) { heif_register_decoder_plugin(&pd_plugin); }

void pd_hevc_register(int threads) {
  if (threads < 1) threads = 1;
  if (threads > 8) threads = 8;
  pd_threads = threads;
  pthread_once(&pd_once, pd_register_once);
}
