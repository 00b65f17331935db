// swift-tools-version:6.0
import PackageDescription

/// Compiler settings shared by every Swift target: Swift 6 mode is the
/// package default; complete strict concurrency is implied by it.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "PhotoDeck",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "ImageCodecs", targets: ["ImageCodecs"]),
        .library(name: "PhotoBrowser", targets: ["PhotoBrowser"]),
        .library(name: "PhotoViewer", targets: ["PhotoViewer"]),
        .library(name: "PhotoAlbum", targets: ["PhotoAlbum"]),
        .library(name: "ShareKit", targets: ["ShareKit"]),
        .library(name: "ShareKitHTTP", targets: ["ShareKitHTTP"]),
        .library(name: "ShareKitTesting", targets: ["ShareKitTesting"]),
        .library(name: "ShareKitHTTPTesting", targets: ["ShareKitHTTPTesting"]),
        .library(name: "WeiboKit", targets: ["WeiboKit"]),
        .library(name: "WeiboShare", targets: ["WeiboShare"]),
        .library(name: "WeChatShare", targets: ["WeChatShare"]),
        .library(name: "WeChatAppShare", targets: ["WeChatAppShare"]),
        .executable(name: "photo-fit", targets: ["photo-fit"]),
        .executable(name: "photo-album", targets: ["photo-album"]),
        .executable(name: "photo-share", targets: ["photo-share"]),
        .executable(name: "photo-browser", targets: ["photo-browser"]),
        .executable(name: "weibo-client", targets: ["weibo-client"]),
    ],
    targets: [
        // MARK: C libraries (thin system-library shims)
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"]), .brew(["jpeg-turbo"])]
        ),
        .systemLibrary(
            name: "CJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"]), .brew(["jpeg-turbo"])]
        ),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
        ),
        .systemLibrary(
            name: "CWebP",
            pkgConfig: "libwebp",
            providers: [.apt(["libwebp-dev"]), .brew(["webp"])]
        ),
        .systemLibrary(
            name: "CHeif",
            pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"]), .brew(["libheif"])]
        ),
        .systemLibrary(
            name: "CDe265",
            pkgConfig: "libde265",
            providers: [.apt(["libde265-dev"]), .brew(["libde265"])]
        ),
        .systemLibrary(
            name: "CLCMS2",
            pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"]), .brew(["little-cms2"])]
        ),
        .systemLibrary(
            name: "CGIF",
            pkgConfig: "libgif",
            providers: [.apt(["libgif-dev"]), .brew(["giflib"])]
        ),
        .systemLibrary(
            name: "CSDL2",
            pkgConfig: "SDL2_ttf",
            providers: [.apt(["libsdl2-dev", "libsdl2-ttf-dev"]), .brew(["sdl2", "sdl2_ttf"])]
        ),
        .systemLibrary(
            name: "CSixel",
            pkgConfig: "libsixel",
            providers: [.apt(["libsixel-dev"]), .brew(["libsixel"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        // libpng's classic API and libjpeg report errors with longjmp; these C
        // targets own every setjmp so that no jump ever crosses a Swift frame.
        .target(name: "CJPEGShim", dependencies: ["CJPEG"]),
        // A libheif decoder plugin running libde265 on worker threads.
        .target(name: "CHEVCDecoder", dependencies: ["CHeif", "CDe265"]),
        // V4L2 ioctls and mmap streaming for the Linux camera.
        .target(name: "CV4L2"),
        // TIOCGWINSZ (ioctl is variadic) for the terminal viewer.
        .target(name: "CTerminal"),
        // rtnetlink (socket, poll, and the NLMSG_* macros) for the network monitor.
        .target(name: "CNetlink"),
        // The resampler's inner loops, built for AVX2 and baseline x86-64.
        .target(name: "CResample"),
        .target(
            name: "CPNGShim",
            dependencies: ["CPNG"]
        ),

        // MARK: Modules
        // The platform floor (package access only; not a product): durable
        // atomic writes, file locks, regular-file opens, the terminal-safe
        // text rule. Every module that writes files or prints untrusted text
        // calls these, so each rule has one copy.
        .target(
            name: "SystemSupport",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ImageCodecs",
            dependencies: ["SystemSupport", "CTurboJPEG", "CJPEGShim", "CPNGShim", "CWebP", "CResample", "CHeif", "CHEVCDecoder", "CLCMS2", "CGIF", "CZlib"],
            swiftSettings: swiftSettings
        ),

        .target(
            name: "PhotoBrowser",
            dependencies: ["ImageCodecs"],
            swiftSettings: swiftSettings
        ),

        // The browser engine on a screen: an SDL2 window and terminal graphics.
        .target(
            name: "PhotoViewer",
            dependencies: ["PhotoBrowser", "ImageCodecs", "SystemSupport", "CSDL2", "CSixel", "CTerminal", "CZlib"],
            swiftSettings: swiftSettings
        ),

        // A thin Swift layer over SQLite shared by PhotoAlbum and ShareKit
        // (package access only; not a product).
        .target(
            name: "SQLiteSupport",
            dependencies: ["CSQLite"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PhotoAlbum",
            dependencies: ["ImageCodecs", "SQLiteSupport", "SystemSupport", "CCrypto", "CV4L2"],
            swiftSettings: swiftSettings
        ),

        .target(
            name: "ShareKit",
            dependencies: ["ImageCodecs", "SQLiteSupport", "SystemSupport", "CNetlink"],
            swiftSettings: swiftSettings
        ),
        // What provider authors build with: HTTP transport, the provider
        // client with its at-most-once publish rule, forms, JSON, logging.
        .target(
            name: "ShareKitHTTP",
            dependencies: ["ShareKit", "ImageCodecs"],
            swiftSettings: swiftSettings
        ),
        // The Weibo client: accounts, timeline with its offline cache,
        // comments, reposts, people.
        .target(
            name: "WeiboKit",
            dependencies: ["ShareKit", "ShareKitHTTP", "SQLiteSupport", "SystemSupport"],
            swiftSettings: swiftSettings
        ),
        // One module per provider family; ShareKit never imports them.
        .target(
            name: "WeiboShare",
            dependencies: ["WeiboKit", "ShareKit", "ShareKitHTTP", "ImageCodecs"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WeChatShare",
            dependencies: ["ShareKit", "ShareKitHTTP", "ImageCodecs", "CCrypto"],
            swiftSettings: swiftSettings
        ),
        // Sharing through the WeChat app on the device (a bridge the host
        // implements); no HTTP.
        .target(
            name: "WeChatAppShare",
            dependencies: ["ShareKit", "ImageCodecs"],
            swiftSettings: swiftSettings
        ),
        // Test doubles for apps (a mock provider, a clock, a network monitor)
        // and, separately, for provider authors (a loopback HTTP server, a
        // stub transport, an in-memory log), so an app's tests need not
        // link the HTTP toolkit.
        .target(
            name: "ShareKitTesting",
            dependencies: ["ShareKit", "WeChatAppShare", "ImageCodecs"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ShareKitHTTPTesting",
            dependencies: ["ShareKitHTTP", "ShareKit"],
            swiftSettings: swiftSettings
        ),

        // MARK: Examples
        // What the example executables share (error lines, exit codes, flag values).
        .target(name: "ExampleSupport", dependencies: ["SystemSupport"], path: "Examples/Support", swiftSettings: swiftSettings),
        .executableTarget(
            name: "photo-fit",
            dependencies: ["ImageCodecs", "ExampleSupport"],
            path: "Examples/photo-fit",
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "photo-album",
            dependencies: ["PhotoAlbum", "ImageCodecs", "ExampleSupport"],
            path: "Examples/photo-album",
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "photo-share",
            dependencies: ["ShareKit", "ShareKitHTTP", "WeiboKit", "WeiboShare", "WeChatShare", "WeChatAppShare", "ImageCodecs", "ExampleSupport"],
            path: "Examples/photo-share",
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "photo-browser",
            dependencies: ["PhotoViewer", "PhotoBrowser", "PhotoAlbum", "ImageCodecs", "ExampleSupport"],
            path: "Examples/photo-browser",
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "weibo-client",
            dependencies: ["WeiboKit", "WeiboShare", "ShareKit", "ShareKitHTTP", "ImageCodecs", "ExampleSupport"],
            path: "Examples/weibo-client",
            swiftSettings: swiftSettings
        ),

        // MARK: Benchmarks
        .executableTarget(
            name: "codec-bench",
            dependencies: ["ImageCodecs"],
            path: "Benchmarks/codec-bench",
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "share-bench",
            dependencies: ["ShareKit", "ImageCodecs"],
            path: "Benchmarks/share-bench",
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "browser-bench",
            dependencies: ["PhotoBrowser", "ImageCodecs", "ExampleSupport"],
            path: "Benchmarks/browser-bench",
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "workers-bench",
            dependencies: ["ImageCodecs", "ExampleSupport"],
            path: "Benchmarks/workers-bench",
            swiftSettings: swiftSettings
        ),

        // MARK: Fuzzing (scripts/fuzz.sh builds this with libFuzzer)
        .executableTarget(
            name: "photodeck-fuzz",
            dependencies: [
                "ImageCodecs", "ShareKit", "ShareKitHTTP", "ShareKitTesting", "WeiboKit", "WeiboShare", "WeChatShare", "PhotoViewer", "SQLiteSupport",
            ],
            path: "Fuzz/photodeck-fuzz",
            swiftSettings: swiftSettings
        ),

        // MARK: Tests
        // Prints LinuxNetworkMonitor's paths; the tests run it in a network namespace.
        .executableTarget(name: "netwatch", dependencies: ["ShareKit"], path: "Tests/NetWatch", swiftSettings: swiftSettings),
        // One process's worth of a store, for tests that run two processes on one file.
        .executableTarget(
            name: "store-tool", dependencies: ["ShareKit", "WeiboKit", "SQLiteSupport", "SystemSupport"], path: "Tests/StoreTool", swiftSettings: swiftSettings),
        // A fake Weibo on loopback for the client's and the example's tests.
        .target(name: "FakeWeibo", dependencies: ["ShareKit", "ShareKitHTTP", "ShareKitHTTPTesting"], path: "Tests/FakeWeibo", swiftSettings: swiftSettings),
        // Helpers every test target shares: fixtures, seeded data, fakes, waiting on events.
        .target(name: "TestSupport", dependencies: ["ImageCodecs", "PhotoAlbum", "CZlib", "CGIF"], path: "Tests/TestSupport", swiftSettings: swiftSettings),
        .testTarget(
            name: "SQLiteSupportTests",
            dependencies: ["SQLiteSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SystemSupportTests",
            dependencies: ["SystemSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ImageCodecsTests",
            dependencies: ["ImageCodecs", "TestSupport", "CHeif", "CGIF", "CLCMS2", "CResample", "CTurboJPEG"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PhotoBrowserTests",
            dependencies: ["PhotoBrowser", "ImageCodecs", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PhotoViewerTests",
            dependencies: ["PhotoViewer", "PhotoBrowser", "ImageCodecs", "TestSupport", "CSixel", "CZlib"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PhotoAlbumTests",
            dependencies: ["PhotoAlbum", "ImageCodecs", "TestSupport", "SQLiteSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ShareKitTests",
            dependencies: ["ShareKit", "ShareKitHTTP", "ShareKitTesting", "ShareKitHTTPTesting", "ImageCodecs", "TestSupport", "SQLiteSupport"],
            swiftSettings: swiftSettings
        ),
        // The README's and doc comments' code samples, compiled (and checked to be there).
        .testTarget(
            name: "DocSnippetTests",
            dependencies: [
                "ImageCodecs", "PhotoAlbum", "PhotoBrowser", "PhotoViewer", "ShareKit", "ShareKitHTTP", "ShareKitTesting", "ShareKitHTTPTesting", "WeiboKit",
                "WeiboShare",
                "WeChatShare", "WeChatAppShare", "SystemSupport", "TestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ShareKitTestingTests",
            dependencies: ["ShareKit", "ShareKitHTTP", "ShareKitTesting", "ShareKitHTTPTesting", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ProviderTests",
            dependencies: [
                "WeiboKit", "WeiboShare", "WeChatShare", "WeChatAppShare", "ShareKit", "ShareKitHTTP", "ShareKitTesting", "ShareKitHTTPTesting",
                "ImageCodecs", "TestSupport", "FakeWeibo",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WeiboKitTests",
            dependencies: ["WeiboKit", "FakeWeibo", "ShareKit", "ShareKitHTTP", "ShareKitTesting", "ShareKitHTTPTesting", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PhotoFitTests",
            dependencies: [
                "photo-fit", "photo-album", "photo-share", "photo-browser", "weibo-client", "photodeck-fuzz", "netwatch", "store-tool", "FakeWeibo",
                "ImageCodecs", "PhotoBrowser", "PhotoViewer", "CZlib", "ShareKit", "ShareKitHTTP", "ShareKitTesting", "ShareKitHTTPTesting", "TestSupport",
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
