#ifndef PHOTODECK_PD_PNG_H
#define PHOTODECK_PD_PNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Outcome of a shim call. Every libpng error (which libpng reports with
/// longjmp) is caught inside the shim and turned into one of these codes.
typedef enum pd_png_status {
    PD_PNG_OK = 0,
    /// libpng rejected the data; `message` holds libpng's text.
    PD_PNG_CORRUPT = 1,
    /// The data ended before libpng had read what it needed.
    PD_PNG_TRUNCATED = 2,
    /// Allocation failed or the caller's arguments were inconsistent.
    PD_PNG_FAILURE = 3
} pd_png_status;

/// What the header says and what the shim will write for it.
typedef struct pd_png_header {
    uint32_t width;
    uint32_t height;
    int bit_depth;        ///< As stored in IHDR.
    int color_type;       ///< PNG_COLOR_TYPE_* as stored in IHDR.
    int interlaced;       ///< 1 for Adam7.
    int has_trns;         ///< 1 when a tRNS chunk precedes IDAT.
    int output_channels;  ///< 1 (gray), 3 (RGB) or 4 (RGBA), 8 bits each.
} pd_png_header;

/// Messages libpng produced. `warning_count` counts every warning; only the
/// first is kept.
typedef struct pd_png_diagnostics {
    char message[256];
    char first_warning[256];
    int warning_count;
    int truncated; ///< 1 when the data ended before libpng was done.
} pd_png_diagnostics;

/// Encodes 8-bit pixels (`channels` = 1, 2, 3 or 4) as a PNG. On success
/// `*output` points to a buffer from malloc that the caller frees with
/// `pd_png_free`. `compression_level` is zlib's 0...9. When `exif` is not
/// NULL an eXIf chunk is written before IDAT.
pd_png_status pd_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height,
                            size_t stride, int channels, int compression_level,
                            const uint8_t *exif, uint32_t exif_length,
                            uint8_t **output, size_t *output_size,
                            pd_png_diagnostics *diagnostics);

/// A non-interlaced PNG being decoded a row at a time, so that a caller can
/// resample rows as they arrive instead of holding the whole image.
typedef struct pd_png_reader pd_png_reader;

/// Starts decoding `data` (which must outlive the reader): reads the header
/// and sets up 8-bit output (palette and gray expanded, tRNS as alpha,
/// 16-bit samples rounded, gray with alpha as RGBA). Returns NULL on
/// failure (see `diagnostics`, which also collects warnings later). An
/// interlaced image (`header->interlaced`) must be read whole, with
/// `pd_png_reader_read_image`.
pd_png_reader *pd_png_reader_open(const uint8_t *data, size_t size, uint32_t max_width, uint32_t max_height,
                                  pd_png_header *header, pd_png_diagnostics *diagnostics);

/// Like `pd_png_reader_open`, but reads the PNG from file descriptor `fd`
/// (with pread, from offset 0) as libpng asks for bytes, so the file is never
/// held in memory. `fd` must stay open until the reader is closed.
pd_png_reader *pd_png_reader_open_file(int fd, uint32_t max_width, uint32_t max_height,
                                       pd_png_header *header, pd_png_diagnostics *diagnostics);

/// Decodes the next `count` rows into `rows[0]`...`rows[count - 1]` (not
/// for interlaced images). Returns PD_PNG_OK or an error status (see the
/// diagnostics).
pd_png_status pd_png_reader_read(pd_png_reader *reader, uint8_t *const *rows, uint32_t count);

/// Decodes the whole image into `rows[0]`...`rows[height - 1]`, whether
/// interlaced or not; no rows may have been read before.
pd_png_status pd_png_reader_read_image(pd_png_reader *reader, uint8_t *const *rows);

/// Verifies the chunks after the image (when every row was read) and frees
/// the reader.
pd_png_status pd_png_reader_close(pd_png_reader *reader);

/// Frees a buffer returned by `pd_png_encode`.
void pd_png_free(uint8_t *buffer);

#ifdef __cplusplus
}
#endif

#endif
