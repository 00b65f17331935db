#ifndef PHOTODECK_PD_JPEG_H
#define PHOTODECK_PD_JPEG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Output colour layouts of a `pd_jpeg_reader`.
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
    int too_costly; ///< 1 when the scans exceeded the limits below.
} pd_jpeg_diagnostics;

/// The most scans a file may have (TurboJPEG's TJFLAG_LIMITSCANS allows 500).
#define PD_JPEG_MAX_SCANS 500
/// Scans may visit each block at most this many times in all: a sequential
/// file visits each once, a typical progressive one 4 to 6 times, and one
/// scan per coefficient 64 times.
#define PD_JPEG_MAX_PASSES 100
/// ... and decode each coefficient at most this many times: once, plus at
/// most 13 refinement bits of successive approximation, with room to spare.
#define PD_JPEG_MAX_COEFFICIENT_PASSES 20
#define PD_JPEG_STRINGIFY_(x) #x
#define PD_JPEG_STRINGIFY(x) PD_JPEG_STRINGIFY_(x)

/// A JPEG being decoded a batch of rows at a time with libjpeg's own
/// scanline API: rows can be resampled as they arrive, and files TurboJPEG
/// 2.1 refuses (unusual sampling factors) still decode. libjpeg's error exit
/// longjmps back into the reader's functions; nothing escapes.
///
/// Every scan's cost is checked before it is decoded (a progress monitor):
/// more than PD_JPEG_MAX_SCANS scans, or scans that together visit the
/// blocks or coefficients more often than the limits above, fail with
/// `too_costly` set. A progressive file of thousands of cheap scans would
/// otherwise take seconds to minutes whatever its size.
typedef struct pd_jpeg_reader pd_jpeg_reader;

/// Starts decoding: reads the header, scales by `scale_num`/8 and checks
/// that the output is `width` x `height` with `output` channels. Returns
/// NULL on failure (see `diagnostics`). `data` must outlive the reader.
pd_jpeg_reader *pd_jpeg_reader_open(const uint8_t *data, size_t size, int scale_num, pd_jpeg_output output,
                                    uint32_t width, uint32_t height, pd_jpeg_diagnostics *diagnostics);

/// The same, reading the file open as `descriptor` (with pread, 64 KB at a
/// time, from offset 0 up to `size` bytes, the length it had when opened)
/// instead of bytes in memory. A file that ends early is a premature end
/// (`truncated`), as in memory; a read error fails. `descriptor` must stay
/// open while the reader lives.
pd_jpeg_reader *pd_jpeg_reader_open_file(int descriptor, uint64_t size, int scale_num, pd_jpeg_output output,
                                         uint32_t width, uint32_t height, pd_jpeg_diagnostics *diagnostics);

/// Decodes the next `count` rows into `rows[0]`...`rows[count - 1]` (each
/// `width * output` bytes). Returns 0, or -1 on failure (see the
/// diagnostics given to open, which also collect warnings).
int pd_jpeg_reader_read(pd_jpeg_reader *reader, uint8_t *const *rows, uint32_t count);

/// Finishes (verifying the end of the data when every row was read) and
/// frees the reader. Returns 0, or -1 when finishing failed.
int pd_jpeg_reader_close(pd_jpeg_reader *reader);

/// Reads the quantized DCT coefficients of `component` (0: luma): the
/// component's `blocks_wide` x `blocks_high` blocks of 64 values each, in
/// natural (row-major) order, into `out` when it holds `capacity` values
/// (call with `out` NULL to learn the size). Under the same scan budget as
/// the reader. Returns 0, or -1 (see `diagnostics`).
int pd_jpeg_read_coefficients(const uint8_t *data, size_t size, int component, int16_t *out, size_t capacity,
                              uint32_t *blocks_wide, uint32_t *blocks_high, pd_jpeg_diagnostics *diagnostics);

#ifdef __cplusplus
}
#endif

#endif
