#ifndef PHOTODECK_CJXL_SHIM_H
#define PHOTODECK_CJXL_SHIM_H
#include <jxl/decode.h>
#include <jxl/color_encoding.h>
#endif
