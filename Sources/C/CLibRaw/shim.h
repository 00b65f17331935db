#ifndef PHOTODECK_CLIBRAW_SHIM_H
#define PHOTODECK_CLIBRAW_SHIM_H
// LibRaw's C interface, the thread-safe build (libraw_r: one libraw_data_t
// per decode, no shared state).
#include <libraw/libraw.h>

// Debian builds LibRaw with OpenMP: its demosaicing loops would start a
// team of libgomp threads of their own. PhotoDeck's decoders run on the
// execution floor's threads, so each decoding thread asks for a team of
// one (omp.h is GCC's, outside clang's search path; this is its
// declaration).
void omp_set_num_threads(int count);

#endif
