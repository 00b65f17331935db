#include "pd_sixel.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

// MARK: - Output

static int reserve(pd_sixel_output *out, size_t more) {
    if (out->failed) return 0;
    if (more > SIZE_MAX - out->length) {
        out->failed = 1;
        return 0;
    }
    size_t needed = out->length + more;
    if (needed <= out->capacity) return 1;
    size_t capacity = out->capacity < 4096 ? 4096 : out->capacity;
    while (capacity < needed) {
        if (capacity > SIZE_MAX / 2) {
            capacity = needed;
            break;
        }
        capacity *= 2;
    }
    uint8_t *grown = realloc(out->bytes, capacity);
    if (grown == NULL) {
        out->failed = 1;
        return 0;
    }
    out->bytes = grown;
    out->capacity = capacity;
    return 1;
}

/// Appends a number's decimal digits (room already reserved: at most 10).
static void put_number(pd_sixel_output *out, unsigned value) {
    char digits[12];
    int count = 0;
    do {
        digits[count++] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0);
    while (count > 0) out->bytes[out->length++] = (uint8_t)digits[--count];
}

/// Appends `count` copies of the sixel `symbol`, run-length encoded from
/// four on (room reserved: at most 12 bytes).
static void put_run(pd_sixel_output *out, uint8_t symbol, unsigned count) {
    if (count >= 4) {
        out->bytes[out->length++] = '!';
        put_number(out, count);
        out->bytes[out->length++] = symbol;
    } else {
        while (count-- > 0) out->bytes[out->length++] = symbol;
    }
}

void pd_sixel_free(pd_sixel_output *output) {
    free(output->bytes);
    output->bytes = NULL;
    output->length = 0;
    output->capacity = 0;
}

// MARK: - Palette

/// A non-empty cell of the 5-bit histogram.
typedef struct {
    uint8_t cell[3];
    double count;
    double sum[3];
    double squares;
} pd_entry;

/// A box of entries `[start, end)` for the median cut.
typedef struct {
    int start, end;
    double count;
    double sum[3];
    double error;
} pd_box;

static void measure(pd_box *box, const pd_entry *entries) {
    box->count = 0;
    box->sum[0] = box->sum[1] = box->sum[2] = 0;
    double squares = 0;
    for (int i = box->start; i < box->end; i++) {
        box->count += entries[i].count;
        for (int c = 0; c < 3; c++) box->sum[c] += entries[i].sum[c];
        squares += entries[i].squares;
    }
    double centre = 0;
    if (box->count > 0) {
        for (int c = 0; c < 3; c++) centre += box->sum[c] * box->sum[c] / box->count;
    }
    // The squared distance of every sample to the box's mean: what splitting it saves.
    box->error = box->end - box->start >= 2 ? squares - centre : 0;
}

/// Sorts entries `[start, end)` by their cell along `axis` (32 values: a counting sort).
static void sort_along(pd_entry *entries, pd_entry *scratch, int start, int end, int axis) {
    int counts[33] = {0};
    for (int i = start; i < end; i++) counts[entries[i].cell[axis] + 1]++;
    for (int v = 1; v <= 32; v++) counts[v] += counts[v - 1];
    for (int i = start; i < end; i++) scratch[counts[entries[i].cell[axis]]++] = entries[i];
    memcpy(entries + start, scratch, (size_t)(end - start) * sizeof(pd_entry));
}

static double distance2(const double *a, const double *b) {
    double dr = a[0] - b[0], dg = a[1] - b[1], db = a[2] - b[2];
    return dr * dr + dg * dg + db * db;
}

static int nearest_double(const double (*colours)[3], int count, const double *colour) {
    int best = 0;
    double bestDistance = INFINITY;
    for (int i = 0; i < count; i++) {
        double d = distance2(colours[i], colour);
        if (d < bestDistance) {
            bestDistance = d;
            best = i;
        }
    }
    return best;
}

static uint8_t as_shown(double value) {
    // Sixel colours are whole percents: the terminal shows round(p * 255 / 100).
    double clamped = value < 0 ? 0 : value > 255 ? 255 : value;
    int percent = (int)lround(clamped * 100.0 / 255.0);
    return (uint8_t)lround(percent * 255.0 / 100.0);
}

void pd_sixel_choose_palette(const uint8_t *pixels, int channels, int width, int height, size_t stride, pd_sixel_palette *palette) {
    palette->count = 1;
    memset(palette->rgb, 0, sizeof palette->rgb);
    enum { CELLS = 32 * 32 * 32 };
    double *counts = calloc(CELLS, sizeof(double) * 5);
    if (counts == NULL) return;
    double *sums = counts + CELLS;          // 3 per cell
    double *squares = counts + 4 * CELLS;   // 1 per cell
    // About 400,000 samples however large the picture: every step-th pixel of every step-th row.
    double pixelsTotal = (double)width * (double)height;
    int step = (int)ceil(sqrt(pixelsTotal / 400000.0));
    if (step < 1) step = 1;
    for (int y = 0; y < height; y += step) {
        const uint8_t *row = pixels + (size_t)y * stride;
        for (int x = 0; x < width; x += step) {
            const uint8_t *p = row + (size_t)x * (size_t)channels;
            if (channels == 4 && p[3] < 128) continue;
            int cell = (p[0] >> 3) << 10 | (p[1] >> 3) << 5 | (p[2] >> 3);
            counts[cell] += 1;
            sums[cell * 3] += p[0];
            sums[cell * 3 + 1] += p[1];
            sums[cell * 3 + 2] += p[2];
            squares[cell] += (double)p[0] * p[0] + (double)p[1] * p[1] + (double)p[2] * p[2];
        }
    }
    int used = 0;
    for (int cell = 0; cell < CELLS; cell++) used += counts[cell] > 0;
    if (used == 0) {
        free(counts);
        return;
    }
    pd_entry *entries = malloc(sizeof(pd_entry) * (size_t)used * 2);
    if (entries == NULL) {
        free(counts);
        return;
    }
    pd_entry *scratch = entries + used;
    int n = 0;
    for (int cell = 0; cell < CELLS; cell++) {
        if (counts[cell] <= 0) continue;
        pd_entry *e = &entries[n++];
        e->cell[0] = (uint8_t)(cell >> 10);
        e->cell[1] = (uint8_t)((cell >> 5) & 31);
        e->cell[2] = (uint8_t)(cell & 31);
        e->count = counts[cell];
        for (int c = 0; c < 3; c++) e->sum[c] = sums[cell * 3 + c];
        e->squares = squares[cell];
    }
    free(counts);

    // Median cut: split the box whose samples lie farthest from its mean, along its widest channel, at the median sample.
    pd_box boxes[256];
    int boxCount = 1;
    boxes[0].start = 0;
    boxes[0].end = n;
    measure(&boxes[0], entries);
    while (boxCount < 256) {
        int chosen = -1;
        for (int b = 0; b < boxCount; b++) {
            if (boxes[b].error > 0 && (chosen < 0 || boxes[b].error > boxes[chosen].error)) chosen = b;
        }
        if (chosen < 0) break;
        pd_box *box = &boxes[chosen];
        double spread[3] = {0, 0, 0};
        for (int c = 0; c < 3; c++) {
            double mean = box->sum[c] / box->count, total = 0;
            for (int i = box->start; i < box->end; i++) {
                double d = entries[i].sum[c] / entries[i].count - mean;
                total += entries[i].count * d * d;
            }
            spread[c] = total;
        }
        int axis = spread[0] >= spread[1] && spread[0] >= spread[2] ? 0 : spread[1] >= spread[2] ? 1 : 2;
        sort_along(entries, scratch, box->start, box->end, axis);
        double half = box->count / 2, running = 0;
        int split = box->start + 1;
        for (int i = box->start; i < box->end - 1; i++) {
            running += entries[i].count;
            split = i + 1;
            if (running >= half) break;
        }
        pd_box upper = {split, box->end, 0, {0, 0, 0}, 0};
        box->end = split;
        measure(box, entries);
        measure(&upper, entries);
        boxes[boxCount++] = upper;
    }
    double (*colours)[3] = malloc(sizeof(double[3]) * 256);
    double (*accumulated)[4] = malloc(sizeof(double[4]) * 256);
    if (colours == NULL || accumulated == NULL) {
        free(colours);
        free(accumulated);
        free(entries);
        return;
    }
    for (int b = 0; b < boxCount; b++) {
        for (int c = 0; c < 3; c++) colours[b][c] = boxes[b].sum[c] / boxes[b].count;
    }
    // Two rounds of k-means over the cells' means move each colour to the middle of what it draws.
    for (int round = 0; round < 2; round++) {
        memset(accumulated, 0, sizeof(double[4]) * 256);
        for (int i = 0; i < n; i++) {
            double mean[3] = {entries[i].sum[0] / entries[i].count, entries[i].sum[1] / entries[i].count, entries[i].sum[2] / entries[i].count};
            int k = nearest_double((const double (*)[3])colours, boxCount, mean);
            accumulated[k][0] += entries[i].count;
            for (int c = 0; c < 3; c++) accumulated[k][c + 1] += entries[i].sum[c];
        }
        for (int b = 0; b < boxCount; b++) {
            if (accumulated[b][0] > 0) {
                for (int c = 0; c < 3; c++) colours[b][c] = accumulated[b][c + 1] / accumulated[b][0];
            }
        }
    }
    palette->count = boxCount;
    for (int b = 0; b < boxCount; b++) {
        for (int c = 0; c < 3; c++) palette->rgb[b * 3 + c] = as_shown(colours[b][c]);
    }
    free(colours);
    free(accumulated);
    free(entries);
}

// MARK: - Mapping

/// The palette sorted by green, for a nearest search that stops early.
typedef struct {
    int count;
    int green[256];
    uint8_t rgb[256][3];
    uint8_t index[256];
} pd_sorted_palette;

static void sort_palette(const pd_sixel_palette *palette, pd_sorted_palette *sorted) {
    sorted->count = palette->count;
    int order[256];
    for (int i = 0; i < palette->count; i++) order[i] = i;
    // Insertion sort by green: 256 entries at most.
    for (int i = 1; i < palette->count; i++) {
        int k = order[i], j = i - 1;
        while (j >= 0 && palette->rgb[order[j] * 3 + 1] > palette->rgb[k * 3 + 1]) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = k;
    }
    for (int i = 0; i < palette->count; i++) {
        int k = order[i];
        sorted->index[i] = (uint8_t)k;
        for (int c = 0; c < 3; c++) sorted->rgb[i][c] = palette->rgb[k * 3 + c];
        sorted->green[i] = palette->rgb[k * 3 + 1];
    }
}

/// Weighs palette entry `i` for `(r, g, b)`: 1 when its green alone is
/// already farther than the best found (the search stops on that side).
static int consider(const pd_sorted_palette *sorted, int i, int r, int g, int b, int *best, int *bestDistance) {
    int dg = sorted->green[i] - g;
    if (dg * dg >= *bestDistance) return 1;
    int dr = sorted->rgb[i][0] - r, db = sorted->rgb[i][2] - b;
    int d = dr * dr + dg * dg + db * db;
    if (d < *bestDistance) {
        *bestDistance = d;
        *best = i;
    }
    return 0;
}

/// The palette index nearest `(r, g, b)`: outward from the green of the
/// colour, stopping where green alone is farther than the best found.
static uint8_t nearest(const pd_sorted_palette *sorted, int r, int g, int b) {
    int low = 0, high = sorted->count;
    while (low < high) {
        int mid = (low + high) / 2;
        if (sorted->green[mid] < g) low = mid + 1; else high = mid;
    }
    int best = 0, bestDistance = INT_MAX;
    int up = low, down = low - 1;
    while (up < sorted->count || down >= 0) {
        if (up < sorted->count) up = consider(sorted, up, r, g, b, &best, &bestDistance) ? sorted->count : up + 1;
        if (down >= 0) down = consider(sorted, down, r, g, b, &best, &bestDistance) ? -1 : down - 1;
    }
    return sorted->index[best];
}

// MARK: - Bands

enum { TILE = 2048, LUT_UNSET = 0xFFFF };

void pd_sixel_write_bands(const uint8_t *pixels, int channels, int width, int height, size_t stride, int first_row, int end_row,
                          const pd_sixel_palette *palette, pd_sixel_output *output) {
    if (first_row < 0 || end_row > height || first_row >= end_row || palette->count < 1) return;
    pd_sorted_palette sorted;
    sort_palette(palette, &sorted);
    // Nearest colours by the pixel's top 6 bits per channel, found once each.
    uint16_t *lut = malloc(sizeof(uint16_t) << 18);
    uint8_t *bits = calloc((size_t)256 * TILE, 1);
    if (lut == NULL || bits == NULL) {
        free(lut);
        free(bits);
        output->failed = 1;
        return;
    }
    memset(lut, 0xFF, sizeof(uint16_t) << 18);
    int lowest[256], highest[256];
    for (int c = 0; c < 256; c++) {
        lowest[c] = INT_MAX;
        highest[c] = -1;
    }
    for (int top = first_row; top < end_row && !output->failed; top += 6) {
        int rows = end_row - top < 6 ? end_row - top : 6;
        for (int left = 0; left < width && !output->failed; left += TILE) {
            int columns = width - left < TILE ? width - left : TILE;
            for (int r = 0; r < rows; r++) {
                const uint8_t *p = pixels + (size_t)(top + r) * stride + (size_t)left * (size_t)channels;
                uint8_t bit = (uint8_t)(1 << r);
                for (int x = 0; x < columns; x++, p += channels) {
                    if (channels == 4 && p[3] < 128) continue;
                    int key = (p[0] >> 2) << 12 | (p[1] >> 2) << 6 | (p[2] >> 2);
                    uint16_t k = lut[key];
                    if (k == LUT_UNSET) {
                        k = nearest(&sorted, (p[0] & 0xFC) | 2, (p[1] & 0xFC) | 2, (p[2] & 0xFC) | 2);
                        lut[key] = k;
                    }
                    bits[(size_t)k * TILE + (size_t)x] |= bit;
                    if (x < lowest[k]) lowest[k] = x;
                    if (x > highest[k]) highest[k] = x;
                }
            }
            for (int c = 0; c < palette->count; c++) {
                if (highest[c] < 0) continue;
                int from = lowest[c], to = highest[c];
                // "#c", the skip to the first column, then at most 12 bytes a column, then "$".
                if (!reserve(output, 32 + (size_t)(to - from + 1) * 12)) break;
                output->bytes[output->length++] = '#';
                put_number(output, (unsigned)c);
                put_run(output, '?', (unsigned)(left + from));
                uint8_t *line = bits + (size_t)c * TILE;
                int x = from;
                while (x <= to) {
                    uint8_t value = line[x];
                    int run = 1;
                    while (x + run <= to && line[x + run] == value) run++;
                    put_run(output, (uint8_t)(63 + value), (unsigned)run);
                    x += run;
                }
                output->bytes[output->length++] = '$';
                memset(line + from, 0, (size_t)(to - from + 1));
                lowest[c] = INT_MAX;
                highest[c] = -1;
            }
        }
        if (top + 6 < height && reserve(output, 1)) output->bytes[output->length++] = '-';
    }
    free(lut);
    free(bits);
}

void pd_sixel_write_header(int width, int height, const pd_sixel_palette *palette, pd_sixel_output *output) {
    if (!reserve(output, 64 + (size_t)palette->count * 24)) return;
    const char *intro = "\x1bP0;1;0q\"1;1;";
    size_t length = strlen(intro);
    memcpy(output->bytes + output->length, intro, length);
    output->length += length;
    put_number(output, (unsigned)width);
    output->bytes[output->length++] = ';';
    put_number(output, (unsigned)height);
    for (int c = 0; c < palette->count; c++) {
        output->bytes[output->length++] = '#';
        put_number(output, (unsigned)c);
        output->bytes[output->length++] = ';';
        output->bytes[output->length++] = '2';
        for (int k = 0; k < 3; k++) {
            output->bytes[output->length++] = ';';
            put_number(output, (unsigned)lround(palette->rgb[c * 3 + k] * 100.0 / 255.0));
        }
    }
}
