// Provokes, on a real X server, the error SDL's wakeups meet when they race a
// window's destruction, and then another one, to show what the viewer's
// Xlib filter (pd_x11_tolerate_stale_wakeups) lets through.
//
//   x11-error-probe unfiltered   the stale wakeup alone: Xlib's default
//                                handler ends the process with status 1
//   x11-error-probe filtered     the filter under SDL's handler: the stale
//                                wakeup is ignored ("ignored 1"), then
//                                XMapWindow on the same window still ends
//                                the process with status 1
#include <SDL2/SDL.h>
#include <X11/Xlib.h>
#include <stdio.h>
#include <string.h>

#include "pd_x11.h"

static void send_stale_wakeup(Display *display, Window gone) {
    XEvent event;
    memset(&event, 0, sizeof event);
    event.xclient.type = ClientMessage;
    event.xclient.window = gone;
    event.xclient.format = 32;
    XSendEvent(display, gone, False, NoEventMask, &event);
    XSync(display, False);
}

int main(int argc, char **argv) {
    if (argc != 2 || (strcmp(argv[1], "filtered") != 0 && strcmp(argv[1], "unfiltered") != 0)) {
        fprintf(stderr, "usage: x11-error-probe filtered|unfiltered\n");
        return 2;
    }
    int filtered = strcmp(argv[1], "filtered") == 0;
    if (filtered) {
        if (!pd_x11_tolerate_stale_wakeups()) return 3;
        // As the viewer does: the filter first, SDL's handler over it.
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11");
        if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) {
            fprintf(stderr, "SDL: %s\n", SDL_GetError());
            return 4;
        }
    }
    Display *display = XOpenDisplay(NULL);
    if (!display) {
        fprintf(stderr, "no X display\n");
        return 5;
    }
    Window window = XCreateSimpleWindow(display, DefaultRootWindow(display), 0, 0, 1, 1, 0, 0, 0);
    XDestroyWindow(display, window);
    XSync(display, False);
    send_stale_wakeup(display, window);
    printf("ignored %lu\n", pd_x11_ignored_stale_wakeups());
    fflush(stdout);
    XMapWindow(display, window);
    XSync(display, False);
    printf("survived a BadWindow from XMapWindow\n");
    return 0;
}
