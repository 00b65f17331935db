import CSDL2
import CX11Shim
import Foundation
import ImageCodecs

/// The SDL window, its renderer, the page's texture and the overlay text.
/// Made, used and destroyed on the viewer's thread only.
final class WindowRenderer {
    let window: OpaquePointer
    let renderer: OpaquePointer
    private var font: OpaquePointer?
    private var page: (key: String, texture: OpaquePointer, width: Int, height: Int, translucent: Bool)?
    private var lastTitle = ""
    /// Which renderer draws and why, for `--stats` (``ViewerStatistics/output``).
    let rendererDescription: String

    /// Opens a window of `size` points titled `title`, drawn as `rendering` asks.
    init(title: String, size: (width: Int, height: Int), rendering: WindowViewer.Rendering) throws(WindowError) {
        // Xlib converts window titles through the C library's locale: in the
        // default "C" locale a UTF-8 title (the em dash) reaches neither
        // WM_NAME nor _NET_WM_NAME intact, so a process still in "C" gets C.UTF-8's
        // character handling (nothing else of the locale changes).
        if let current = setlocale(LC_CTYPE, nil), String(cString: current) == "C" { setlocale(LC_CTYPE, "C.UTF-8") }
        SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "1")
        SDL_SetHint(SDL_HINT_VIDEO_ALLOW_SCREENSAVER, "1")
        #if os(Linux)
            // Without a Wayland socket, ask for X11 only (SDL would try
            // Wayland first and print to stderr); without either, there is
            // no window to open. An SDL_VIDEODRIVER the user set is kept.
            let environment = ProcessInfo.processInfo.environment
            if environment["SDL_VIDEODRIVER"] == nil && environment["WAYLAND_DISPLAY"] == nil {
                guard let display = environment["DISPLAY"], !display.isEmpty else { throw .noDisplay("neither DISPLAY nor WAYLAND_DISPLAY is set") }
                SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11")
            }
            // Before SDL's own handler goes over it: a wakeup posted from
            // another thread that races the window's destruction at quit
            // must not end the process (see pd_x11.h).
            _ = pd_x11_tolerate_stale_wakeups()
        #endif
        guard SDL_InitSubSystem(UInt32(SDL_INIT_VIDEO)) == 0 else { throw .noDisplay(Self.lastError) }
        // SDL falls back to drivers that show nothing; a viewer has no use for them.
        let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? ""
        guard driver != "offscreen" && driver != "dummy" else {
            SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO))
            throw .noDisplay("SDL found only its \(driver) driver, which shows nothing")
        }
        let flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        let centred = Int32(0x2FFF_0000)  // SDL_WINDOWPOS_CENTERED
        guard let window = SDL_CreateWindow(title, centred, centred, Int32(size.width), Int32(size.height), flags) else {
            let reason = Self.lastError
            SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO))
            throw .noDisplay(reason)
        }
        guard let (renderer, description) = RendererChoice.makeRenderer(for: window, rendering: rendering) else {
            let reason = Self.lastError
            SDL_DestroyWindow(window)
            SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO))
            throw .noRenderer(reason)
        }
        self.window = window
        self.renderer = renderer
        rendererDescription = description
        if TTF_WasInit() != 0 || TTF_Init() == 0, let path = Self.fontPath() {
            font = TTF_OpenFont(path, 16)
        }
        lastTitle = title
    }

    deinit {
        if let page { SDL_DestroyTexture(page.texture) }
        if let font { TTF_CloseFont(font) }
        SDL_DestroyRenderer(renderer)
        SDL_DestroyWindow(window)
        SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO))
    }

    static var lastError: String { String(cString: SDL_GetError()) }

    /// A font for the overlay: `PHOTODECK_FONT`, else DejaVu Sans or a system sans.
    static func fontPath() -> String? {
        var candidates = [
            "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf", "/usr/share/fonts/dejavu/DejaVuSans.ttf",
            "/System/Library/Fonts/Supplemental/Arial.ttf", "/Library/Fonts/Arial.ttf",
        ]
        if let chosen = ProcessInfo.processInfo.environment["PHOTODECK_FONT"] { candidates.insert(chosen, at: 0) }
        return candidates.first { FileManager.default.isReadableFile(atPath: $0) }
    }

    /// Whether overlay text can be drawn (a font was found).
    var hasFont: Bool { font != nil }

    /// The window's size in points and in pixels.
    var sizes: (points: CGSize, pixels: PixelSize) {
        var width: Int32 = 0
        var height: Int32 = 0
        SDL_GetWindowSize(window, &width, &height)
        var pixelWidth: Int32 = 0
        var pixelHeight: Int32 = 0
        if SDL_GetRendererOutputSize(renderer, &pixelWidth, &pixelHeight) != 0 { (pixelWidth, pixelHeight) = (width, height) }
        return (CGSize(width: Int(width), height: Int(height)), PixelSize(width: Int(pixelWidth), height: Int(pixelHeight)))
    }

    func setTitle(_ title: String) {
        guard title != lastTitle else { return }
        SDL_SetWindowTitle(window, title)
        lastTitle = title
    }

    func toggleFullScreen() {
        let fullScreen = SDL_GetWindowFlags(window) & SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue != 0
        SDL_SetWindowFullscreen(window, fullScreen ? 0 : SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue)
    }

    /// Presents a black window (the first present sets up the window's
    /// framebuffer, the slowest of all).
    func presentBlank() {
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        SDL_RenderClear(renderer)
        SDL_RenderPresent(renderer)
    }

    /// Draws `frame` and presents it; returns how long the upload (the
    /// page's texture and the copy into the frame) and the present took.
    @discardableResult
    func draw(_ frame: ViewerFrame) -> (upload: Duration, present: Duration) {
        let started = ContinuousClock.now
        setTitle(frame.title)
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        SDL_RenderClear(renderer)
        let pixels = sizes.pixels
        let scale = Double(pixels.width) / max(1, Double(frame.viewportSize.width))
        var failure: String?
        switch frame.content {
        case .page(let page):
            // An animation's or a video's frames replace the page's pixels: each is a texture of its own.
            let key = "\(page.photo.id)@\(page.rendition.width)x\(page.rendition.height)#\(page.motionFrame)"
            if let texture = texture(for: page.rendition, key: key) {
                let f = page.frame
                var target = SDL_Rect(
                    x: Int32((Double(f.minX) * scale).rounded()), y: Int32((Double(f.minY) * scale).rounded()),
                    w: Int32((Double(f.width) * scale).rounded()), h: Int32((Double(f.height) * scale).rounded()))
                let width = Int32(page.rendition.width)
                let height = Int32(page.rendition.height)
                if abs(width - target.w) <= 1 && abs(height - target.h) <= 1 {
                    // A fitted page: one rendition pixel per window pixel (the
                    // rendition's size is rounded up, the frame's edges to
                    // whole pixels), so copy without scaling.
                    target.w = min(width, target.w)
                    target.h = min(height, target.h)
                    var source = SDL_Rect(x: 0, y: 0, w: target.w, h: target.h)
                    SDL_RenderCopy(renderer, texture, &source, &target)
                } else {
                    SDL_RenderCopy(renderer, texture, nil, &target)
                }
            } else {
                failure = "cannot make a texture of \(page.rendition.width)x\(page.rendition.height): \(Self.lastError)"
            }
        case .failure(let reason): failure = reason
        case .grid(let grid):
            // The grid is drawn in window pixels: one canvas pixel per pixel.
            if let texture = texture(for: grid.canvas, key: "grid#\(grid.version)") {
                var target = SDL_Rect(x: 0, y: 0, w: Int32(grid.canvas.width), h: Int32(grid.canvas.height))
                SDL_RenderCopy(renderer, texture, nil, &target)
            } else {
                failure = "cannot make a texture of the grid: \(Self.lastError)"
            }
        }
        if let failure { drawText(failure, centredIn: pixels, color: SDL_Color(r: 255, g: 120, b: 120, a: 255)) }
        if let info = frame.info { drawPanel(info) }
        if frame.showsChrome {
            drawBar(frame.statusLine, in: pixels)
        } else if let message = frame.message {
            drawBar(message, in: pixels)
        }
        let drawn = ContinuousClock.now
        SDL_RenderPresent(renderer)
        return (drawn - started, .now - drawn)
    }

    /// The texture of `bitmap`, refilled only when the rendition changes.
    /// The last page's texture is refilled in place when the new rendition
    /// has its size and kind (most turns between photos of one camera), so
    /// a turn allocates nothing (a fresh 1620x1080 texture is 7 MB of new
    /// pages to fault in).
    private func texture(for bitmap: Bitmap, key: String) -> OpaquePointer? {
        if let page, page.key == key { return page.texture }
        let source = bitmap.pixelFormat == .gray8 ? bitmap.converted(to: .rgb8) : bitmap
        let translucent = source.pixelFormat == .rgba8
        let texture: OpaquePointer
        if let page, page.width == source.width, page.height == source.height, page.translucent == translucent {
            texture = page.texture
        } else {
            if let page { SDL_DestroyTexture(page.texture) }
            page = nil
            // Opaque pixels go up as XRGB8888, the window's own format on
            // X11: SDL's software renderer then copies rows instead of
            // converting each pixel.
            let format = translucent ? SDL_PIXELFORMAT_RGBA32.rawValue : SDL_PIXELFORMAT_RGB888.rawValue
            guard
                let made = SDL_CreateTexture(
                    renderer, UInt32(format), Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), Int32(source.width), Int32(source.height))
            else { return nil }
            if translucent { SDL_SetTextureBlendMode(made, SDL_BLENDMODE_BLEND) }
            texture = made
        }
        var pixels: UnsafeMutableRawPointer?
        var pitch: Int32 = 0
        guard SDL_LockTexture(texture, nil, &pixels, &pitch) == 0, let pixels else {
            SDL_DestroyTexture(texture)
            page = nil
            return nil
        }
        source.withUnsafeBytes { bytes in
            if translucent {
                for row in 0..<source.height {
                    (pixels + row * Int(pitch)).copyMemory(from: bytes.baseAddress! + row * source.bytesPerRow, byteCount: source.width * 4)
                }
            } else {
                Self.copyRGBToXRGB(
                    bytes.baseAddress!, rowBytes: source.bytesPerRow, into: pixels, pitch: Int(pitch), width: source.width, height: source.height)
            }
        }
        SDL_UnlockTexture(texture)
        page = (key, texture, source.width, source.height, translucent)
        return texture
    }

    /// RGB rows to little-endian XRGB8888 (bytes B, G, R, 255).
    private static func copyRGBToXRGB(_ source: UnsafeRawPointer, rowBytes: Int, into target: UnsafeMutableRawPointer, pitch: Int, width: Int, height: Int) {
        for row in 0..<height {
            let from = source.advanced(by: row * rowBytes).assumingMemoryBound(to: UInt8.self)
            let to = target.advanced(by: row * pitch).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let r = UInt32(from[x * 3])
                let g = UInt32(from[x * 3 + 1])
                let b = UInt32(from[x * 3 + 2])
                to[x] = 0xFF00_0000 | r << 16 | g << 8 | b
            }
        }
    }

    /// A translucent bar along the bottom with `text` in it.
    private func drawBar(_ text: String, in pixels: PixelSize) {
        guard let font else { return }
        let height = Int32(TTF_FontHeight(font)) + 12
        var bar = SDL_Rect(x: 0, y: Int32(pixels.height) - height, w: Int32(pixels.width), h: height)
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 170)
        SDL_RenderFillRect(renderer, &bar)
        drawText(text, at: (10, Int(bar.y) + 6), color: SDL_Color(r: 255, g: 255, b: 255, a: 255))
    }

    /// The information overlay: `lines` on a translucent panel at the top left.
    private func drawPanel(_ lines: [String]) {
        guard let font, !lines.isEmpty else { return }
        let lineHeight = Int(TTF_FontLineSkip(font))
        var widest: Int32 = 0
        for line in lines {
            var width: Int32 = 0
            var height: Int32 = 0
            TTF_SizeUTF8(font, line, &width, &height)
            widest = max(widest, width)
        }
        var panel = SDL_Rect(x: 8, y: 8, w: widest + 20, h: Int32(lineHeight * lines.count + 16))
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 170)
        SDL_RenderFillRect(renderer, &panel)
        for (index, line) in lines.enumerated() {
            let color = index == 0 ? SDL_Color(r: 255, g: 255, b: 255, a: 255) : SDL_Color(r: 215, g: 215, b: 215, a: 255)
            drawText(line, at: (18, 16 + index * lineHeight), color: color)
        }
    }

    private func drawText(_ text: String, centredIn pixels: PixelSize, color: SDL_Color) {
        guard let font else { return }
        var width: Int32 = 0
        var height: Int32 = 0
        TTF_SizeUTF8(font, text, &width, &height)
        drawText(text, at: (max(4, (pixels.width - Int(width)) / 2), (pixels.height - Int(height)) / 2), color: color)
    }

    private func drawText(_ text: String, at point: (Int, Int), color: SDL_Color) {
        guard let font, !text.isEmpty, let surface = TTF_RenderUTF8_Blended(font, text, color) else { return }
        defer { SDL_FreeSurface(surface) }
        guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return }
        defer { SDL_DestroyTexture(texture) }
        var target = SDL_Rect(x: Int32(point.0), y: Int32(point.1), w: surface.pointee.w, h: surface.pointee.h)
        SDL_RenderCopy(renderer, texture, nil, &target)
    }
}
