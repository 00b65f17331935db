#include "pd_heap.h"

// Any libc header defines __GLIBC__ (through features.h) when the C library is glibc.
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int pd_heap_fix_mmap_threshold(int bytes) {
#if defined(__GLIBC__)
    return mallopt(M_MMAP_THRESHOLD, bytes) == 1 ? 1 : 0;
#else
    (void)bytes;
    return 0;
#endif
}
