#ifndef PHOTODECK_CSQLITE_SHIM_H
#define PHOTODECK_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift
/// cannot import: bound text and blobs are copied by SQLite when given this.
static inline sqlite3_destructor_type pd_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
