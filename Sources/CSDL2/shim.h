#ifndef PHOTODECK_CSDL2_SHIM_H
#define PHOTODECK_CSDL2_SHIM_H
// SDL2 for the viewer window and SDL2_ttf for the text drawn over it.
#include <SDL.h>
#include <SDL_ttf.h>
#endif
