#ifndef PHOTODECK_PD_JPEG_H
#define PHOTODECK_PD_JPEG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Output colour layouts of `pd_jpeg_decode`.
typedef enum pd_jpeg_output {
    PD_JPEG_GRAY = 1,
    PD_JPEG_RGB = 3,
    PD_JPEG_CMYK = 4
} pd_jpeg_output;

typedef struct pd_jpeg_diagnostics {
    char message[200];
    char first_warning[200];
    int warning_count;
    int truncated; ///< 1 when libjpeg reported a premature end of data.
} pd_jpeg_diagnostics;

/// Decodes a JPEG with libjpeg's own API, for files TurboJPEG 2.1 refuses
/// (unusual sampling factors). The image is scaled by `scale_num`/8 in the
/// DCT and written as `output` channels into `pixels` (`stride` bytes per
/// row, `width` x `height`, which must equal libjpeg's scaled output size).
/// libjpeg's error exit longjmps back into this function; nothing escapes.
/// Returns 0 on success, -1 on error (see `diagnostics`).
int pd_jpeg_decode(const uint8_t *data, size_t size, int scale_num, pd_jpeg_output output,
                   uint8_t *pixels, size_t stride, uint32_t width, uint32_t height,
                   pd_jpeg_diagnostics *diagnostics);

/// A JPEG being decoded a batch of rows at a time (libjpeg's scanline API),
/// so that a caller can resample rows as they arrive instead of holding the
/// whole image.
typedef struct pd_jpeg_reader pd_jpeg_reader;

/// Starts decoding: reads the header, scales by `scale_num`/8 and checks
/// that the output is `width` x `height` with `output` channels. Returns
/// NULL on failure (see `diagnostics`). `data` must outlive the reader.
pd_jpeg_reader *pd_jpeg_reader_open(const uint8_t *data, size_t size, int scale_num, pd_jpeg_output output,
                                    uint32_t width, uint32_t height, pd_jpeg_diagnostics *diagnostics);

/// Decodes the next `count` rows into `rows[0]`...`rows[count - 1]` (each
/// `width * output` bytes). Returns 0, or -1 on failure (see the
/// diagnostics given to open, which also collect warnings).
int pd_jpeg_reader_read(pd_jpeg_reader *reader, uint8_t *const *rows, uint32_t count);

/// Finishes (verifying the end of the data when every row was read) and
/// frees the reader. Returns 0, or -1 when finishing failed.
int pd_jpeg_reader_close(pd_jpeg_reader *reader);

#ifdef __cplusplus
}
#endif

#endif
