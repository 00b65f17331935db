#ifndef PHOTODECK_PD_X11_H
#define PHOTODECK_PD_X11_H

#ifdef __cplusplus
extern "C" {
#endif

/// Makes Xlib ignore one error SDL's X11 driver provokes by design, and
/// nothing else: BadWindow from XSendEvent. SDL_PushEvent from a thread other
/// than the window's wakes the window's event wait by sending a client
/// message to the window on a second connection; when the wake races the
/// window's destruction (the window thread returned from its wait for the key
/// that quits and destroyed the window before the server read the wake from
/// the other socket), the server answers BadWindow, and Xlib's default
/// handler ends the process with status 1. Every other error still goes to
/// the handler this one replaces (SDL's, or Xlib's default).
///
/// Call it before SDL_InitSubSystem(SDL_INIT_VIDEO), so that SDL's own
/// handler passes errors on to this one. Installs once per process (later
/// calls do nothing); safe from any thread. Returns 1 when the handler is in
/// place, 0 where there is no Xlib (not Linux).
int pd_x11_tolerate_stale_wakeups(void);

/// How many errors the handler has ignored in this process (for the viewer's
/// statistics and the tests).
unsigned long pd_x11_ignored_stale_wakeups(void);

#ifdef __cplusplus
}
#endif
#endif
