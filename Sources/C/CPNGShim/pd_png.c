// Owns every setjmp for libpng's classic API. libpng reports errors by
// calling the error function, which must not return; ours records the message
// and longjmps back to the setjmp in the same C function, so no jump ever
// crosses a Swift frame.

#include "pd_png.h"

#include <png.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

typedef struct pd_reader {
    const uint8_t *data;
    size_t size;
    size_t offset;
    pd_png_diagnostics *diagnostics;
    int fd; ///< Read with pread from here when `data` is NULL.
} pd_reader;

typedef struct pd_writer {
    uint8_t *buffer;
    size_t size;
    size_t capacity;
    int failed;
    pd_png_diagnostics *diagnostics;
} pd_writer;

static void pd_copy_message(char *target, size_t capacity, const char *message) {
    if (message == NULL) message = "unknown libpng error";
    size_t length = strlen(message);
    if (length >= capacity) length = capacity - 1;
    memcpy(target, message, length);
    target[length] = '\0';
}

static void pd_error(png_structp png, png_const_charp message) {
    pd_png_diagnostics *diagnostics = (pd_png_diagnostics *)png_get_error_ptr(png);
    if (diagnostics != NULL && diagnostics->message[0] == '\0') {
        pd_copy_message(diagnostics->message, sizeof diagnostics->message, message);
    }
    png_longjmp(png, 1);
}

static void pd_warning(png_structp png, png_const_charp message) {
    pd_png_diagnostics *diagnostics = (pd_png_diagnostics *)png_get_error_ptr(png);
    if (diagnostics == NULL) return;
    if (diagnostics->warning_count == 0) {
        pd_copy_message(diagnostics->first_warning, sizeof diagnostics->first_warning, message);
    }
    diagnostics->warning_count += 1;
}

static void pd_read(png_structp png, png_bytep out, size_t length) {
    pd_reader *reader = (pd_reader *)png_get_io_ptr(png);
    if (length > reader->size - reader->offset) {
        reader->diagnostics->truncated = 1;
        png_error(png, "unexpected end of PNG data");
    }
    memcpy(out, reader->data + reader->offset, length);
    reader->offset += length;
}

static void pd_read_file(png_structp png, png_bytep out, size_t length) {
    pd_reader *reader = (pd_reader *)png_get_io_ptr(png);
    size_t filled = 0;
    while (filled < length) {
        ssize_t got = pread(reader->fd, out + filled, length - filled, (off_t)(reader->offset + filled));
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) png_error(png, strerror(errno));
        if (got == 0) {
            reader->diagnostics->truncated = 1;
            png_error(png, "unexpected end of PNG data");
        }
        filled += (size_t)got;
    }
    reader->offset += length;
}

static void pd_write(png_structp png, png_bytep in, size_t length) {
    pd_writer *writer = (pd_writer *)png_get_io_ptr(png);
    if (length > SIZE_MAX - writer->size) {
        writer->failed = 1;
        png_error(png, "encoded PNG too large");
    }
    size_t needed = writer->size + length;
    if (needed > writer->capacity) {
        size_t capacity = writer->capacity < 4096 ? 4096 : writer->capacity;
        while (capacity < needed) {
            if (capacity > SIZE_MAX / 2) { capacity = needed; break; }
            capacity *= 2;
        }
        uint8_t *grown = (uint8_t *)realloc(writer->buffer, capacity);
        if (grown == NULL) {
            writer->failed = 1;
            png_error(png, "out of memory while encoding PNG");
        }
        writer->buffer = grown;
        writer->capacity = capacity;
    }
    memcpy(writer->buffer + writer->size, in, length);
    writer->size = needed;
}

static void pd_flush(png_structp png) { (void)png; }

static void pd_configure_output(png_structp png, png_infop info, pd_png_header *header) {
    int color_type = header->color_type;
    int has_trns = header->has_trns;
    if (color_type == PNG_COLOR_TYPE_PALETTE) {
        png_set_palette_to_rgb(png);
    }
    if (color_type == PNG_COLOR_TYPE_GRAY && header->bit_depth < 8) {
        png_set_expand_gray_1_2_4_to_8(png);
    }
    if (has_trns) {
        png_set_tRNS_to_alpha(png);
    }
    if (header->bit_depth == 16) {
        png_set_scale_16(png);
    }
    int gray = (color_type & PNG_COLOR_MASK_COLOR) == 0;
    int alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 || has_trns;
    if (gray && alpha) {
        png_set_gray_to_rgb(png);
    }
    if (header->interlaced) {
        (void)png_set_interlace_handling(png);
    }
    png_read_update_info(png, info);
}

pd_png_status pd_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height,
                            size_t stride, int channels, int compression_level,
                            const uint8_t *exif, uint32_t exif_length,
                            uint8_t **output, size_t *output_size,
                            pd_png_diagnostics *diagnostics) {
    memset(diagnostics, 0, sizeof *diagnostics);
    *output = NULL;
    *output_size = 0;
    int color_type;
    switch (channels) {
    case 1: color_type = PNG_COLOR_TYPE_GRAY; break;
    case 2: color_type = PNG_COLOR_TYPE_GRAY_ALPHA; break;
    case 3: color_type = PNG_COLOR_TYPE_RGB; break;
    case 4: color_type = PNG_COLOR_TYPE_RGB_ALPHA; break;
    default:
        pd_copy_message(diagnostics->message, sizeof diagnostics->message, "unsupported channel count");
        return PD_PNG_FAILURE;
    }
    if (width == 0 || height == 0 || stride < (size_t)width * (size_t)channels) {
        pd_copy_message(diagnostics->message, sizeof diagnostics->message, "invalid image geometry");
        return PD_PNG_FAILURE;
    }

    pd_writer writer = {NULL, 0, 0, 0, diagnostics};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, diagnostics, pd_error, pd_warning);
    if (png == NULL) {
        pd_copy_message(diagnostics->message, sizeof diagnostics->message, "png_create_write_struct failed");
        return PD_PNG_FAILURE;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        pd_copy_message(diagnostics->message, sizeof diagnostics->message, "png_create_info_struct failed");
        return PD_PNG_FAILURE;
    }
    png_bytep *volatile rows = NULL;

    if (setjmp(png_jmpbuf(png))) {
        free((void *)rows);
        free(writer.buffer);
        png_destroy_write_struct(&png, &info);
        return PD_PNG_FAILURE;
    }

    png_set_write_fn(png, &writer, pd_write, pd_flush);
    if (compression_level < 0) compression_level = 0;
    if (compression_level > 9) compression_level = 9;
    png_set_compression_level(png, compression_level);
    png_set_IHDR(png, info, width, height, 8, color_type, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (exif != NULL && exif_length > 0) {
        png_set_eXIf_1(png, info, exif_length, (png_bytep)exif);
    }
    rows = (png_bytep *)malloc(sizeof(png_bytep) * (size_t)height);
    if (rows == NULL) png_error(png, "out of memory for row pointers");
    for (uint32_t y = 0; y < height; y++) rows[y] = (png_bytep)(pixels + (size_t)y * stride);
    png_set_rows(png, info, rows);
    png_write_png(png, info, PNG_TRANSFORM_IDENTITY, NULL);

    free((void *)rows);
    png_destroy_write_struct(&png, &info);
    *output = writer.buffer;
    *output_size = writer.size;
    return PD_PNG_OK;
}

void pd_png_free(uint8_t *buffer) { free(buffer); }

struct pd_png_reader {
    png_structp png;
    png_infop info;
    pd_reader input;
    uint32_t rows_read;
    uint32_t height;
    int interlaced;
};

static pd_png_reader *pd_png_reader_start(pd_png_reader *reader, png_rw_ptr read_fn, uint32_t max_width, uint32_t max_height,
                                          pd_png_header *header, pd_png_diagnostics *diagnostics) {
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, diagnostics, pd_error, pd_warning);
    reader->info = reader->png != NULL ? png_create_info_struct(reader->png) : NULL;
    if (reader->info == NULL) {
        png_destroy_read_struct(&reader->png, NULL, NULL);
        free(reader);
        pd_copy_message(diagnostics->message, sizeof diagnostics->message, "could not create libpng structures");
        return NULL;
    }
    if (setjmp(png_jmpbuf(reader->png))) {
        png_destroy_read_struct(&reader->png, &reader->info, NULL);
        free(reader);
        return NULL;
    }
    png_set_read_fn(reader->png, &reader->input, read_fn);
    png_set_user_limits(reader->png, max_width, max_height);
    png_set_benign_errors(reader->png, 1);
    png_read_info(reader->png, reader->info);
    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(reader->png, reader->info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    header->width = width;
    header->height = height;
    header->bit_depth = bit_depth;
    header->color_type = color_type;
    header->interlaced = interlace != PNG_INTERLACE_NONE;
    header->has_trns = png_get_valid(reader->png, reader->info, PNG_INFO_tRNS) != 0;
    pd_configure_output(reader->png, reader->info, header);
    header->output_channels = png_get_channels(reader->png, reader->info);
    reader->height = height;
    reader->interlaced = header->interlaced;
    return reader;
}

pd_png_reader *pd_png_reader_open(const uint8_t *data, size_t size, uint32_t max_width, uint32_t max_height,
                                  pd_png_header *header, pd_png_diagnostics *diagnostics) {
    memset(header, 0, sizeof *header);
    memset(diagnostics, 0, sizeof *diagnostics);
    if (data == NULL || size < 8 || png_sig_cmp(data, 0, 8) != 0) {
        pd_copy_message(diagnostics->message, sizeof diagnostics->message, "not a PNG signature");
        return NULL;
    }
    pd_png_reader *reader = (pd_png_reader *)calloc(1, sizeof *reader);
    if (reader == NULL) {
        pd_copy_message(diagnostics->message, sizeof diagnostics->message, "out of memory");
        return NULL;
    }
    reader->input = (pd_reader){data, size, 0, diagnostics, -1};
    return pd_png_reader_start(reader, pd_read, max_width, max_height, header, diagnostics);
}

pd_png_reader *pd_png_reader_open_file(int fd, uint32_t max_width, uint32_t max_height,
                                       pd_png_header *header, pd_png_diagnostics *diagnostics) {
    memset(header, 0, sizeof *header);
    memset(diagnostics, 0, sizeof *diagnostics);
    pd_png_reader *reader = (pd_png_reader *)calloc(1, sizeof *reader);
    if (reader == NULL) {
        pd_copy_message(diagnostics->message, sizeof diagnostics->message, "out of memory");
        return NULL;
    }
    reader->input = (pd_reader){NULL, 0, 0, diagnostics, fd};
    return pd_png_reader_start(reader, pd_read_file, max_width, max_height, header, diagnostics);
}

pd_png_status pd_png_reader_read(pd_png_reader *reader, uint8_t *const *rows, uint32_t count) {
    if (setjmp(png_jmpbuf(reader->png))) {
        return reader->input.diagnostics->truncated ? PD_PNG_TRUNCATED : PD_PNG_CORRUPT;
    }
    if (reader->interlaced) png_error(reader->png, "an interlaced PNG must be read whole");
    for (uint32_t row = 0; row < count; row++) {
        if (reader->rows_read >= reader->height) png_error(reader->png, "asked for rows past the end of the image");
        png_read_row(reader->png, rows[row], NULL);
        reader->rows_read += 1;
    }
    return PD_PNG_OK;
}

pd_png_status pd_png_reader_close(pd_png_reader *reader) {
    if (reader == NULL) return PD_PNG_OK;
    pd_png_status status = PD_PNG_OK;
    if (setjmp(png_jmpbuf(reader->png))) {
        status = reader->input.diagnostics->truncated ? PD_PNG_TRUNCATED : PD_PNG_CORRUPT;
    } else if (reader->rows_read == reader->height) {
        png_read_end(reader->png, NULL);
    }
    png_destroy_read_struct(&reader->png, &reader->info, NULL);
    free(reader);
    return status;
}

pd_png_status pd_png_reader_read_image(pd_png_reader *reader, uint8_t *const *rows) {
    if (setjmp(png_jmpbuf(reader->png))) {
        return reader->input.diagnostics->truncated ? PD_PNG_TRUNCATED : PD_PNG_CORRUPT;
    }
    if (reader->rows_read != 0) png_error(reader->png, "rows were already read");
    png_read_image(reader->png, (png_bytepp)rows);
    reader->rows_read = reader->height;
    return PD_PNG_OK;
}
