// libjpeg's default error_exit calls exit(); ours records the message and
// longjmps back to the setjmp in the reader function that called libjpeg,
// so no jump ever crosses a Swift frame.

#include "pd_jpeg.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jpeglib.h>
#include <jerror.h>

typedef struct pd_error_manager {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    pd_jpeg_diagnostics *diagnostics;
} pd_error_manager;

static void pd_error_exit(j_common_ptr cinfo) {
    pd_error_manager *manager = (pd_error_manager *)cinfo->err;
    char buffer[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, buffer);
    snprintf(manager->diagnostics->message, sizeof manager->diagnostics->message, "%s", buffer);
    longjmp(manager->jump, 1);
}

static void pd_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return; // trace messages
    pd_error_manager *manager = (pd_error_manager *)cinfo->err;
    if (cinfo->err->msg_code == JWRN_JPEG_EOF) manager->diagnostics->truncated = 1;
    if (manager->diagnostics->warning_count == 0) {
        char buffer[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, buffer);
        snprintf(manager->diagnostics->first_warning, sizeof manager->diagnostics->first_warning, "%s", buffer);
    }
    manager->diagnostics->warning_count += 1;
    cinfo->err->num_warnings++;
}

/// What a file's scans may cost before it is refused (see pd_jpeg.h).
typedef struct pd_scan_budget {
    struct jpeg_progress_mgr base;
    int last_scan;
    uint64_t blocks;        ///< blocks of all components: one full pass
    uint64_t block_visits;  ///< blocks the scans so far visit
    uint64_t coefficient_visits;
} pd_scan_budget;

/// A libjpeg source that reads a file descriptor with pread, 64 KB at a
/// time, up to the length the file had when it was opened: the file is
/// never held whole. The end of the data (the file shorter than that, or
/// cut off) is libjpeg's own premature-end warning and a fake EOI, as its
/// memory source does; a read error is fatal.
typedef struct pd_file_source {
    struct jpeg_source_mgr base;
    int descriptor;
    uint64_t offset; ///< the next byte to read
    uint64_t end;    ///< the file's length when opened
    JOCTET buffer[65536];
} pd_file_source;

static void pd_file_init(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean pd_file_fill(j_decompress_ptr cinfo) {
    pd_file_source *source = (pd_file_source *)cinfo->src;
    ssize_t got = 0;
    if (source->offset < source->end) {
        size_t wanted = sizeof source->buffer;
        if (source->end - source->offset < wanted) wanted = (size_t)(source->end - source->offset);
        do {
            got = pread(source->descriptor, source->buffer, wanted, (off_t)source->offset);
        } while (got < 0 && errno == EINTR);
        if (got < 0) ERREXIT(cinfo, JERR_FILE_READ);
    }
    if (got == 0) {
        WARNMS(cinfo, JWRN_JPEG_EOF);
        source->buffer[0] = (JOCTET)0xFF;
        source->buffer[1] = (JOCTET)JPEG_EOI;
        got = 2;
    } else {
        source->offset += (uint64_t)got;
    }
    source->base.next_input_byte = source->buffer;
    source->base.bytes_in_buffer = (size_t)got;
    return TRUE;
}

static void pd_file_skip(j_decompress_ptr cinfo, long count) {
    pd_file_source *source = (pd_file_source *)cinfo->src;
    if (count <= 0) return;
    if ((size_t)count <= source->base.bytes_in_buffer) {
        source->base.next_input_byte += count;
        source->base.bytes_in_buffer -= (size_t)count;
        return;
    }
    uint64_t beyond = (uint64_t)count - source->base.bytes_in_buffer;
    source->base.bytes_in_buffer = 0;
    uint64_t left = source->end > source->offset ? source->end - source->offset : 0;
    source->offset = beyond <= left ? source->offset + beyond : source->end;
}

static void pd_file_term(j_decompress_ptr cinfo) { (void)cinfo; }

struct pd_jpeg_reader {
    struct jpeg_decompress_struct cinfo;
    pd_error_manager manager;
    pd_scan_budget budget;
    int started;
    pd_file_source file; ///< used when reading from a file descriptor
};

static void pd_refuse(j_common_ptr cinfo, const char *message) {
    pd_error_manager *manager = (pd_error_manager *)cinfo->err;
    snprintf(manager->diagnostics->message, sizeof manager->diagnostics->message, "%s", message);
    manager->diagnostics->too_costly = 1;
    longjmp(manager->jump, 1);
}

/// libjpeg calls this before it reads each row of MCUs (and so before each
/// scan's data): a new scan's cost is added and checked before it is decoded.
static void pd_progress_monitor(j_common_ptr common) {
    if (!common->is_decompressor) return;
    j_decompress_ptr cinfo = (j_decompress_ptr)common;
    pd_scan_budget *budget = (pd_scan_budget *)cinfo->progress;
    if (cinfo->input_scan_number == budget->last_scan || cinfo->comps_in_scan <= 0) return;
    budget->last_scan = cinfo->input_scan_number;
    if (budget->blocks == 0) {
        for (int index = 0; index < cinfo->num_components; index++) {
            budget->blocks += (uint64_t)cinfo->comp_info[index].width_in_blocks * cinfo->comp_info[index].height_in_blocks;
        }
    }
    if (cinfo->input_scan_number > PD_JPEG_MAX_SCANS) {
        pd_refuse(common, "the JPEG has more than " PD_JPEG_STRINGIFY(PD_JPEG_MAX_SCANS) " scans");
    }
    uint64_t blocks = 0;
    for (int index = 0; index < cinfo->comps_in_scan; index++) {
        jpeg_component_info *component = cinfo->cur_comp_info[index];
        blocks += (uint64_t)component->width_in_blocks * component->height_in_blocks;
    }
    int band = cinfo->progressive_mode ? cinfo->Se - cinfo->Ss + 1 : 64;
    if (band < 1) band = 1;
    budget->block_visits += blocks;
    budget->coefficient_visits += blocks * (uint64_t)band;
    if (budget->block_visits > budget->blocks * PD_JPEG_MAX_PASSES) {
        pd_refuse(common, "the JPEG's scans visit each block more than " PD_JPEG_STRINGIFY(PD_JPEG_MAX_PASSES) " times");
    }
    if (budget->coefficient_visits > budget->blocks * 64 * PD_JPEG_MAX_COEFFICIENT_PASSES) {
        pd_refuse(common, "the JPEG's scans decode each coefficient more than " PD_JPEG_STRINGIFY(PD_JPEG_MAX_COEFFICIENT_PASSES) " times");
    }
}

static pd_jpeg_reader *pd_jpeg_reader_start(const uint8_t *data, size_t size, int descriptor, uint64_t file_size, int scale_num,
                                            pd_jpeg_output output, uint32_t width, uint32_t height,
                                            pd_jpeg_diagnostics *diagnostics) {
    memset(diagnostics, 0, sizeof *diagnostics);
    pd_jpeg_reader *reader = (pd_jpeg_reader *)calloc(1, sizeof *reader);
    if (reader == NULL) {
        snprintf(diagnostics->message, sizeof diagnostics->message, "out of memory");
        return NULL;
    }
    reader->cinfo.err = jpeg_std_error(&reader->manager.base);
    reader->manager.base.error_exit = pd_error_exit;
    reader->manager.base.emit_message = pd_emit_message;
    reader->manager.diagnostics = diagnostics;
    if (setjmp(reader->manager.jump)) {
        jpeg_destroy_decompress(&reader->cinfo);
        free(reader);
        return NULL;
    }
    jpeg_create_decompress(&reader->cinfo);
    reader->budget.base.progress_monitor = pd_progress_monitor;
    reader->budget.last_scan = 0;
    reader->cinfo.progress = &reader->budget.base;
    if (data != NULL || descriptor < 0) {
        jpeg_mem_src(&reader->cinfo, data, (unsigned long)size);
    } else {
        pd_file_source *source = &reader->file;
        source->descriptor = descriptor;
        source->offset = 0;
        source->end = file_size;
        source->base.init_source = pd_file_init;
        source->base.fill_input_buffer = pd_file_fill;
        source->base.skip_input_data = pd_file_skip;
        source->base.resync_to_restart = jpeg_resync_to_restart;
        source->base.term_source = pd_file_term;
        source->base.bytes_in_buffer = 0;
        source->base.next_input_byte = NULL;
        reader->cinfo.src = &source->base;
    }
    jpeg_read_header(&reader->cinfo, TRUE);
    reader->cinfo.scale_num = (unsigned int)scale_num;
    reader->cinfo.scale_denom = 8;
    reader->cinfo.dct_method = JDCT_ISLOW;
    switch (output) {
    case PD_JPEG_GRAY: reader->cinfo.out_color_space = JCS_GRAYSCALE; break;
    case PD_JPEG_RGB: reader->cinfo.out_color_space = JCS_RGB; break;
    case PD_JPEG_CMYK: reader->cinfo.out_color_space = JCS_CMYK; break;
    }
    jpeg_calc_output_dimensions(&reader->cinfo);
    if (reader->cinfo.output_width != width || reader->cinfo.output_height != height ||
        reader->cinfo.output_components != (int)output) {
        snprintf(diagnostics->message, sizeof diagnostics->message,
                 "libjpeg would produce %ux%u with %d components, expected %ux%u with %d",
                 reader->cinfo.output_width, reader->cinfo.output_height, reader->cinfo.output_components,
                 width, height, (int)output);
        jpeg_destroy_decompress(&reader->cinfo);
        free(reader);
        return NULL;
    }
    jpeg_start_decompress(&reader->cinfo);
    reader->started = 1;
    return reader;
}

pd_jpeg_reader *pd_jpeg_reader_open(const uint8_t *data, size_t size, int scale_num, pd_jpeg_output output,
                                    uint32_t width, uint32_t height, pd_jpeg_diagnostics *diagnostics) {
    return pd_jpeg_reader_start(data, size, -1, 0, scale_num, output, width, height, diagnostics);
}

pd_jpeg_reader *pd_jpeg_reader_open_file(int descriptor, uint64_t size, int scale_num, pd_jpeg_output output,
                                         uint32_t width, uint32_t height, pd_jpeg_diagnostics *diagnostics) {
    return pd_jpeg_reader_start(NULL, 0, descriptor, size, scale_num, output, width, height, diagnostics);
}

int pd_jpeg_reader_read(pd_jpeg_reader *reader, uint8_t *const *rows, uint32_t count) {
    if (setjmp(reader->manager.jump)) return -1;
    uint32_t done = 0;
    while (done < count) {
        if (reader->cinfo.output_scanline >= reader->cinfo.output_height) {
            snprintf(reader->manager.diagnostics->message, sizeof reader->manager.diagnostics->message,
                     "asked for rows past the end of the image");
            return -1;
        }
        done += jpeg_read_scanlines(&reader->cinfo, (JSAMPARRAY)(rows + done), count - done);
    }
    return 0;
}

int pd_jpeg_reader_close(pd_jpeg_reader *reader) {
    if (reader == NULL) return 0;
    int status = 0;
    if (setjmp(reader->manager.jump)) {
        status = -1;
    } else if (reader->started && reader->cinfo.output_scanline >= reader->cinfo.output_height) {
        jpeg_finish_decompress(&reader->cinfo);
    }
    jpeg_destroy_decompress(&reader->cinfo);
    free(reader);
    return status;
}

int pd_jpeg_read_coefficients(const uint8_t *data, size_t size, int component, int16_t *out, size_t capacity,
                              uint32_t *blocks_wide, uint32_t *blocks_high, pd_jpeg_diagnostics *diagnostics) {
    memset(diagnostics, 0, sizeof *diagnostics);
    struct jpeg_decompress_struct cinfo;
    pd_error_manager manager;
    pd_scan_budget budget;
    memset(&budget, 0, sizeof budget);
    cinfo.err = jpeg_std_error(&manager.base);
    manager.base.error_exit = pd_error_exit;
    manager.base.emit_message = pd_emit_message;
    manager.diagnostics = diagnostics;
    if (setjmp(manager.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    budget.base.progress_monitor = pd_progress_monitor;
    cinfo.progress = &budget.base;
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    if (component < 0 || component >= cinfo.num_components) {
        snprintf(diagnostics->message, sizeof diagnostics->message, "no component %d", component);
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    jvirt_barray_ptr *arrays = jpeg_read_coefficients(&cinfo);
    jpeg_component_info *info = &cinfo.comp_info[component];
    *blocks_wide = info->width_in_blocks;
    *blocks_high = info->height_in_blocks;
    size_t needed = (size_t)info->width_in_blocks * info->height_in_blocks * DCTSIZE2;
    if (out != NULL && capacity >= needed) {
        for (JDIMENSION row = 0; row < info->height_in_blocks; row++) {
            JBLOCKARRAY blocks = (*cinfo.mem->access_virt_barray)((j_common_ptr)&cinfo, arrays[component], row, 1, FALSE);
            for (JDIMENSION column = 0; column < info->width_in_blocks; column++) {
                int16_t *target = out + ((size_t)row * info->width_in_blocks + column) * DCTSIZE2;
                for (int k = 0; k < DCTSIZE2; k++) target[k] = (int16_t)blocks[0][column][k];
            }
        }
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return 0;
}
