#ifndef PHOTODECK_CHEIF_SHIM_H
#define PHOTODECK_CHEIF_SHIM_H
#include <libheif/heif.h>
#endif
