#ifndef PHOTODECK_PD_SIXEL_H
#define PHOTODECK_PD_SIXEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A DEC sixel picture written by hand: a palette of up to 256 colours
/// chosen for the picture (median cut over a 5-bit histogram, refined by
/// k-means), each pixel drawn in its nearest palette colour (no
/// dithering), bands of six rows run-length encoded.
///
/// Pixels are RGB (`channels` 3) or RGBA (4, unassociated alpha: alpha
/// below 128 leaves the pixel undrawn), `stride` bytes from row to row.
/// Sizes are checked by the caller (width and height at least 1; `stride`
/// at least `width * channels`).

/// A palette: `count` colours, RGB, as the terminal will show them (each
/// channel rounded to sixel's whole percents and back).
typedef struct {
    int count;
    uint8_t rgb[256 * 3];
} pd_sixel_palette;

/// Chooses the palette of the picture's drawn pixels (at most 256
/// colours; fewer when the picture has fewer). A picture with no drawn
/// pixel gets one colour (black).
void pd_sixel_choose_palette(const uint8_t *pixels, int channels, int width, int height, size_t stride, pd_sixel_palette *palette);

/// Bytes written by `pd_sixel_write_bands`: free them with `pd_sixel_free`.
typedef struct {
    uint8_t *bytes;
    size_t length;
    size_t capacity;
    int failed;
} pd_sixel_output;

/// Appends the sixel data of the bands of rows `[first_row, end_row)`
/// (`first_row` a multiple of 6; `end_row` the picture's height or a
/// multiple of 6), each band ended by `-` except the picture's last.
/// Independent of other bands: two threads may write two ranges into two
/// outputs. Sets `output->failed` when memory runs out.
void pd_sixel_write_bands(const uint8_t *pixels, int channels, int width, int height, size_t stride, int first_row, int end_row,
                          const pd_sixel_palette *palette, pd_sixel_output *output);

/// Appends the introducer (`ESC P 0;1;0 q`), the raster attributes for
/// `width` x `height` and the palette's colour registers.
void pd_sixel_write_header(int width, int height, const pd_sixel_palette *palette, pd_sixel_output *output);

/// Frees what an output holds.
void pd_sixel_free(pd_sixel_output *output);

#ifdef __cplusplus
}
#endif

#endif
