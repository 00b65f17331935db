#include "pd_terminal.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <unistd.h>

// ioctl is variadic, so Swift cannot call it: this wraps the one request the viewer needs.
int pd_terminal_size(int fd, int *columns, int *rows, int *pixel_width, int *pixel_height) {
    struct winsize size = {0};
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
    *columns = size.ws_col;
    *rows = size.ws_row;
    *pixel_width = size.ws_xpixel;
    *pixel_height = size.ws_ypixel;
    return 0;
}

static const int watched[] = {SIGWINCH, SIGINT, SIGTERM, SIGHUP};
#define WATCHED_COUNT (sizeof(watched) / sizeof(watched[0]))
static struct sigaction previous[WATCHED_COUNT];
static sigset_t previous_mask;
// Written before the handlers are installed and read only by them.
static volatile sig_atomic_t signal_fd = -1;

static void on_signal(int number) {
    int saved = errno;
    unsigned char byte = (unsigned char)number;
    if (signal_fd >= 0) (void)!write(signal_fd, &byte, 1);  // async-signal-safe; a full pipe already wakes the reader
    errno = saved;
}

int pd_terminal_watch_signals(int fd) {
    signal_fd = fd;
    struct sigaction action = {0};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigset_t mask;
    sigemptyset(&mask);
    for (size_t i = 0; i < WATCHED_COUNT; i++) {
        if (sigaction(watched[i], &action, &previous[i]) != 0) return -1;
        sigaddset(&mask, watched[i]);
    }
    return pthread_sigmask(SIG_UNBLOCK, &mask, &previous_mask) == 0 ? 0 : -1;
}

void pd_terminal_unwatch_signals(void) {
    for (size_t i = 0; i < WATCHED_COUNT; i++) sigaction(watched[i], &previous[i], NULL);
    pthread_sigmask(SIG_SETMASK, &previous_mask, NULL);
    signal_fd = -1;
}
