#ifndef PHOTODECK_CDBUS_SHIM_H
#define PHOTODECK_CDBUS_SHIM_H
#include <dbus/dbus.h>
#endif
