#ifndef PHOTODECK_CSDL2_SHIM_H
#define PHOTODECK_CSDL2_SHIM_H
// SDL2 for the viewer window and SDL2_ttf for the text drawn over it.
// Included by their SDL2/ folder rather than through pkg-config, whose
// cflags carry -D_REENTRANT: SwiftPM drops that flag, but printed
// "prohibited flag(s)" on every build of every package that links PhotoViewer.
// (_REENTRANT does nothing with glibc; SDL's headers include their
// siblings with quotes, so they resolve inside SDL2/.)
#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>
#include <SDL2/SDL_ttf.h>
#if defined(SDL_VIDEO_DRIVER_X11)
#include <dlfcn.h>
#endif

/// Whether the X server showing `window` offers direct rendering (the DRI3
/// or DRI2 extension, which a GPU driver brings): 1 when it does, 0 when it
/// does not (Xvfb, VNC servers, a forwarded X connection), -1 when the
/// window is not on X11 or the answer is unknown.
///
/// SDL loads libX11 itself at run time (nothing here links it), so
/// `XQueryExtension` is looked up in the copy SDL has already loaded;
/// `RTLD_NOLOAD` never loads a second one.
static inline int pd_sdl_x11_has_direct_rendering(SDL_Window *window) {
#if defined(SDL_VIDEO_DRIVER_X11)
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_X11 || info.info.x11.display == NULL) return -1;
    void *library = dlopen("libX11.so.6", RTLD_LAZY | RTLD_NOLOAD);
    if (library == NULL) return -1;
    typedef int (*QueryExtension)(Display *, const char *, int *, int *, int *);
    QueryExtension query = (QueryExtension)dlsym(library, "XQueryExtension");
    int answer = -1;
    if (query != NULL) {
        int opcode = 0, event = 0, error = 0;
        answer = (query(info.info.x11.display, "DRI3", &opcode, &event, &error) || query(info.info.x11.display, "DRI2", &opcode, &event, &error)) ? 1 : 0;
    }
    dlclose(library);
    return answer;
#else
    (void)window;
    return -1;
#endif
}
#endif
