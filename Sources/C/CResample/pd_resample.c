// Inner loops of PhotoDeck's resampler. Each has a portable version that
// compilers vectorise and, on x86-64, an AVX2 version written with
// intrinsics (multiplying pairs of 16-bit samples by pairs of 16-bit
// weights in one `vpmaddwd`), picked at run time from the CPU's features.
// Both versions do the same integer arithmetic, so every machine makes the
// same bytes. Callers validate every size and offset.

#include "pd_resample.h"

#include <string.h>

#ifndef __has_feature
#define __has_feature(feature) 0
#endif
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || \
    defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define PD_SANITIZED 1
#endif
// target_clones makes ifunc resolvers, which run while the program loads,
// before a sanitizer's runtime is ready; sanitized builds use one version.
#if !defined(PD_SANITIZED) && defined(__x86_64__) && defined(__linux__) && (defined(__clang__) || defined(__GNUC__))
#define PD_MULTIVERSION __attribute__((target_clones("avx2", "default")))
#else
#define PD_MULTIVERSION
#endif
#if !defined(PD_SANITIZED) && defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define PD_HAS_AVX2_PATH 1
#endif

static inline uint8_t pd_clamp_byte(int32_t accumulator) {
    int32_t value = (accumulator + (1 << (PD_RESAMPLE_PRECISION - 1))) >> PD_RESAMPLE_PRECISION;
    return (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value);
}

#ifdef PD_HAS_AVX2_PATH
static int pd_cpu_has_avx2(void) {
    // Reads the CPU model the runtime filled in before main (a load and a test).
    return __builtin_cpu_supports("avx2");
}

/// 32 bytes of the vertical pass at a time: two source rows' bytes
/// interleaved as 16-bit pairs and multiplied by their two weights with one
/// `vpmaddwd`. The unpacks and the packs both work within 128-bit lanes, so
/// the packs put the bytes back in the order the unpacks took them.
/// Returns how many bytes it made (a multiple of 32).
__attribute__((target("avx2")))
static size_t pd_vertical_avx2(const uint8_t *const *rows, size_t row_bytes, const int16_t *weights, int count, uint8_t *output) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i rounding = _mm256_set1_epi32(1 << (PD_RESAMPLE_PRECISION - 1));
    size_t x = 0;
    for (; x + 32 <= row_bytes; x += 32) {
        __m256i sum0 = rounding, sum1 = rounding, sum2 = rounding, sum3 = rounding;
        for (int tap = 0; tap < count; tap += 2) {
            const int paired = tap + 1 < count;
            const __m256i a = _mm256_loadu_si256((const __m256i *)(rows[tap] + x));
            const __m256i b = paired ? _mm256_loadu_si256((const __m256i *)(rows[tap + 1] + x)) : zero;
            const uint32_t low = (uint16_t)weights[tap];
            const uint32_t high = paired ? (uint16_t)weights[tap + 1] : 0;
            const __m256i pair = _mm256_set1_epi32((int32_t)(low | high << 16));
            const __m256i aLow = _mm256_unpacklo_epi8(a, zero), aHigh = _mm256_unpackhi_epi8(a, zero);
            const __m256i bLow = _mm256_unpacklo_epi8(b, zero), bHigh = _mm256_unpackhi_epi8(b, zero);
            sum0 = _mm256_add_epi32(sum0, _mm256_madd_epi16(_mm256_unpacklo_epi16(aLow, bLow), pair));
            sum1 = _mm256_add_epi32(sum1, _mm256_madd_epi16(_mm256_unpackhi_epi16(aLow, bLow), pair));
            sum2 = _mm256_add_epi32(sum2, _mm256_madd_epi16(_mm256_unpacklo_epi16(aHigh, bHigh), pair));
            sum3 = _mm256_add_epi32(sum3, _mm256_madd_epi16(_mm256_unpackhi_epi16(aHigh, bHigh), pair));
        }
        const __m256i words = _mm256_packs_epi32(_mm256_srai_epi32(sum0, PD_RESAMPLE_PRECISION), _mm256_srai_epi32(sum1, PD_RESAMPLE_PRECISION));
        const __m256i more = _mm256_packs_epi32(_mm256_srai_epi32(sum2, PD_RESAMPLE_PRECISION), _mm256_srai_epi32(sum3, PD_RESAMPLE_PRECISION));
        _mm256_storeu_si256((__m256i *)(output + x), _mm256_packus_epi16(words, more));
    }
    return x;
}

/// One pixel of the horizontal pass (3 or 4 channels) two taps at a time:
/// the two pixels' bytes shuffled into 16-bit pairs per channel and
/// multiplied by the two weights with one `pmaddwd`. Reads 8 bytes per pair
/// of taps, except a last unpaired tap (4 bytes).
__attribute__((target("avx2")))
static void pd_horizontal_avx2(const uint8_t *source, uint8_t *output, int width, int channels, const int32_t *starts,
                               const int32_t *counts, const int16_t *weights, int stride) {
    // Channel c of the pair takes byte c of the first pixel and byte c of
    // the second (at `channels`); 0x80 makes a zero byte.
    const char s = (char)channels;
    const __m128i shuffle = _mm_setr_epi8(0, (char)0x80, s, (char)0x80, 1, (char)0x80, (char)(s + 1), (char)0x80, 2, (char)0x80,
                                          (char)(s + 2), (char)0x80, channels == 4 ? 3 : (char)0x80, (char)0x80,
                                          channels == 4 ? 7 : (char)0x80, (char)0x80);
    const __m128i rounding = _mm_set1_epi32(1 << (PD_RESAMPLE_PRECISION - 1));
    for (int x = 0; x < width; x++) {
        const int16_t *w = weights + (size_t)x * (size_t)stride;
        const uint8_t *p = source + (size_t)starts[x] * (size_t)channels;
        const int count = counts[x];
        __m128i sum = rounding;
        int tap = 0;
        for (; tap + 1 < count; tap += 2, p += 2 * channels) {
            uint32_t pair;
            memcpy(&pair, w + tap, sizeof pair);
            const __m128i pixels = _mm_shuffle_epi8(_mm_loadl_epi64((const __m128i *)p), shuffle);
            sum = _mm_add_epi32(sum, _mm_madd_epi16(pixels, _mm_set1_epi32((int32_t)pair)));
        }
        if (tap < count) {
            int32_t last;
            memcpy(&last, p, sizeof last);
            // The second pixel's bytes (beyond the 4 read) are zero, and its weight is too.
            const __m128i pixels = _mm_shuffle_epi8(_mm_cvtsi32_si128(last), shuffle);
            sum = _mm_add_epi32(sum, _mm_madd_epi16(pixels, _mm_set1_epi32((int32_t)(uint16_t)w[tap])));
        }
        const __m128i words = _mm_packs_epi32(_mm_srai_epi32(sum, PD_RESAMPLE_PRECISION), _mm_setzero_si128());
        const uint32_t bytes = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(words, words));
        // Constant-size stores (a variable-size memcpy is a library call per pixel).
        uint8_t *target = output + (size_t)x * (size_t)channels;
        if (channels == 4) {
            memcpy(target, &bytes, 4);
        } else {
            memcpy(target, &bytes, 2);
            target[2] = (uint8_t)(bytes >> 16);
        }
    }
}
#endif

void pd_resample_vertical_row(const uint8_t *const *rows, size_t row_bytes,
                              const int16_t *weights, int count,
                              int32_t *accumulator, uint8_t *output) {
    pd_resample_vertical_row_using(PD_RESAMPLE_FASTEST, rows, row_bytes, weights, count, accumulator, output);
}

void pd_resample_vertical_row_using(pd_resample_path path, const uint8_t *const *rows, size_t row_bytes,
                                    const int16_t *weights, int count,
                                    int32_t *accumulator, uint8_t *output) {
    size_t done = 0;
#ifdef PD_HAS_AVX2_PATH
    if (path == PD_RESAMPLE_FASTEST && pd_cpu_has_avx2()) done = pd_vertical_avx2(rows, row_bytes, weights, count, output);
#else
    (void)path;
#endif
    if (done == row_bytes) return;
    // The rest (all of it without AVX2) row by row, which compilers vectorise.
    const size_t length = row_bytes - done;
    const int32_t first = weights[0];
    for (size_t x = 0; x < length; x++) accumulator[x] = (int32_t)rows[0][done + x] * first;
    for (int tap = 1; tap < count; tap++) {
        const uint8_t *line = rows[tap] + done;
        const int32_t weight = weights[tap];
        for (size_t x = 0; x < length; x++) accumulator[x] += (int32_t)line[x] * weight;
    }
    for (size_t x = 0; x < length; x++) output[done + x] = pd_clamp_byte(accumulator[x]);
}

typedef int32_t pd_v4i __attribute__((vector_size(16)));

PD_MULTIVERSION
static void pd_horizontal_portable(const uint8_t *source, uint8_t *output, int width, int channels, const int32_t *starts,
                                   const int32_t *counts, const int16_t *weights, int stride) {
    if (channels == 1) {
        for (int x = 0; x < width; x++) {
            const int16_t *w = weights + (size_t)x * (size_t)stride;
            const uint8_t *p = source + starts[x];
            int32_t sum = 0;
            for (int tap = 0; tap < counts[x]; tap++) sum += (int32_t)p[tap] * w[tap];
            output[x] = pd_clamp_byte(sum);
        }
        return;
    }
    for (int x = 0; x < width; x++) {
        const int16_t *w = weights + (size_t)x * (size_t)stride;
        const uint8_t *p = source + (size_t)starts[x] * (size_t)channels;
        pd_v4i sum = {0, 0, 0, 0};
        for (int tap = 0; tap < counts[x]; tap++, p += channels) {
            pd_v4i pixel = {p[0], p[1], p[2], channels == 4 ? p[3] : 0};
            sum += pixel * (int32_t)w[tap];
        }
        uint8_t *target = output + (size_t)x * (size_t)channels;
        target[0] = pd_clamp_byte(sum[0]);
        target[1] = pd_clamp_byte(sum[1]);
        target[2] = pd_clamp_byte(sum[2]);
        if (channels == 4) target[3] = pd_clamp_byte(sum[3]);
    }
}

void pd_resample_horizontal_row(const uint8_t *source, uint8_t *output, int width, int channels,
                                const int32_t *starts, const int32_t *counts,
                                const int16_t *weights, int stride) {
    pd_resample_horizontal_row_using(PD_RESAMPLE_FASTEST, source, output, width, channels, starts, counts, weights, stride);
}

void pd_resample_horizontal_row_using(pd_resample_path path, const uint8_t *source, uint8_t *output, int width, int channels,
                                      const int32_t *starts, const int32_t *counts,
                                      const int16_t *weights, int stride) {
#ifdef PD_HAS_AVX2_PATH
    if (path == PD_RESAMPLE_FASTEST && channels != 1 && pd_cpu_has_avx2()) {
        pd_horizontal_avx2(source, output, width, channels, starts, counts, weights, stride);
        return;
    }
#else
    (void)path;
#endif
    pd_horizontal_portable(source, output, width, channels, starts, counts, weights, stride);
}

PD_MULTIVERSION
void pd_resample_add_row(const uint8_t *row, uint32_t *sums, size_t length) {
    for (size_t x = 0; x < length; x++) sums[x] += row[x];
}

/// Copies one tile of pixels of `BPP` bytes; see pd_orient_pixels.
#define PD_ORIENT_TILE(BPP)                                                                              \
    for (size_t y = y0; y < y1; y++) {                                                                   \
        const uint8_t *from = source + start + (ptrdiff_t)y * step_y + (ptrdiff_t)x0 * step_x;            \
        uint8_t *to = target + y * target_stride + x0 * (BPP);                                           \
        for (size_t x = x0; x < x1; x++, from += step_x, to += (BPP)) memcpy(to, from, (BPP));            \
    }

void pd_orient_pixels(const uint8_t *source, uint8_t *target, size_t target_stride, size_t width, size_t height, int bytes_per_pixel,
                      ptrdiff_t start, ptrdiff_t step_x, ptrdiff_t step_y) {
    // 32x32 tiles: a tile's reads touch 32 source rows and its writes 32
    // target rows, so both stay in the cache whichever way the steps go.
    enum { tile = 32 };
    for (size_t y0 = 0; y0 < height; y0 += tile) {
        const size_t y1 = y0 + tile < height ? y0 + tile : height;
        for (size_t x0 = 0; x0 < width; x0 += tile) {
            const size_t x1 = x0 + tile < width ? x0 + tile : width;
            switch (bytes_per_pixel) {
            case 1: PD_ORIENT_TILE(1) break;
            case 3: PD_ORIENT_TILE(3) break;
            case 4: PD_ORIENT_TILE(4) break;
            default:
                for (size_t y = y0; y < y1; y++) {
                    const uint8_t *from = source + start + (ptrdiff_t)y * step_y + (ptrdiff_t)x0 * step_x;
                    uint8_t *to = target + y * target_stride + x0 * (size_t)bytes_per_pixel;
                    for (size_t x = x0; x < x1; x++, from += step_x, to += bytes_per_pixel) memcpy(to, from, (size_t)bytes_per_pixel);
                }
            }
        }
    }
}

void pd_orient_row(const uint8_t *row, size_t width, int bytes_per_pixel, uint8_t *target, ptrdiff_t step) {
    switch (bytes_per_pixel) {
    case 1:
        for (size_t x = 0; x < width; x++, target += step) *target = row[x];
        break;
    case 3:
        for (size_t x = 0; x < width; x++, target += step) memcpy(target, row + x * 3, 3);
        break;
    case 4:
        for (size_t x = 0; x < width; x++, target += step) memcpy(target, row + x * 4, 4);
        break;
    default:
        for (size_t x = 0; x < width; x++, target += step) memcpy(target, row + x * (size_t)bytes_per_pixel, (size_t)bytes_per_pixel);
    }
}
