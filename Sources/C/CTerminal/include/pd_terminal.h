#ifndef PHOTODECK_PD_TERMINAL_H
#define PHOTODECK_PD_TERMINAL_H

#ifdef __cplusplus
extern "C" {
#endif

/// The terminal's size from TIOCGWINSZ: cells and (when the terminal
/// reports them) pixels. Returns 0, or -1 with errno set (not a terminal).
int pd_terminal_size(int fd, int *columns, int *rows, int *pixel_width, int *pixel_height);

/// Installs handlers for SIGWINCH, SIGINT, SIGTERM and SIGHUP that write the
/// signal's number (one byte) to `fd` (a non-blocking pipe), and unblocks
/// those signals in the calling thread, so they reach it even when the
/// process inherited them blocked. Returns 0, or -1 with errno set.
int pd_terminal_watch_signals(int fd);

/// Puts back the handlers and the calling thread's mask that
/// pd_terminal_watch_signals replaced.
void pd_terminal_unwatch_signals(void);

#ifdef __cplusplus
}
#endif
#endif
