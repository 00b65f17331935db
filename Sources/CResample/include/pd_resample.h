#ifndef PHOTODECK_PD_RESAMPLE_H
#define PHOTODECK_PD_RESAMPLE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Fixed-point precision of the weights (their sum is 1 << 22).
#define PD_RESAMPLE_PRECISION 22

/// One output row of the vertical pass: `row_bytes` bytes, each the
/// weighted sum of the same byte in the `count` source rows `rows[0]`...
/// `rows[count - 1]`. `accumulator` is scratch of `row_bytes` int32 values.
void pd_resample_vertical_row(const uint8_t *const *rows, size_t row_bytes,
                              const int32_t *weights, int count,
                              int32_t *accumulator, uint8_t *output);

/// One output row of the horizontal pass: `width` pixels of `channels`
/// (1, 3 or 4) bytes. Output pixel x is the weighted sum of `counts[x]`
/// source pixels from `starts[x]`, with weights at `weights + x * stride`.
/// For 3 channels, 4 bytes are read per pixel: the source row must have one
/// spare byte after its last pixel.
void pd_resample_horizontal_row(const uint8_t *source, uint8_t *output, int width, int channels,
                                const int32_t *starts, const int32_t *counts,
                                const int32_t *weights, int stride);

/// Adds `length` bytes of `row` into `sums` (the column sums of a box filter).
void pd_resample_add_row(const uint8_t *row, uint32_t *sums, size_t length);

#ifdef __cplusplus
}
#endif

#endif
