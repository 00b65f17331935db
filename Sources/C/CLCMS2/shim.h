#ifndef PHOTODECK_CLCMS2_SHIM_H
#define PHOTODECK_CLCMS2_SHIM_H
#include <lcms2.h>

// lcms2's pixel types and flags are built from function-like macros, which
// Swift does not import: the values PhotoDeck uses, as constants.
static const cmsUInt32Number PD_TYPE_GRAY_8 = TYPE_GRAY_8;
static const cmsUInt32Number PD_TYPE_RGB_8 = TYPE_RGB_8;
static const cmsUInt32Number PD_TYPE_RGBA_8 = TYPE_RGBA_8;
static const cmsUInt32Number PD_TYPE_CMYK_8 = TYPE_CMYK_8;
// Grey is converted in floating point once per level: lcms2's 8-bit grey
// pipeline loses the shadows of linear light (gAMA 1.0 level 2 came out 12, not 22).
static const cmsUInt32Number PD_TYPE_GRAY_FLT = TYPE_GRAY_FLT;
// Ink stored inverted (255 is no ink), as Adobe's CMYK JPEGs do.
static const cmsUInt32Number PD_TYPE_CMYK_8_REV = TYPE_CMYK_8_REV;
static const cmsUInt32Number PD_FLAGS_TRANSFORM = cmsFLAGS_NOCACHE | cmsFLAGS_COPY_ALPHA;
static const cmsUInt32Number PD_INTENT_PERCEPTUAL = INTENT_PERCEPTUAL;
#endif
