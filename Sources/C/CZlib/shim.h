#ifndef PHOTODECK_CZLIB_SHIM_H
#define PHOTODECK_CZLIB_SHIM_H
#include <zlib.h>
#endif
