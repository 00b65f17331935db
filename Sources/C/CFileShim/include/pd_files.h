#ifndef PHOTODECK_FILES_H
#define PHOTODECK_FILES_H

/// Swaps the two paths atomically (renameat2 with RENAME_EXCHANGE: both
/// must exist, on one file system). 0, or -1 with errno set.
int pd_exchange_paths(const char *first, const char *second);

/// Flushes every file system buffer of the file system holding the open
/// descriptor (syncfs). 0, or -1 with errno set.
int pd_sync_file_system(int descriptor);

#endif
