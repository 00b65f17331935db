#ifndef PHOTODECK_PD_HEAP_H
#define PHOTODECK_PD_HEAP_H

#ifdef __cplusplus
extern "C" {
#endif

/// Fixes glibc's mmap threshold at `bytes` (mallopt M_MMAP_THRESHOLD):
/// blocks that large are mapped when allocated and unmapped when freed.
/// Returns 1 when the setting was taken, 0 when refused or when the C
/// library is not glibc.
int pd_heap_fix_mmap_threshold(int bytes);

#ifdef __cplusplus
}
#endif
#endif
