#ifndef PHOTODECK_CDE265_SHIM_H
#define PHOTODECK_CDE265_SHIM_H
#include <libde265/de265.h>
#endif
