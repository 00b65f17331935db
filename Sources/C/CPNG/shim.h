#ifndef PHOTODECK_CPNG_SHIM_H
#define PHOTODECK_CPNG_SHIM_H
#include <png.h>
#endif
