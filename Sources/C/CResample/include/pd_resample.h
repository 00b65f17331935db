#ifndef PHOTODECK_PD_RESAMPLE_H
#define PHOTODECK_PD_RESAMPLE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Fixed-point precision of the weights (their sum is 1 << 14): every
/// weight fits 16 bits, and 8-bit samples times weights of at most about
/// 1.3 (Lanczos3) leave the 32-bit sums far from overflow.
#define PD_RESAMPLE_PRECISION 14

/// Which version of a loop runs: the fastest the CPU offers (AVX2 on
/// x86-64 where present), or the portable one. Both make the same bytes;
/// the choice exists so that tests can show it.
typedef enum {
    PD_RESAMPLE_FASTEST = 0,
    PD_RESAMPLE_PORTABLE = 1,
} pd_resample_path;

/// One output row of the vertical pass: `row_bytes` bytes, each the
/// weighted sum of the same byte in the `count` source rows `rows[0]`...
/// `rows[count - 1]`. `accumulator` is scratch of `row_bytes` int32 values.
void pd_resample_vertical_row(const uint8_t *const *rows, size_t row_bytes,
                              const int16_t *weights, int count,
                              int32_t *accumulator, uint8_t *output);

/// `pd_resample_vertical_row` through the given version.
void pd_resample_vertical_row_using(pd_resample_path path, const uint8_t *const *rows, size_t row_bytes,
                                    const int16_t *weights, int count,
                                    int32_t *accumulator, uint8_t *output);

/// One output row of the horizontal pass: `width` pixels of `channels`
/// (1, 3 or 4) bytes. Output pixel x is the weighted sum of `counts[x]`
/// source pixels from `starts[x]`, with weights at `weights + x * stride`.
/// For 3 channels, pixels are read 4 or 8 bytes at a time: the source row
/// must have 4 spare bytes after its last pixel.
void pd_resample_horizontal_row(const uint8_t *source, uint8_t *output, int width, int channels,
                                const int32_t *starts, const int32_t *counts,
                                const int16_t *weights, int stride);

/// `pd_resample_horizontal_row` through the given version.
void pd_resample_horizontal_row_using(pd_resample_path path, const uint8_t *source, uint8_t *output, int width, int channels,
                                      const int32_t *starts, const int32_t *counts,
                                      const int16_t *weights, int stride);

/// Adds `length` bytes of `row` into `sums` (the column sums of a box filter).
void pd_resample_add_row(const uint8_t *row, uint32_t *sums, size_t length);

/// Copies a `width` x `height` image of `bytes_per_pixel` pixels into
/// `target` (rows `target_stride` apart), reading target pixel (x, y) at
/// `source + start + x * step_x + y * step_y`: any of the eight EXIF
/// orientations as two steps. Works in tiles so that a quarter turn reads
/// the source a cache line at a time. The caller proves every read inside
/// the source.
void pd_orient_pixels(const uint8_t *source, uint8_t *target, size_t target_stride, size_t width, size_t height, int bytes_per_pixel,
                      ptrdiff_t start, ptrdiff_t step_x, ptrdiff_t step_y);

/// Writes the `width` pixels of `row` to `target`, `target + step`,
/// `target + 2 * step`...: one stored row scattered into upright pixels
/// as it is made. The caller proves every write inside the target.
void pd_orient_row(const uint8_t *row, size_t width, int bytes_per_pixel, uint8_t *target, ptrdiff_t step);

#ifdef __cplusplus
}
#endif

#endif
