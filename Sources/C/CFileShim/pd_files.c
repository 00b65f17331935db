// GNU extensions Swift's Glibc module does not show (it is built without
// _GNU_SOURCE): renameat2's exchange and syncfs.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "pd_files.h"

int pd_exchange_paths(const char *first, const char *second) {
    return renameat2(AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE);
}

int pd_sync_file_system(int descriptor) {
    return syncfs(descriptor);
}
