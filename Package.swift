// swift-tools-version:6.0
import PackageDescription

/// Compiler settings shared by every Swift target: Swift 6 mode is the
/// package default; complete strict concurrency is implied by it.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// A C library from a Debian package: its module map (and any shim header)
/// in Sources/C/NAME, found through pkg-config when `pkgConfig` is given.
func cLibrary(_ name: String, pkgConfig: String? = nil, apt packages: [String]) -> Target {
    .systemLibrary(name: name, path: "Sources/C/\(name)", pkgConfig: pkgConfig, providers: [.apt(packages)])
}

/// A C target of PhotoDeck's own in Sources/C/NAME: the thin shim over a
/// library, or code that must be C (setjmp, variadic calls, SIMD loops).
func cShim(_ name: String, dependencies: [Target.Dependency] = [], linkerSettings: [LinkerSetting]? = nil) -> Target {
    .target(name: name, dependencies: dependencies, path: "Sources/C/\(name)", linkerSettings: linkerSettings)
}

// Linux only, and said so: the camera (V4L2), the network monitor
// (rtnetlink) and the folder watcher (inotify) use Linux APIs, and every
// system library comes from a Debian package. Nothing has been built on
// macOS, so the manifest claims no Apple platform and no Homebrew formula.
let package = Package(
    name: "PhotoDeck",
    products: [
        .library(name: "ImageCore", targets: ["ImageCore"]),
        .library(name: "ImageCodecs", targets: ["ImageCodecs"]),
        .library(name: "VideoCodecs", targets: ["VideoCodecs"]),
        .library(name: "PhotoBrowser", targets: ["PhotoBrowser"]),
        .library(name: "ImageLoading", targets: ["ImageLoading"]),
        .library(name: "PhotoViewer", targets: ["PhotoViewer"]),
        .library(name: "PhotoAlbum", targets: ["PhotoAlbum"]),
        .library(name: "PhotoGallery", targets: ["PhotoGallery"]),
        .library(name: "ServiceKit", targets: ["ServiceKit"]),
        .library(name: "ShareKit", targets: ["ShareKit"]),
        .library(name: "ShareMedia", targets: ["ShareMedia"]),
        .library(name: "ServiceKitTesting", targets: ["ServiceKitTesting"]),
        .library(name: "ShareKitTesting", targets: ["ShareKitTesting"]),
        .library(name: "WeiboKit", targets: ["WeiboKit"]),
        .library(name: "WeiboShare", targets: ["WeiboShare"]),
        .library(name: "WeChatShare", targets: ["WeChatShare"]),
        .library(name: "WeChatShareTesting", targets: ["WeChatShareTesting"]),
        .library(name: "QQShare", targets: ["QQShare"]),
        .library(name: "QQShareTesting", targets: ["QQShareTesting"]),
        .library(name: "DesktopNotifications", targets: ["DesktopNotifications"]),
        .library(name: "SafeText", targets: ["SafeText"]),
        .library(name: "ConsoleIO", targets: ["ConsoleIO"]),
        .executable(name: "photo-fit", targets: ["photo-fit"]),
        .executable(name: "photo-meta", targets: ["photo-meta"]),
        .executable(name: "photo-album", targets: ["photo-album"]),
        .executable(name: "photo-share", targets: ["photo-share"]),
        .executable(name: "photo-browser", targets: ["photo-browser"]),
        .executable(name: "weibo-client", targets: ["weibo-client"]),
    ],
    targets: [
        // MARK: C libraries and shims, all under Sources/C (so Sources/ lists the Swift modules)
        cLibrary("CTurboJPEG", pkgConfig: "libturbojpeg", apt: ["libturbojpeg0-dev"]),
        cLibrary("CJPEG", pkgConfig: "libjpeg", apt: ["libjpeg62-turbo-dev"]),
        cLibrary("CPNG", pkgConfig: "libpng", apt: ["libpng-dev"]),
        cLibrary("CWebP", pkgConfig: "libwebp", apt: ["libwebp-dev"]),
        // libjxl.pc pulls libhwy's -DHWY_SHARED_DEFINE into its flags, which SwiftPM refuses
        // with a warning; libjxl_threads.pc, from the same libjxl-dev, finds the library
        // without it (the module map links libjxl itself; its parallel steps run on PhotoDeck's
        // own runner, JXLThreads, not libjxl_threads').
        cLibrary("CJXL", pkgConfig: "libjxl_threads", apt: ["libjxl-dev"]),
        cLibrary("CHeif", pkgConfig: "libheif", apt: ["libheif-dev"]),
        // LibRaw for camera raw files; no pkgConfig: libraw.pc adds -fopenmp, which the Swift
        // driver does not take (the module map links libraw_r and libgomp instead).
        cLibrary("CLibRaw", apt: ["libraw-dev"]),
        // FFmpeg's headers (Debian 12: FFmpeg 5.1). No pkgConfig, unlike the other C libraries:
        // SwiftPM would link what `pkg-config --libs` names, and FFmpeg is loaded when the first
        // video is opened instead (see the module map). Debian's headers are on the default path.
        cLibrary("CFFmpeg", apt: ["libavformat-dev", "libavcodec-dev", "libavfilter-dev", "libswscale-dev", "libswresample-dev", "libavutil-dev"]),
        cLibrary("CDe265", pkgConfig: "libde265", apt: ["libde265-dev"]),
        cLibrary("CLCMS2", pkgConfig: "lcms2", apt: ["liblcms2-dev"]),
        cLibrary("CGIF", pkgConfig: "libgif", apt: ["libgif-dev"]),
        // No pkgConfig: SDL2's flags add only -I/usr/include/SDL2 (the shim
        // includes <SDL2/...> instead) and -D_REENTRANT, which SwiftPM
        // refuses with a warning on every build. Debian: libsdl2-dev
        // libsdl2-ttf-dev (`make deps-build` installs them).
        cLibrary("CSDL2", apt: ["libsdl2-dev", "libsdl2-ttf-dev"]),
        cLibrary("CChafa", pkgConfig: "chafa", apt: ["libchafa-dev"]),
        cLibrary("CSixel", pkgConfig: "libsixel", apt: ["libsixel-dev"]),
        cLibrary("CZlib", pkgConfig: "zlib", apt: ["zlib1g-dev"]),
        // libdbus for desktop notifications (org.freedesktop.Notifications on the session bus).
        cLibrary("CDBus", pkgConfig: "dbus-1", apt: ["libdbus-1-dev"]),
        cLibrary("CSQLite", pkgConfig: "sqlite3", apt: ["libsqlite3-dev"]),
        // libcurl for ServiceKit's CurlTransport (typed wrappers for its variadic calls in shim.h).
        cLibrary("CCurl", pkgConfig: "libcurl", apt: ["libcurl4-openssl-dev"]),
        cLibrary("CCrypto", pkgConfig: "libcrypto", apt: ["libssl-dev"]),
        // libpng's classic API and libjpeg report errors with longjmp; these C
        // targets own every setjmp so that no jump ever crosses a Swift frame.
        cShim("CJPEGShim", dependencies: ["CJPEG"]),
        cShim("CPNGShim", dependencies: ["CPNG"]),
        // A libheif decoder plugin running libde265 on worker threads.
        cShim("CHEVCDecoder", dependencies: ["CHeif", "CDe265"]),
        // V4L2 ioctls and mmap streaming for the Linux camera.
        cShim("CV4L2"),
        // TIOCGWINSZ (ioctl is variadic) and signal routing for SystemSupport's terminal port.
        cShim("CTerminal"),
        // mallopt (malloc.h is outside Swift's Glibc module) for SystemSupport's heap tuning.
        cShim("CHeap"),
        // renameat2's exchange and syncfs (GNU extensions) for SystemSupport's folder swaps.
        cShim("CFileShim"),
        // rtnetlink (socket, poll, and the NLMSG_* macros) for the network monitor.
        cShim("CNetlink"),
        // The resampler's inner loops, built for AVX2 and baseline x86-64.
        cShim("CResample"),
        // FFmpeg's reader over a bounded byte range of a file (AVIO callbacks, the interrupt
        // callback) and the error macros Swift cannot import.
        cShim("CVideoShim", dependencies: ["CFFmpeg"], linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]),
        // The sixel writer: its palette, nearest colours and bands.
        cShim("CSixelWriter"),
        // One Notify call on a private session-bus connection, and whether a server is there.
        cShim("CDBusShim", dependencies: ["CDBus"]),
        // Xlib's error handler (one filter for SDL's stale wakeups); Debian: libx11-dev.
        cShim("CX11Shim", linkerSettings: [.linkedLibrary("X11", .when(platforms: [.linux])), .linkedLibrary("pthread")]),

        // MARK: Modules
        // The terminal-safe text rule (public, depends on nothing): how text
        // from outside reaches a terminal or a JSON line, and how a line of
        // a file a person edits is quoted back.
        .target(name: "SafeText", swiftSettings: swiftSettings),
        // The platform floor (package access only; not a product): durable
        // atomic writes, file locks, regular-file opens, digests, and every
        // call into the C library (files, folders and their watcher,
        // descriptors, the terminal, sockets). The other modules call these,
        // so each rule has one copy and the platform code one home.
        .target(
            name: "SystemSupport",
            dependencies: ["SafeText", "CCrypto", "CTerminal", "CHeap", "CFileShim"],
            swiftSettings: swiftSettings
        ),
        // What a command-line tool reads and asks about (public): files a
        // person names, read as regular files within a bound, and whether
        // a standard stream is a terminal; SystemSupport's calls behind them.
        .target(name: "ConsoleIO", dependencies: ["SystemSupport"], swiftSettings: swiftSettings),
        // The execution floor (package access): every thread PhotoDeck
        // starts, the blocking queue, and the serial executor of the actors
        // that touch SQLite or fsync. Nothing above it starts a thread.
        .target(
            name: "Execution",
            dependencies: ["SystemSupport"],
            swiftSettings: swiftSettings
        ),
        // The image vocabulary (sizes, formats, pixels, orientation, limits,
        // the metadata policy, the codec error): no C library, no platform
        // code, so a module that only names images links nothing.
        .target(
            name: "ImageCore",
            swiftSettings: swiftSettings
        ),
        // Codecs only: every C image library sits behind this module, which
        // re-exports ImageCore.
        .target(
            name: "ImageCodecs",
            dependencies: [
                "ImageCore", "SystemSupport", "Execution", "CTurboJPEG", "CJPEGShim", "CPNGShim", "CWebP", "CJXL", "CResample", "CHeif", "CHEVCDecoder",
                "CLCMS2", "CGIF", "CZlib", "CLibRaw",
            ],
            swiftSettings: swiftSettings
        ),
        // Videos, beside ImageCodecs on the same floor: probe, poster
        // frames, through FFmpeg's libraries; re-exports ImageCore.
        .target(
            name: "VideoCodecs",
            dependencies: ["ImageCore", "SystemSupport", "Execution", "CFFmpeg", "CVideoShim"],
            swiftSettings: swiftSettings
        ),

        .target(
            name: "PhotoBrowser",
            dependencies: ["ImageCodecs", "VideoCodecs", "SystemSupport"],
            swiftSettings: swiftSettings
        ),

        // The browser engine on a screen: an SDL2 window and terminal graphics.
        .target(
            name: "PhotoViewer",
            dependencies: [
                "SafeText", "Execution", "PhotoBrowser", "ImageCodecs", "VideoCodecs", "SystemSupport", "CSDL2", "CX11Shim", "CChafa", "CSixelWriter", "CZlib",
            ],
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
            dependencies: [
                "SafeText",
                "ImageCodecs", "VideoCodecs", "SQLiteSupport", "SystemSupport", "Execution", .target(name: "CV4L2", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: swiftSettings
        ),
        // An album as a static web gallery (pages, renditions, link cards), over PhotoAlbum and ImageCodecs.
        .target(name: "PhotoGallery", dependencies: ["SafeText", "PhotoAlbum", "ImageCodecs", "SystemSupport", "Execution"], swiftSettings: swiftSettings),

        // Desktop notifications over D-Bus (org.freedesktop.Notifications).
        .target(
            name: "DesktopNotifications",
            dependencies: ["SafeText", "Execution", "SystemSupport", .target(name: "CDBusShim", condition: .when(platforms: [.linux]))],
            swiftSettings: swiftSettings
        ),
        // What talks to a web service, under both the share layer and the
        // Weibo client: the transport (redirect-safe, capped, with deadlines),
        // the service client with its at-most-once publish rule, credentials
        // and their stores, rate limits, the clock, network monitoring,
        // JSON, forms, multipart, redacting logs.
        .target(
            name: "ServiceKit",
            dependencies: ["SafeText", "SystemSupport", "Execution", "CCurl", .target(name: "CNetlink", condition: .when(platforms: [.linux]))],
            swiftSettings: swiftSettings
        ),
        // Sharing: providers, rules as data, the outbox. It names images
        // (ImageCore) and links no codec: libcurl, libcrypto and SQLite.
        .target(
            name: "ShareKit",
            dependencies: ["ImageCore", "ServiceKit", "SQLiteSupport", "SystemSupport", "Execution"],
            swiftSettings: swiftSettings
        ),
        // The content adapter that reads and writes pictures and videos
        // (every codec, FFmpeg included), which an app that shares photos
        // gives its ShareCenter.
        .target(
            name: "ShareMedia",
            dependencies: ["ShareKit", "ImageCore", "ImageCodecs", "VideoCodecs", "SystemSupport"],
            swiftSettings: swiftSettings
        ),
        // Photos from the network: coalesced downloads under per-host
        // limits and priorities, a disk cache with a hard cap, decode at size
        // into the shared rendition cache. PhotoBrowser and PhotoViewer do not
        // import it: an app (or an example) hands its photos to them.
        .target(
            name: "ImageLoading",
            dependencies: ["ImageCodecs", "ServiceKit", "SQLiteSupport", "SystemSupport", "Execution"],
            swiftSettings: swiftSettings
        ),
        // The Weibo client: accounts, timeline with its offline cache,
        // comments, reposts, people. No share layer, no image codecs: it
        // links libcrypto (through SystemSupport), SQLite and netlink only.
        .target(
            name: "WeiboKit",
            dependencies: ["ServiceKit", "SQLiteSupport", "SystemSupport", "Execution"],
            swiftSettings: swiftSettings
        ),
        // One module per provider family; ShareKit never imports them.
        .target(
            name: "WeiboShare",
            dependencies: ["WeiboKit", "ShareKit", "ServiceKit"],
            swiftSettings: swiftSettings
        ),
        // One module per vendor (a vendor splits only when a part would make
        // the rest link more than ShareKit does): WeChat's app on the device
        // (a bridge the host implements) and its server APIs.
        .target(
            name: "WeChatShare",
            dependencies: ["ShareKit", "ServiceKit", "ImageCore", "SystemSupport", "Execution"],
            swiftSettings: swiftSettings
        ),
        // Sharing through the QQ app on the device (a bridge the host
        // implements with Tencent's SDK): QQ chats, Qzone, Favorites, the dataline.
        .target(
            name: "QQShare",
            dependencies: ["ShareKit", "ServiceKit", "ImageCore"],
            swiftSettings: swiftSettings
        ),
        // Test doubles, shipped as products so apps can unit-test their own
        // code: the service layer's (a loopback HTTP server, a stub
        // transport, an in-memory log, a clock, a network monitor), the share
        // layer's (a mock provider; re-exports the service doubles) and the
        // WeChat app bridge's fake.
        .target(
            name: "ServiceKitTesting",
            dependencies: ["Execution", "ServiceKit", "SystemSupport"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ShareKitTesting",
            dependencies: ["ShareKit", "ServiceKit", "ServiceKitTesting", "SystemSupport"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WeChatShareTesting",
            dependencies: ["WeChatShare", "ShareKit", "ShareKitTesting", "ServiceKit", "ServiceKitTesting", "SystemSupport"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "QQShareTesting",
            dependencies: ["QQShare", "ShareKit", "ShareKitTesting", "ServiceKit", "ServiceKitTesting", "SystemSupport"],
            swiftSettings: swiftSettings
        ),

        // MARK: Examples
        // What the example executables share (error lines, exit codes, flag values).
        .target(name: "ExampleSupport", dependencies: ["SafeText", "ConsoleIO", "ImageCore"], path: "Examples/Support", swiftSettings: swiftSettings),
        // What the viewing examples share: the viewer's flags and launcher, photos from URLs through ImageLoading.
        .target(
            name: "ExampleViewing", dependencies: ["PhotoViewer", "PhotoBrowser", "ImageLoading", "ImageCodecs", "ServiceKit", "ExampleSupport"],
            path: "Examples/Viewing", swiftSettings: swiftSettings),
        .executableTarget(
            name: "photo-fit",
            dependencies: ["ImageCodecs", "VideoCodecs", "ExampleSupport"],
            path: "Examples/photo-fit",
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "photo-meta",
            dependencies: ["ImageCodecs", "VideoCodecs", "ExampleSupport"],
            path: "Examples/photo-meta",
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "photo-album",
            dependencies: ["PhotoAlbum", "PhotoGallery", "ImageCodecs", "ExampleSupport"],
            path: "Examples/photo-album",
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "photo-share",
            dependencies: [
                "ShareKit", "ShareMedia", "ServiceKit", "WeiboShare", "WeChatShare", "QQShare", "ImageCodecs", "VideoCodecs", "ExampleSupport",
            ],
            path: "Examples/photo-share",
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "photo-browser",
            dependencies: ["PhotoViewer", "PhotoBrowser", "PhotoAlbum", "ImageLoading", "ImageCodecs", "ExampleSupport", "ExampleViewing"],
            path: "Examples/photo-browser",
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "weibo-client",
            dependencies: [
                "WeiboKit", "WeiboShare", "ShareKit", "ShareMedia", "ServiceKit", "ImageCodecs", "ImageLoading", "PhotoBrowser", "PhotoViewer",
                "ExampleSupport",
                "ExampleViewing", "DesktopNotifications",
            ],
            path: "Examples/weibo-client",
            swiftSettings: swiftSettings
        ),

        // MARK: Benchmarks
        .executableTarget(
            name: "codec-bench",
            dependencies: ["ImageCodecs", "ExampleSupport"],
            path: "Benchmarks/codec-bench",
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "share-bench",
            dependencies: ["ShareKit", "ShareMedia", "ImageCodecs"],
            path: "Benchmarks/share-bench",
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "browser-bench",
            dependencies: ["PhotoBrowser", "ImageCodecs", "ExampleSupport", "SystemSupport"],
            path: "Benchmarks/browser-bench",
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "thumbnail-bench",
            dependencies: ["PhotoBrowser", "ExampleSupport"],
            path: "Benchmarks/thumbnail-bench",
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "loading-bench",
            dependencies: ["ImageLoading", "ImageCodecs", "PhotoBrowser", "PhotoViewer", "ServiceKit", "ExampleSupport"],
            path: "Benchmarks/loading-bench",
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "terminal-bench",
            dependencies: ["PhotoViewer", "ImageCodecs", "ExampleSupport", "SystemSupport"],
            path: "Benchmarks/terminal-bench",
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "dupes-bench",
            dependencies: ["PhotoAlbum", "ImageCodecs"],
            path: "Benchmarks/dupes-bench",
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "filter-bench",
            dependencies: ["WeiboKit"],
            path: "Benchmarks/filter-bench",
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "workers-bench",
            dependencies: ["ImageCodecs", "ExampleSupport", "SystemSupport"],
            path: "Benchmarks/workers-bench",
            swiftSettings: swiftSettings
        ),

        // MARK: Fuzzing (scripts/fuzz.sh builds this with libFuzzer)
        .executableTarget(
            name: "photodeck-fuzz",
            dependencies: [
                "ImageCodecs", "ShareKit", "ServiceKit", "ShareKitTesting", "WeiboKit", "WeiboShare", "WeChatShare", "PhotoViewer", "SQLiteSupport",
                "PhotoAlbum", "PhotoBrowser", "ImageLoading", "VideoCodecs",
            ],
            path: "Fuzz/photodeck-fuzz",
            swiftSettings: swiftSettings
        ),

        // MARK: Tests
        // Prints LinuxNetworkMonitor's paths; the tests run it in a network namespace.
        .executableTarget(name: "netwatch", dependencies: ["ServiceKit"], path: "Tests/NetWatch", swiftSettings: swiftSettings),
        // One process's worth of a store, for tests that run two processes on one file.
        .executableTarget(
            name: "store-tool", dependencies: ["ShareKit", "WeiboKit", "SQLiteSupport", "SystemSupport"], path: "Tests/StoreTool", swiftSettings: swiftSettings),
        // One process writing into an image disk cache, for the tests that share a cache folder between processes or kill a writer.
        .executableTarget(name: "cache-writer", dependencies: ["ImageLoading", "ServiceKit"], path: "Tests/CacheWriter", swiftSettings: swiftSettings),
        // One request with the default transport, reporting how much the process grew (memory bounds against hostile servers).
        .executableTarget(name: "fetch-probe", dependencies: ["ServiceKit"], path: "Tests/FetchProbe", swiftSettings: swiftSettings),
        // The disk executor's claim, measured in a process of its own.
        .executableTarget(
            name: "pool-stall-probe", dependencies: ["PhotoAlbum", "SQLiteSupport"], path: "Tests/PoolStallProbe", swiftSettings: swiftSettings),
        // Provokes the X errors the viewer's Xlib filter ignores and passes on, on a real X server.
        .executableTarget(
            name: "x11-error-probe", dependencies: ["CX11Shim"], path: "Tests/X11ErrorProbe",
            linkerSettings: [.linkedLibrary("X11"), .linkedLibrary("SDL2")]),
        // A fake Weibo on loopback for the client's and the example's tests.
        .target(name: "FakeWeibo", dependencies: ["ServiceKit", "ServiceKitTesting", "ImageCodecs"], path: "Tests/FakeWeibo", swiftSettings: swiftSettings),
        // Helpers every test target shares: fixtures, seeded data, fakes, waiting on events.
        .target(
            name: "TestSupport", dependencies: ["ImageCodecs", "PhotoAlbum", "CZlib", "CGIF", "CHeif", "SystemSupport", "Execution"], path: "Tests/TestSupport",
            swiftSettings: swiftSettings),
        // Reductions of toolchain bugs the package works around: each fails once a toolchain fixes its bug.
        .testTarget(name: "ToolchainTests", path: "Tests/ToolchainTests", swiftSettings: swiftSettings),
        .testTarget(
            name: "SQLiteSupportTests",
            dependencies: ["SQLiteSupport", "ShareKit", "ServiceKit", "ImageLoading", "PhotoAlbum", "WeiboKit"],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "SafeTextTests", dependencies: ["SafeText"], swiftSettings: swiftSettings),
        .testTarget(name: "ConsoleIOTests", dependencies: ["ConsoleIO"], swiftSettings: swiftSettings),
        .testTarget(name: "ExecutionTests", dependencies: ["Execution"], swiftSettings: swiftSettings),
        .testTarget(
            name: "SystemSupportTests",
            dependencies: ["Execution", "SystemSupport", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "VideoCodecsTests",
            dependencies: ["VideoCodecs", "ImageCodecs", "ImageCore", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        // ImageCore alone: what needs no codec (placeholder hashes from outside).
        .testTarget(name: "ImageCoreTests", dependencies: ["ImageCore", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "ImageCodecsTests",
            dependencies: ["ImageCodecs", "Execution", "TestSupport", "CHeif", "CGIF", "CLCMS2", "CResample", "CTurboJPEG", "SystemSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PhotoBrowserTests",
            dependencies: ["PhotoBrowser", "ImageCodecs", "VideoCodecs", "TestSupport", "SystemSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PhotoViewerTests",
            dependencies: ["PhotoViewer", "PhotoBrowser", "ImageCodecs", "VideoCodecs", "TestSupport", "CSixel", "SystemSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PhotoAlbumTests",
            dependencies: ["PhotoAlbum", "ImageCodecs", "TestSupport", "SQLiteSupport", "SystemSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PhotoGalleryTests",
            dependencies: ["PhotoGallery", "PhotoAlbum", "ImageCodecs", "TestSupport", "SystemSupport"],
            exclude: ["Browser"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ServiceKitTests",
            dependencies: ["ServiceKit", "ServiceKitTesting", "TestSupport", "fetch-probe"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ShareKitTests",
            dependencies: [
                "ShareKit", "ShareMedia", "ServiceKit", "ShareKitTesting", "ServiceKitTesting", "ImageCodecs", "TestSupport", "SQLiteSupport",
                "SystemSupport",
            ],
            swiftSettings: swiftSettings
        ),
        // The README's and doc comments' code samples, compiled (and checked to be there).
        .testTarget(
            name: "DocSnippetTests",
            dependencies: [
                "SafeText", "ConsoleIO",
                "Execution",
                "ImageCodecs", "PhotoAlbum", "PhotoGallery", "PhotoBrowser", "PhotoViewer", "ShareKit", "ShareMedia", "ServiceKit", "ShareKitTesting",
                "ServiceKitTesting",
                "WeiboKit",
                "WeiboShare",
                "WeChatShare", "WeChatShareTesting", "SystemSupport", "TestSupport", "ImageLoading", "VideoCodecs", "ImageCore",
                "QQShare", "QQShareTesting", "DesktopNotifications",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ShareKitTestingTests",
            dependencies: ["ShareKit", "ServiceKit", "ShareKitTesting", "ServiceKitTesting", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        // What the provider test targets share (credentials, clients, answers, prepared content).
        .target(
            name: "ProviderTestSupport", dependencies: ["ImageCore", "ServiceKit", "ServiceKitTesting", "ShareKit"], path: "Tests/ProviderTestSupport",
            swiftSettings: swiftSettings),
        // Every provider at once: the ShareProvider contract, the outbox, the app hand-off, secrets in logs.
        .testTarget(
            name: "ProviderTests",
            dependencies: [
                "ProviderTestSupport", "WeiboKit", "WeiboShare", "WeChatShare", "WeChatShareTesting", "QQShare", "QQShareTesting", "ShareKit",
                "ShareKitTesting", "ServiceKit", "ServiceKitTesting", "ShareMedia", "TestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WeChatShareTests",
            dependencies: [
                "WeChatShare", "WeChatShareTesting", "ProviderTestSupport", "ImageCodecs", "ServiceKit", "ServiceKitTesting", "ShareKit",
                "ShareKitTesting", "ShareMedia", "TestSupport", "WeiboKit",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "QQShareTests",
            dependencies: ["QQShare", "QQShareTesting", "ProviderTestSupport", "ImageCore", "ServiceKit", "ServiceKitTesting", "ShareKit", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WeiboShareTests",
            dependencies: [
                "WeiboShare", "WeiboKit", "ProviderTestSupport", "FakeWeibo", "ServiceKit", "ServiceKitTesting", "ShareKit", "ShareKitTesting",
                "ShareMedia", "TestSupport", "WeChatShare",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ImageLoadingTests",
            dependencies: ["ImageLoading", "ImageCodecs", "ServiceKit", "ServiceKitTesting", "SQLiteSupport", "SystemSupport", "TestSupport", "cache-writer"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WeiboKitTests",
            dependencies: ["WeiboKit", "FakeWeibo", "ServiceKit", "ServiceKitTesting", "SQLiteSupport", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        // The examples end to end, as a person runs them: the five tools,
        // the fuzz target's regressions, two processes on one store.
        .testTarget(
            name: "ExampleTests",
            dependencies: [
                "photo-fit", "photo-meta", "photo-album", "photo-share", "photo-browser", "weibo-client", "photodeck-fuzz", "netwatch", "store-tool",
                "FakeWeibo",
                "ImageCodecs", "PhotoBrowser", "PhotoViewer", "ShareKit", "ServiceKit", "ShareKitTesting", "ServiceKitTesting", "TestSupport",
                "SystemSupport", "SQLiteSupport", "ExampleSupport", "pool-stall-probe", "x11-error-probe", "ExampleViewing", "ImageLoading", "VideoCodecs",
                "CFFmpeg", "DesktopNotifications",
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
