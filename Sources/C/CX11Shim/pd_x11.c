#include "pd_x11.h"

#if defined(__linux__)
#include <X11/Xlib.h>
#include <X11/Xproto.h>
#include <pthread.h>
#include <stdatomic.h>

// The handler replaced, stored once (under `once`) right after the swap and
// read by the filter on whichever thread Xlib reports an error; atomic so
// that read is ordered after the store. An error in the instant between the
// swap and the store finds it NULL and is ignored, not lost to a crash.
static _Atomic(XErrorHandler) previous_handler = NULL;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static atomic_ulong ignored = 0;

static int pd_x11_filter(Display *display, XErrorEvent *error) {
    if (error->error_code == BadWindow && error->request_code == X_SendEvent) {
        atomic_fetch_add(&ignored, 1);
        return 0;
    }
    XErrorHandler previous = atomic_load_explicit(&previous_handler, memory_order_acquire);
    return previous ? previous(display, error) : 0;
}

static void pd_x11_install(void) {
    atomic_store_explicit(&previous_handler, XSetErrorHandler(pd_x11_filter), memory_order_release);
}

int pd_x11_tolerate_stale_wakeups(void) {
    pthread_once(&once, pd_x11_install);
    return 1;
}

unsigned long pd_x11_ignored_stale_wakeups(void) {
    return atomic_load(&ignored);
}
#else
int pd_x11_tolerate_stale_wakeups(void) { return 0; }
unsigned long pd_x11_ignored_stale_wakeups(void) { return 0; }
#endif
