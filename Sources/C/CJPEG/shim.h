#ifndef PHOTODECK_CJPEG_SHIM_H
#define PHOTODECK_CJPEG_SHIM_H
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
#endif
