#ifndef PHOTODECK_CCHAFA_SHIM_H
#define PHOTODECK_CCHAFA_SHIM_H
#include <chafa.h>
#include <stddef.h>
#include <stdint.h>

/* One DEC sixel picture of `width` x `height` pixels, RGB (`has_alpha`
 * 0) or RGBA with unassociated alpha (alpha 0 leaves a pixel undrawn),
 * `rowstride` bytes apart: libchafa's own 256-colour palette for the
 * picture, no scaling (one pixel per cell). Returns the bytes (free them
 * with pd_chafa_free) and their count in *length; NULL when libchafa
 * could not make a canvas. */
static inline char *pd_chafa_sixels(const uint8_t *pixels, int has_alpha, int width, int height, int rowstride, int dither, size_t *length) {
    ChafaCanvasConfig *config = chafa_canvas_config_new();
    if (config == NULL) return NULL;
    chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SIXELS);
    chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR);
    chafa_canvas_config_set_cell_geometry(config, 1, 1);
    chafa_canvas_config_set_geometry(config, width, height);
    chafa_canvas_config_set_dither_mode(config, (ChafaDitherMode) dither);
    ChafaCanvas *canvas = chafa_canvas_new(config);
    chafa_canvas_config_unref(config);
    if (canvas == NULL) return NULL;
    chafa_canvas_draw_all_pixels(canvas, has_alpha ? CHAFA_PIXEL_RGBA8_UNASSOCIATED : CHAFA_PIXEL_RGB8, pixels, width, height, rowstride);
    GString *printed = chafa_canvas_print(canvas, NULL);
    chafa_canvas_unref(canvas);
    if (printed == NULL) return NULL;
    *length = printed->len;
    return g_string_free(printed, FALSE);
}

static inline void pd_chafa_free(char *bytes) { g_free(bytes); }

static inline int pd_chafa_dither_none(void) { return CHAFA_DITHER_MODE_NONE; }
static inline int pd_chafa_dither_ordered(void) { return CHAFA_DITHER_MODE_ORDERED; }
static inline int pd_chafa_dither_diffusion(void) { return CHAFA_DITHER_MODE_DIFFUSION; }

#endif
