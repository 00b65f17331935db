// Inner loops of PhotoDeck's resampler. They are plain loops that compilers
// vectorise; each is built twice (AVX2 and baseline x86-64) and the right
// one is picked when the program loads, since Swift cannot compile one
// function for several CPU levels. Callers validate every size and offset.

#include "pd_resample.h"

#include <string.h>

#ifndef __has_feature
#define __has_feature(feature) 0
#endif
// The ifunc resolvers target_clones generates run while the program loads,
// before a sanitizer's runtime is ready; sanitized builds use one version.
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || \
    defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define PD_MULTIVERSION
#elif defined(__x86_64__) && defined(__linux__) && (defined(__clang__) || defined(__GNUC__))
#define PD_MULTIVERSION __attribute__((target_clones("avx2", "default")))
#else
#define PD_MULTIVERSION
#endif

static inline uint8_t pd_clamp_byte(int32_t accumulator) {
    int32_t value = (accumulator + (1 << (PD_RESAMPLE_PRECISION - 1))) >> PD_RESAMPLE_PRECISION;
    return (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value);
}

PD_MULTIVERSION
void pd_resample_vertical_row(const uint8_t *const *rows, size_t row_bytes,
                              const int32_t *weights, int count,
                              int32_t *accumulator, uint8_t *output) {
    const int32_t first = weights[0];
    const uint8_t *source = rows[0];
    for (size_t x = 0; x < row_bytes; x++) accumulator[x] = (int32_t)source[x] * first;
    for (int tap = 1; tap < count; tap++) {
        const uint8_t *line = rows[tap];
        const int32_t weight = weights[tap];
        for (size_t x = 0; x < row_bytes; x++) accumulator[x] += (int32_t)line[x] * weight;
    }
    for (size_t x = 0; x < row_bytes; x++) output[x] = pd_clamp_byte(accumulator[x]);
}

typedef int32_t pd_v4i __attribute__((vector_size(16)));

PD_MULTIVERSION
void pd_resample_horizontal_row(const uint8_t *source, uint8_t *output, int width, int channels,
                                const int32_t *starts, const int32_t *counts,
                                const int32_t *weights, int stride) {
    if (channels == 1) {
        for (int x = 0; x < width; x++) {
            const int32_t *w = weights + (size_t)x * (size_t)stride;
            const uint8_t *p = source + starts[x];
            int32_t sum = 0;
            for (int tap = 0; tap < counts[x]; tap++) sum += (int32_t)p[tap] * w[tap];
            output[x] = pd_clamp_byte(sum);
        }
        return;
    }
    for (int x = 0; x < width; x++) {
        const int32_t *w = weights + (size_t)x * (size_t)stride;
        const uint8_t *p = source + (size_t)starts[x] * (size_t)channels;
        pd_v4i sum = {0, 0, 0, 0};
        for (int tap = 0; tap < counts[x]; tap++, p += channels) {
            pd_v4i pixel = {p[0], p[1], p[2], p[3]};
            sum += pixel * w[tap];
        }
        uint8_t *target = output + (size_t)x * (size_t)channels;
        target[0] = pd_clamp_byte(sum[0]);
        target[1] = pd_clamp_byte(sum[1]);
        target[2] = pd_clamp_byte(sum[2]);
        if (channels == 4) target[3] = pd_clamp_byte(sum[3]);
    }
}

PD_MULTIVERSION
void pd_resample_add_row(const uint8_t *row, uint32_t *sums, size_t length) {
    for (size_t x = 0; x < length; x++) sums[x] += row[x];
}
