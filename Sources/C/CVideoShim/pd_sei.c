#include "pd_sei.h"

#include <stdlib.h>
#include <string.h>

// AVCHD's camcorder metadata (ExifTool's H264.pm: "Modified Digital Video
// Pack Metadata"): this UUID, then "MDPM", then tagged 5-byte entries.
static const uint8_t mdpm_uuid[16] = {0x17, 0xee, 0x8c, 0x60, 0xf8, 0x4d, 0x11, 0xd9, 0x8c, 0xd6, 0x08, 0x00, 0x20, 0x0c, 0x9a, 0x66};

/// A growing byte buffer of a fixed capacity; `failed` once a write would pass it.
typedef struct {
    uint8_t *bytes;
    size_t count;
    size_t capacity;
    int failed;
} pd_buffer;

static void put(pd_buffer *buffer, const uint8_t *bytes, size_t count) {
    if (buffer->failed || count > buffer->capacity - buffer->count) {
        buffer->failed = 1;
        return;
    }
    memcpy(buffer->bytes + buffer->count, bytes, count);
    buffer->count += count;
}

static void put_byte(pd_buffer *buffer, uint8_t byte) { put(buffer, &byte, 1); }

/// Whether the NAL unit starting with `header` is an SEI one, and its header's length.
static int is_sei(const uint8_t *nal, size_t size, int codec, size_t *header) {
    if (codec == PD_SEI_H264) {
        *header = 1;
        return size >= 1 && (nal[0] & 0x1f) == 6;
    }
    *header = 2;
    if (size < 2) return 0;
    int type = (nal[0] >> 1) & 0x3f;
    return type == 39 || type == 40;
}

/// The RBSP of `count` escaped bytes (emulation prevention bytes taken out) into `rbsp`; its length.
static size_t unescape(const uint8_t *escaped, size_t count, uint8_t *rbsp) {
    size_t length = 0;
    int zeros = 0;
    for (size_t index = 0; index < count; index++) {
        uint8_t byte = escaped[index];
        if (zeros >= 2 && byte == 0x03) {
            zeros = 0;
            continue;
        }
        zeros = byte == 0 ? zeros + 1 : 0;
        rbsp[length++] = byte;
    }
    return length;
}

/// Writes `rbsp` escaped: an emulation prevention byte before any byte of
/// 0 to 3 that follows two zeros.
static void escape(pd_buffer *out, const uint8_t *rbsp, size_t count) {
    int zeros = 0;
    for (size_t index = 0; index < count; index++) {
        uint8_t byte = rbsp[index];
        if (zeros >= 2 && byte <= 0x03) {
            put_byte(out, 0x03);
            zeros = 0;
        }
        zeros = byte == 0 ? zeros + 1 : 0;
        put_byte(out, byte);
    }
}

/// Rewrites one SEI NAL unit (`nal`, `size` bytes, its header `header`
/// long) without the messages `removal` names, into `out`. Returns 1 when
/// the unit was written (changed), 0 when it holds nothing to remove (the
/// caller copies it as it is), 2 when nothing is left of it (the caller
/// drops it), -1 when it cannot be read.
static int rewrite_sei(const uint8_t *nal, size_t size, size_t header, int removal, int *removed, int *mdpm, uint8_t *scratch, pd_buffer *out) {
    uint8_t *rbsp = scratch;
    size_t length = unescape(nal + header, size - header, rbsp);
    // Zeros after the stop bit belong to the byte stream (trailing_zero_8bits), not the RBSP.
    while (length > 0 && rbsp[length - 1] == 0) length--;
    uint8_t *kept = scratch + length;
    size_t kept_length = 0;
    int found = 0;
    size_t position = 0;
    // sei_message() until only rbsp_trailing_bits (0x80) are left.
    while (position < length && !(position == length - 1 && rbsp[position] == 0x80)) {
        size_t start = position;
        size_t type = 0, payload = 0;
        while (position < length && rbsp[position] == 0xff) {
            type += 255;
            position++;
        }
        if (position >= length) return -1;
        type += rbsp[position++];
        while (position < length && rbsp[position] == 0xff) {
            payload += 255;
            position++;
        }
        if (position >= length) return -1;
        payload += rbsp[position++];
        if (payload > length - position) return -1;
        const uint8_t *body = rbsp + position;
        int camcorder = type == 5 && payload >= 16 && memcmp(body, mdpm_uuid, sizeof mdpm_uuid) == 0;
        int goes = type == 5 && payload >= 16 && (removal == PD_SEI_REMOVE_ALL_UNREGISTERED || camcorder);
        position += payload;
        if (goes) {
            found++;
            *mdpm += camcorder;
            continue;
        }
        memmove(kept + kept_length, rbsp + start, position - start);
        kept_length += position - start;
    }
    if (!found) return 0;
    *removed += found;
    if (kept_length == 0) return 2;
    kept[kept_length++] = 0x80;
    put(out, nal, header);
    escape(out, kept, kept_length);
    return 1;
}

/// Writes `count` as a big-endian number of `size` bytes.
static void put_length(pd_buffer *out, size_t count, int size) {
    for (int shift = (size - 1) * 8; shift >= 0; shift -= 8) put_byte(out, (uint8_t)(count >> shift));
}

long pd_sei_strip(uint8_t *data, size_t size, int codec, int length_size, int removal, int *removed, int *mdpm) {
    *removed = 0;
    *mdpm = 0;
    if (length_size < 0 || length_size > 4 || (codec != PD_SEI_H264 && codec != PD_SEI_HEVC)) return -1;
    // The output never needs much more than the input (a removed message is 18 bytes or more, and
    // each removal adds at most one emulation prevention byte); the scratch holds an RBSP and what is kept of it.
    size_t capacity = size + size / 4 + 64;
    uint8_t *output = malloc(capacity);
    uint8_t *scratch = malloc(2 * size + 16);
    if (!output || !scratch) {
        free(output);
        free(scratch);
        return -1;
    }
    pd_buffer out = {output, 0, capacity, 0};
    long result = -1;
    size_t position = 0;
    if (length_size > 0) {
        while (position < size) {
            if (size - position < (size_t)length_size) goto done;
            size_t count = 0;
            for (int index = 0; index < length_size; index++) count = (count << 8) | data[position + index];
            position += length_size;
            if (count > size - position) goto done;
            const uint8_t *nal = data + position;
            size_t header;
            int state = 0;
            size_t mark = out.count;
            if (is_sei(nal, count, codec, &header)) {
                put_length(&out, 0, length_size);  // its length, written when known
                state = rewrite_sei(nal, count, header, removal, removed, mdpm, scratch, &out);
                if (state < 0) goto done;
                if (state == 1) {
                    size_t written = out.count - mark - length_size;
                    if (length_size < 4 && written >> (8 * length_size)) goto done;
                    pd_buffer patch = {output + mark, 0, length_size, 0};
                    put_length(&patch, written, length_size);
                } else {
                    out.count = mark;
                }
            }
            if (state == 0) {
                put_length(&out, count, length_size);
                put(&out, nal, count);
            }
            position += count;
        }
    } else {
        // Annex B: each NAL unit runs from after a 00 00 01 to the next one; what is between is kept.
        size_t next = 0;
        while (next + 3 <= size && !(data[next] == 0 && data[next + 1] == 0 && data[next + 2] == 1)) next++;
        put(&out, data, next + 3 <= size ? next : size);
        while (next + 3 <= size) {
            size_t start = next + 3;
            size_t end = start;
            while (end + 3 <= size && !(data[end] == 0 && data[end + 1] == 0 && data[end + 2] == 1)) end++;
            if (end + 3 > size) end = size;
            // A zero before the next start code is the four-byte start code's, not this unit's.
            size_t unit_end = end;
            while (unit_end > start && end < size && data[unit_end - 1] == 0) unit_end--;
            const uint8_t *nal = data + start;
            size_t count = unit_end - start;
            size_t header;
            size_t mark = out.count;
            int state = 0;
            if (is_sei(nal, count, codec, &header)) {
                put(&out, data + next, 3);
                state = rewrite_sei(nal, count, header, removal, removed, mdpm, scratch, &out);
                if (state < 0) goto done;
                if (state == 2) {
                    out.count = mark;
                    // The leading zero of a four-byte start code goes with the unit.
                    while (out.count > 0 && output[out.count - 1] == 0) out.count--;
                } else if (state == 0) {
                    out.count = mark;
                }
            }
            if (state == 0) put(&out, data + next, 3 + count);
            if (state != 2) put(&out, data + unit_end, end - unit_end);
            next = end;
        }
    }
    if (out.failed || out.count > size) goto done;
    if (*removed > 0) memcpy(data, output, out.count);
    result = *removed > 0 ? (long)out.count : (long)size;
done:
    if (result < 0) *removed = *mdpm = 0;
    free(output);
    free(scratch);
    return result;
}
