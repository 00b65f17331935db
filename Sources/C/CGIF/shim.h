#ifndef PHOTODECK_CGIF_SHIM_H
#define PHOTODECK_CGIF_SHIM_H
#include <gif_lib.h>
#endif
