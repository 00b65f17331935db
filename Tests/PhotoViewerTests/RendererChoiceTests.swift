import Testing

@testable import PhotoViewer

@Suite("Window renderer choice")
struct RendererChoiceTests {
    @Test("OpenGL renderers that rasterise on the CPU are recognised; GPUs are not")
    func softwareRasterisers() {
        for name in ["llvmpipe (LLVM 15.0.6, 256 bits)", "softpipe", "Mesa X11 swrast", "Software Rasterizer", "GDI Generic"] {
            #expect(RendererChoice.isSoftwareRasteriser(name), "\(name)")
        }
        for name in [
            "AMD Radeon RX 6800 (navi21, LLVM 15.0.6, DRM 3.49, 6.1.0)", "Mesa Intel(R) UHD Graphics 620 (KBL GT2)", "NVIDIA GeForce RTX 3060/PCIe/SSE2",
            "Apple M1",
        ] {
            #expect(!RendererChoice.isSoftwareRasteriser(name), "\(name)")
        }
    }

    @Test("the renderer can be named on the command line")
    func names() {
        #expect(WindowViewer.Rendering(rawValue: "software") == .software)
        #expect(WindowViewer.Rendering.allCases.map(\.rawValue) == ["automatic", "accelerated", "software"])
        #expect(WindowViewer.Options().rendering == .automatic)
    }
}
