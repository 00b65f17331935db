import CSDL2

extension WindowViewer {
    /// How the window's pixels reach the screen.
    ///
    /// A photo viewer draws one still picture per input, so the cost that
    /// matters is getting the frame to the display. Through a GPU that is
    /// OpenGL (or Metal, Direct3D). Without one, Mesa answers OpenGL with
    /// llvmpipe, which rasterises on the CPU and costs about 110 MB of
    /// memory before the first photo; SDL's software renderer drawing into
    /// the X server's shared memory presents a 1920x1080 frame in about 2 ms
    /// instead of 10-20 ms (measured under Xvfb).
    public enum Rendering: String, Hashable, Sendable, CaseIterable {
        /// OpenGL when a GPU is behind it, else the software renderer: on
        /// X11, an X server without DRI3 or DRI2 (Xvfb, VNC servers, a
        /// forwarded connection) or an OpenGL that rasterises on the CPU
        /// (llvmpipe, softpipe) gets the software renderer. The default.
        case automatic
        /// SDL's GPU renderer, even when it rasterises on the CPU (falls
        /// back to the software renderer when there is none).
        case accelerated
        /// SDL's software renderer on the window system's own framebuffer
        /// (no OpenGL loaded); SDL's default framebuffer when the window
        /// system has none of its own (Wayland).
        case software
    }
}

/// Makes the window's SDL renderer as a ``WindowViewer/Rendering`` asks.
enum RendererChoice {
    /// The renderer and a sentence saying which it is and why.
    static func makeRenderer(for window: OpaquePointer, rendering: WindowViewer.Rendering) -> (OpaquePointer, String)? {
        switch rendering {
        case .software:
            return software(for: window, because: "asked for") ?? accelerated(for: window, because: "the software renderer failed: \(lastError)")
        case .accelerated:
            return accelerated(for: window, because: "asked for") ?? software(for: window, because: "no GPU renderer: \(lastError)")
        case .automatic:
            if pd_sdl_x11_has_direct_rendering(window) == 0,
                let chosen = software(for: window, because: "the X server offers no direct rendering (no DRI3 or DRI2)")
            {
                return chosen
            }
            guard let renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED.rawValue) else {
                return software(for: window, because: "no GPU renderer: \(lastError)")
            }
            let rasteriser = openGLRenderer()
            guard let rasteriser, isSoftwareRasteriser(rasteriser) else {
                return (renderer, rendererName(renderer) + (rasteriser.map { " (\($0))" } ?? ""))
            }
            SDL_DestroyRenderer(renderer)
            return software(for: window, because: "OpenGL rasterises on the CPU here (\(rasteriser))")
                ?? accelerated(for: window, because: "the software renderer failed")
        }
    }

    private static var lastError: String { String(cString: SDL_GetError()) }

    private static func software(for window: OpaquePointer, because reason: String) -> (OpaquePointer, String)? {
        // The window's own framebuffer (X11 shared memory), not one SDL
        // would build on OpenGL; a value the user set in the environment wins.
        SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0")
        if let renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue) { return (renderer, "software: \(reason)") }
        // Window systems without a framebuffer of their own (Wayland) need SDL's.
        SDL_ResetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION)
        return SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue).map { ($0, "software on SDL's framebuffer: \(reason)") }
    }

    private static func accelerated(for window: OpaquePointer, because reason: String) -> (OpaquePointer, String)? {
        SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED.rawValue).map { ($0, "\(rendererName($0)): \(reason)") }
    }

    private static func rendererName(_ renderer: OpaquePointer) -> String {
        var info = SDL_RendererInfo()
        guard SDL_GetRendererInfo(renderer, &info) == 0, let name = info.name else { return "unknown" }
        return String(cString: name)
    }

    /// `GL_RENDERER` of the current OpenGL context, if there is one.
    private static func openGLRenderer() -> String? {
        guard SDL_GL_GetCurrentContext() != nil, let address = SDL_GL_GetProcAddress("glGetString") else { return nil }
        typealias GetString = @convention(c) (UInt32) -> UnsafePointer<UInt8>?
        let getString = unsafeBitCast(address, to: GetString.self)
        return getString(0x1F01).map { String(cString: $0) }  // GL_RENDERER
    }

    /// Whether an OpenGL `GL_RENDERER` names a rasteriser that runs on the CPU.
    static func isSoftwareRasteriser(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return ["llvmpipe", "softpipe", "swrast", "software rasterizer", "gdi generic", "lavapipe"].contains { lowered.contains($0) }
    }
}
