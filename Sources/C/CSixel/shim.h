#ifndef PHOTODECK_CSIXEL_SHIM_H
#define PHOTODECK_CSIXEL_SHIM_H
#include <sixel.h>
#endif
