#ifndef PHOTODECK_CTURBOJPEG_SHIM_H
#define PHOTODECK_CTURBOJPEG_SHIM_H
#include <stddef.h>
#include <turbojpeg.h>
#endif
